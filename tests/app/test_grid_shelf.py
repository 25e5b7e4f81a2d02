"""The pages' grids (ui.grid_progress.GridShelf) in AppTest, with stand-in jobs whose state the
test sets: a cancelled grid says "cancelled (k of n done)" and keeps what it finished, a failed
one says so with its error, and a grid of earlier settings is found again when the settings
come back, or from the earlier-grids picker."""
from streamlit.testing.v1 import AppTest


def shelf_page():
    """A page with one setting (a number input), a Run button starting a stand-in job of 4
    tasks, Cancel, and the shelf; a task's frame is its settings' value."""
    import pandas as pd
    import streamlit as st

    from ui.grid_progress import GridShelf

    class Job:  # engine.live.grid_job.GridJob's face: the test moves it along
        def __init__(self, value):
            self.value, self.done, self.total, self.state, self.error = value, 0, 4, "running", None

        @property
        def running(self):
            return self.state == "running"

        def cancel(self):
            self.state = "cancelled"

        def rows(self):
            return pd.DataFrame({"value": [self.value] * self.done}) if self.done else None

    shelf = GridShelf("t")
    value = int(st.number_input("value", 0, 9, key="value"))
    if shelf.run_button(st, "Run", value):
        shelf.add(value, f"value {value}", Job(value))
        st.rerun()
    shelf.cancel_button(st)

    def draw(grid, slot):
        rows = grid.job.rows()
        if rows is not None:
            st.dataframe(rows.assign(slot=slot))

    shelf.show(value, draw)


def progress(at):
    return [p.proto.text for p in at.get("progress")]


def shown(at):
    """(value, slot) of each frame drawn."""
    return [(int(t.value["value"].iloc[0]), t.value["slot"].iloc[0]) for t in at.dataframe]


def start():
    at = AppTest.from_function(shelf_page, default_timeout=30)
    at.run()
    at.button(key="t_run").click().run()
    return at, at.session_state.t_grids[-1].job


def test_a_cancelled_grid_says_so_and_keeps_what_it_finished():
    at, job = start()
    assert progress(at) == ["0 of 4 runs done"] and at.button(key="t_run").disabled
    job.done = 3
    at.button(key="t_cancel").click().run()
    assert job.state == "cancelled"
    assert progress(at) == ["cancelled (3 of 4 done)"]
    assert shown(at) == [(0, "current")] and len(at.dataframe[0].value) == 3
    assert not at.button(key="t_run").disabled  # it may run again
    assert not at.exception


def test_a_cancelled_grid_with_nothing_done_is_not_called_finished():
    at, job = start()
    at.button(key="t_cancel").click().run()
    assert progress(at) == ["cancelled (0 of 4 done)"] and not at.dataframe


def test_a_failed_grid_says_so_with_its_error():
    at, job = start()
    job.done, job.state, job.error = 2, "failed", "the workers at tcp://x run engine 1.0"
    at.run()
    assert progress(at) == ["failed (2 of 4 done)"]
    assert [e.value for e in at.error] == [
        "The grid failed after 2 of 4 runs: the workers at tcp://x run engine 1.0"]
    assert shown(at) == [(0, "current")]


def test_earlier_settings_find_their_grid_again():
    at, first = start()
    first.done, first.state = 4, "finished"
    at.run()
    assert progress(at) == ["4 of 4 runs done — finished"]
    assert at.button(key="t_run").disabled  # finished for these settings: nothing to run
    at.number_input(key="value").set_value(5).run()
    assert not at.button(key="t_run").disabled
    at.button(key="t_run").click().run()
    second = at.session_state.t_grids[-1].job
    at.button(key="t_cancel").click().run()
    assert second.state == "cancelled" and progress(at) == ["cancelled (0 of 4 done)"]
    # the finished grid of value 0 is one pick away …
    picker = at.selectbox(key="t_earlier")
    assert picker.options == ["value 0 — 4 of 4 runs done — finished"]
    picker.set_value(1).run()  # the first grid of the session
    assert shown(at) == [(0, "earlier")]
    # … and shown as the current one when the setting is back
    at.number_input(key="value").set_value(0).run()
    assert progress(at)[0] == "4 of 4 runs done — finished" and shown(at)[0] == (0, "current")
    assert not at.exception


def test_the_most_complete_grid_of_the_settings_is_shown():
    at, first = start()
    first.done = 2
    at.button(key="t_cancel").click().run()
    at.button(key="t_run").click().run()
    at.button(key="t_cancel").click().run()  # a second try of the same settings: nothing done
    assert progress(at)[0] == "cancelled (2 of 4 done)"
    assert shown(at) == [(0, "current")]

"""The Sampler race's η sweep in AppTest: a cancelled sweep says so (it used to vanish without a
word), with what it finished, and the Run button comes back."""
import time

PAGE = "pages/sampler_race.py"


def test_a_cancelled_sweep_says_cancelled_and_keeps_its_chains(open_page):
    at = open_page(PAGE, model="toy", toy_n=200, sweep_step=0.5, sweep_chains=2,
                   sweep_seconds=3)
    at.button(key="race_sweep_run").click().run()
    job = at.session_state.race_sweep_grids[-1].job
    deadline = time.time() + 240
    while job.done < 1 and job.running and time.time() < deadline:
        time.sleep(0.2)
    at.button(key="race_sweep_cancel").click().run()
    assert job.state == "cancelled" and 1 <= job.done < job.total == 12
    status = [p.proto.text for p in at.get("progress")]
    assert status == [f"cancelled ({job.done} of 12 done)"]
    traces, _ = job.result()
    assert traces["chain"].nunique() >= 1
    # the chains it finished are drawn: the bands and the summary of those
    assert any("Lines: the median over the chains" in c.value for c in at.caption)
    assert not at.button(key="race_sweep_run").disabled
    assert not at.exception

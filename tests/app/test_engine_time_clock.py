"""The race clock through AppTest (issue 25, items 4 and 10): under equal engine time a run's
length is engine seconds (``seconds=`` in a link) and every sampler's line ends at that time;
Pause on the Sampler race levels its chains; the race tables say "—" for R̂ and ESS that mean
nothing, and why."""
import re
import time

import pytest

# (page, its key, the passes box's label, the seconds box's label, the default seconds)
PAGES = [("pages/toy_posterior.py", "toy", "Passes per run", "Engine seconds per run", 0.5),
         ("pages/word_segmentation.py", "seg", "Passes per run", "Engine seconds per run", 2.0),
         ("pages/sampler_race.py", "race", "Passes per chain", "Engine seconds per chain", 10.0)]
RACE = "pages/sampler_race.py"


def length_boxes(at, key):
    """{key: label} of the page's passes and seconds boxes that are drawn."""
    wanted = {f"{key}_passes", f"{key}_seconds"}
    return {box.key: box.label for box in at.number_input if box.key in wanted}


def passes(at):
    return [int(re.search(r"pass ([\d,]+)", m.label).group(1).replace(",", "")) for m in at.metric]


@pytest.mark.parametrize("path, key, passes_label, seconds_label, default", PAGES)
def test_the_length_box_follows_the_clock(open_page, path, key, passes_label, seconds_label,
                                          default):
    at = open_page(path, clock="passes", passes=20)
    assert length_boxes(at, key) == {f"{key}_passes": passes_label}
    race = at.session_state[f"{key}_race"]
    assert (race.total_sweeps, race.total_seconds) == (20, None)
    at = open_page(path, clock="time", seconds=0.3, passes=20)
    assert length_boxes(at, key) == {f"{key}_seconds": seconds_label}
    assert at.number_input(key=f"{key}_seconds").value == 0.3
    race = at.session_state[f"{key}_race"]
    assert (race.total_sweeps, race.total_seconds) == (None, 0.3)


@pytest.mark.parametrize("path, key, passes_label, seconds_label, default", PAGES)
@pytest.mark.parametrize("bad", ["abc", "0", "1e9"])
def test_a_bad_seconds_value_in_a_link_gets_a_notice_and_its_default(
        open_page, path, key, passes_label, seconds_label, default, bad):
    at = open_page(path, clock="time", seconds=bad)
    notices = " ".join(w.value for w in at.warning)
    # the notice names the setting as the page's box does
    assert f"`seconds={bad}`" in notices and seconds_label.lower() in notices
    assert at.number_input(key=f"{key}_seconds").value == default
    assert at.session_state[f"{key}_race"].total_seconds == default
    assert not at.exception and not at.error


def test_a_new_clock_starts_new_chains(open_page):
    at = open_page("pages/toy_posterior.py", passes=20)
    at.button(key="toy_step").click().run()
    assert passes(at) == [1, 1]
    at.session_state.toy_clock = "time"
    at.run()
    assert passes(at) == [0, 0]
    assert at.session_state.toy_race.total_seconds == 0.5
    assert length_boxes(at, "toy") == {"toy_seconds": "Engine seconds per run"}


@pytest.mark.parametrize("path, key, query", [
    ("pages/toy_posterior.py", "toy", {}),
    ("pages/word_segmentation.py", "seg", {"samplers": "token,type,sentence"})])
def test_every_samplers_line_ends_at_the_same_engine_time(open_page, path, key, query):
    """Played to its end under equal engine time, each sampler's last pass is the first to
    reach the run's engine seconds: the lines end together, within one pass."""
    limit = 0.2
    at = open_page(path, clock="time", seconds=limit, **query)
    at.button(key=f"{key}_play").click().run()
    for _ in range(100):
        if not at.session_state[f"{key}_playing"]:
            break
        at.run()
    race = at.session_state[f"{key}_race"]
    assert race.finished and not at.session_state[f"{key}_playing"]
    for name, run in race.runs.items():
        before, last = run.trace[-2]["seconds"], run.trace[-1]["seconds"]
        assert before < limit <= last, (name, before, last)
    sweeps = {run.sweeps_done for run in race.runs.values()}
    assert len(sweeps) > 1  # the samplers did different numbers of passes in that time
    captions = " ".join(c.value for c in at.caption)
    assert f"Every chain has had its {limit:g} s of engine time" in captions
    assert at.button(key=f"{key}_step").disabled


def test_pause_levels_the_races_chains(open_page):
    """The chains run in worker processes, each at its worker's pace: Pause brings them all to
    the furthest one's pass before the page draws them."""
    at = open_page(RACE, samplers="token,type", chains=8, passes=100_000, speed=50,
                   clock="passes")
    race = at.session_state.race_race
    at.button(key="race_play").click().run()
    # the workers sweep in the background: Pause once one chain has a pass (on a loaded
    # machine none had one yet when Pause came at once, and there was nothing to level)
    deadline = time.monotonic() + 60
    while max(race.sweeps()) == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    at.button(key="race_pause").click().run()
    assert not at.session_state.race_playing
    sweeps = race.sweeps()
    assert len(set(sweeps)) == 1 and sweeps[0] > 0, sweeps
    assert set(passes(at)) == {sweeps[0]}


def log_p_table(at):
    """The diagnostics table of the log-probability (the first)."""
    assert any("R̂ and ESS of **log p**" in md.value for md in at.markdown)
    return at.table[0].value


def toy_race_table(open_page, n, passes):
    """Race 4 chains each of TOKEN and TYPE on the toy of size n from spread starts for
    ``passes`` passes; return the diagnostics table of the log-probability (the first) and the
    page's captions."""
    at = open_page(RACE, model="toy", toy_n=n, samplers="token,type", chains=4,
                   starts="spread", passes=passes)
    at.session_state.race_race.sweep(passes)
    at.run()
    return log_p_table(at), " ".join(c.value for c in at.caption)


def test_the_diagnostics_table_says_dash_and_why_unless_rhat_is_below_1_01(open_page):
    # TOKEN's chain from m = n is still far from the others at pass 12 (R̂ ≈ 4.8); TYPE's
    # chains all reach the same state at once, so every draw is the same (no R̂)
    table, captions = toy_race_table(open_page, 100_000, 12)
    assert float(table.loc["TOKEN", "R̂"]) >= 1.01
    assert table.loc["TYPE", "R̂"] == "—"
    for sampler in ("TOKEN", "TYPE"):
        assert list(table.loc[sampler, ["bulk ESS", "tail ESS", "ESS/s"]]) == ["—"] * 3
    assert "ESS — : R̂ is not below 1.01, so those chains have not mixed" in captions
    assert "R̂ — : every draw of every chain is the same value" in captions


def test_the_diagnostics_table_gives_numbers_once_rhat_is_below_1_01(open_page):
    # n = 100: TOKEN and TYPE both mix within 200 passes
    table, captions = toy_race_table(open_page, 100, 200)
    for sampler in ("TOKEN", "TYPE"):
        assert float(table.loc[sampler, "R̂"]) < 1.01
        for column in ("bulk ESS", "tail ESS", "ESS/s"):
            assert float(table.loc[sampler, column].replace(",", "")) > 0
    assert "ESS — " not in captions


def test_a_huge_rhat_is_written_as_a_power_of_ten(open_page):
    # TYPE-greedy's chains on the nursery corpus from spread starts each freeze in a place of
    # their own: R̂ of their log p is astronomically large (or ∞), never a 20-digit number
    # across a phone. (From one shared start its chains are one chain: its moves draw nothing,
    # and word segmentation's pivots come in site order.)
    at = open_page(RACE, samplers="greedy", chains=4, passes=200, starts="spread")
    at.session_state.race_race.sweep(150)
    at.run()
    shown = log_p_table(at).loc["TYPE-greedy", "R̂"]
    assert shown == "∞" or re.fullmatch(r"\d\.\d×10[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]*", shown), shown

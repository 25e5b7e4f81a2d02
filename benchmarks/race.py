"""Issue 12's figures, on br-phono (../shared/data; the suite measures nothing without it):

- the Sampler race page's play tick with 5 samplers × 4 chains: the server's time to read the
  chains' new rows, compute R̂ and ESS and redraw both live parts (what the page reports under
  its table), sampled every 0.5 s for MEASURE seconds after SETTLE seconds of play, in headless
  Chromium under SCHED_IDLE (a student's browser draws on the student's machine);
- the η sweep as the page runs it: 11 η × TOKEN/TYPE × 4 chains × 10 s of engine time, the
  measures scored within 5% of the engine time (``race --measure-share 0.05``), on a local Dask
  cluster of 2 processes; wall time of the whole command;
- a grid's speed-up on 2 workers: 88 chains × 1 s, ``--workers 2`` against ``--workers 1``;
- issue 24's grid on a real cluster: 2 samplers × 4 chains × 3 η × 15 sweeps on a scheduler and
  two one-process workers started by ``python -m engine cluster`` from another folder, against
  the same grid on ``--workers 2`` (a LocalCluster started by the command); wall time of the
  command, the external cluster already running.

Alone: ``python -m benchmarks race``.
"""
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.class_load import app_server, descendants, to_idle
from benchmarks.common import Row
from tests.corpora import BR_PHONO
from tests.engine.test_cluster import external_cluster

ROOT = Path(__file__).resolve().parents[1]
SETTLE, MEASURE = 30.0, 60.0
RACE = ("/sampler_race?samplers=token,type,anneal,greedy,sentence&chains=4&clock=time"
        "&passes=100000&seg_source=upload")
TICK = re.compile(r"The server took ([\d,]+) ms")
GRID = ["--model", "usm", "--data", str(BR_PHONO), "--samplers", "token,type", "--chains", "4",
        "--eta-sweep", "0:1:0.1"]
CLUSTER_GRID = ["--model", "usm", "--data", str(BR_PHONO), "--samplers", "token,type",
                "--chains", "4", "--eta-sweep", "0:1:0.5", "--sweeps", "15"]


def tick_times():
    """The server's tick times (ms) while the 5 × 4 race plays."""
    import shutil

    from playwright.sync_api import sync_playwright

    from tests.e2e.conftest import CHROMIUM_ARGS
    with tempfile.TemporaryFile() as log, app_server(log) as (url, server), \
            sync_playwright() as play:
        browser = play.chromium.launch(executable_path=shutil.which("chromium"), headless=True,
                                       args=CHROMIUM_ARGS)
        # a student's browser draws on the student's machine: here it only gets the CPU the
        # server and the chains' workers leave (SCHED_IDLE), as in the class-load benchmark
        to_idle(descendants([os.getpid()], exclude=server))
        page = browser.new_page(viewport={"width": 1400, "height": 2400})
        page.set_default_timeout(180_000)
        page.goto(url + RACE)
        page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(BR_PHONO))
        page.get_by_text(re.compile(r"86,019 sites; 20 chains")).wait_for()
        to_idle(descendants([os.getpid()], exclude=server))  # the page's own processes too
        page.get_by_role("button", name="Play").click()
        page.wait_for_timeout(SETTLE * 1000)
        times, started = [], time.monotonic()
        while time.monotonic() - started < MEASURE:
            found = TICK.search(page.locator("body").inner_text())
            if found:
                times.append(int(found.group(1).replace(",", "")))
            page.wait_for_timeout(500)
        passes = page.locator('[data-testid="stMetricLabel"]').all_inner_texts()
        browser.close()
    return times, passes


def timed_race(*args, grid=GRID):
    with tempfile.TemporaryDirectory() as out:
        t0 = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "engine", "race", *grid, *args, "--out", out],
                              cwd=ROOT, capture_output=True, text=True, timeout=3600)
        if done.returncode:
            raise RuntimeError(f"race failed:\n{done.stderr[-2000:]}")
        return time.perf_counter() - t0


def rows():
    if not BR_PHONO.exists():
        print(f"no {BR_PHONO}: the race suite measures nothing", file=sys.stderr)
        return []
    times, passes = tick_times()
    sweep = timed_race("--seconds", "10", "--measure-share", "0.05", "--workers", "2")
    two = timed_race("--seconds", "1", "--workers", "2")
    one = timed_race("--seconds", "1", "--workers", "1")
    local, external = local_and_external()
    return [
        Row("Race page play tick, 5 samplers × 4 chains, br-phono (median)",
            statistics.median(times), 300.0, "ms",
            f"{len(times)} samples over {MEASURE:.0f} s after {SETTLE:.0f} s of play; longest "
            f"{max(times)} ms; equal engine time; the chains in 2 worker processes reached "
            f"{', '.join(passes)}"),
        Row("Race page play tick, longest", max(times), 300.0, "ms", "the same samples"),
        Row("η sweep, 88 chains × 10 s, br-phono", sweep / 60, 8.0, "min",
            "`race --seconds 10 --measure-share 0.05 --workers 2` (as the page runs it): 880 s "
            "of engine time on 2 cores is 7.3 min by itself"),
        Row("Grid of 88 chains × 1 s, 2 workers against 1", one / two, 1.7, "×",
            f"{one:.1f} s on 1 (in process) against {two:.1f} s on a local Dask cluster of 2",
            higher=True),
        Row("Grid of 24 chains × 15 sweeps, external 2-worker cluster against a local one",
            external / local, 1.3, "×",
            f"{external:.1f} s on `python -m engine cluster` processes against {local:.1f} s on "
            "`--workers 2`; br-phono, token,type × 4 chains × η 0, 0.5, 1"),
    ]


def local_and_external():
    """Wall times (s) of the cluster grid on ``--workers 2`` and on an external cluster of a
    scheduler and two one-process workers, started from a folder outside the checkout."""
    local = timed_race("--workers", "2", grid=CLUSTER_GRID)
    with tempfile.TemporaryDirectory() as folder, external_cluster(Path(folder)) as address:
        external = timed_race("--scheduler", address, grid=CLUSTER_GRID)
    return local, external

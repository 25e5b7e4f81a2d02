"""Issue 2's figures: the toy `ab` model's TOKEN sweep, its exact posterior, the Toy page."""
import subprocess
import sys
import textwrap
from pathlib import Path


from benchmarks.common import Row, median_seconds
from engine.models.toy.model import ToyModel
from engine.run import Run

ROOT = Path(__file__).resolve().parents[1]
N = 100_000


def token_sweep():
    run = Run(ToyModel(N), "token", seed=1)
    run.sweep()  # leave m = n, so sweeps are timed where the chain spends its life
    seconds = median_seconds(run.sweep, repeats=200)
    return Row(f"TOKEN sweep, toy n = {N:,}", seconds * 1e3, 3.0, "ms",
               f"median of 200 sweeps; {seconds / N * 1e9:.1f} ns per site")


def exact_posterior():
    model = ToyModel(N)
    first = _fresh_process_seconds("from engine.models.toy.model import ToyModel\n"
                                   "start()\nToyModel(100_000).log_posterior()\nstop()")
    seconds = median_seconds(model.log_posterior, repeats=50)
    return Row(f"exact log p(m | x), n = {N:,}", seconds * 1e3, 50.0, "ms",
               f"median of 50 calls; first call in a fresh process incl. imports and "
               f"Numba cache load: {first * 1e3:,.0f} ms")


PAGE_SCRIPT = """
from streamlit.testing.v1 import AppTest
start()
at = AppTest.from_file("app.py", default_timeout=120).run()
at.switch_page("pages/toy_posterior.py").run()
stop()
assert not at.exception and len(at.metric) == 2, "the Toy page did not render"
"""


def page_first_load():
    seconds = _fresh_process_seconds(PAGE_SCRIPT)
    return Row("Toy page first load, fresh process, Numba cache warm", seconds, 5.0, "s",
               "python start → Home → Toy page rendered (AppTest, incl. imports and exact "
               "posterior, TYPE draws, 200 TOKEN escape chains)")


TICK_SCRIPT = """
import statistics, time
from streamlit.testing.v1 import AppTest
at = AppTest.from_file("app.py", default_timeout=120).run()
at.switch_page("pages/toy_posterior.py").run()
at.number_input(key="toy_passes").set_value(10_000).run()
at.multiselect(key="toy_samplers").set_value(["token", "type", "anneal", "greedy"]).run()
at.button(key="toy_play").click().run()
times = []
for _ in range(20):
    t0 = time.perf_counter(); at.run(); times.append(time.perf_counter() - t0)
assert at.session_state.toy_playing and not at.exception
print(statistics.median(times))
"""


def play_tick():
    out = _python(TICK_SCRIPT)
    seconds = float(out.strip().splitlines()[-1])
    return Row("Toy page play tick (advance + redraw)", seconds * 1e3, 200.0, "ms",
               "median of 20 ticks, n = 1,000, all four samplers, speed 5; timed as a whole-page "
               "rerun, an upper bound on the fragment's tick")


def _fresh_process_seconds(body):
    """Seconds between start() and stop() in ``body``, run by a new Python process; the timer
    starts with the process, so imports count."""
    prelude = ("import time\n_t0 = time.perf_counter()\n"
               "def start(): pass\n"
               "def stop():\n    print(time.perf_counter() - _t0)\n")
    return float(_python(prelude + textwrap.dedent(body)).strip().splitlines()[-1])


def _python(code):
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)
    if done.returncode:
        raise RuntimeError(f"benchmark subprocess failed:\n{done.stderr[-2000:]}")
    return done.stdout


def rows():
    _python(PAGE_SCRIPT.replace("start()", "").replace("stop()", ""))  # warm Numba's cache
    return [token_sweep(), exact_posterior(), page_first_load(), play_tick()]

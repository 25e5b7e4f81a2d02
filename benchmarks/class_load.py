"""Issue 11, item 8: a class on one server. Five sessions play while a sixth opens Word
segmentation: how long until its page is interactive, and how long a Step takes to answer.

One `streamlit run app.py` (headless) and one headless Chromium with a browser context per
session. The five players open Word segmentation and HMM tag trajectories in turn at the top
speed (``?speed=50``) with long runs (``?passes=20000``, so none finishes during the
measurement), press Play and play for SETTLE seconds. Then, REPEATS times, a new context opens
/word_segmentation and is timed:

- *first page interactive*: from the navigation until the Step button is visible and enabled
  and a Plotly chart is drawn;
- *Step answers*: from the click on Step until every metric label reads "· pass 1".

Medians are reported, with the server process's CPU (from /proc/<pid>/stat; 100% = one core),
the browser's (Chromium and Playwright's driver: on a real class the players' browsers are on
their own machines, here they share this machine's cores), the whole machine's busy share and
the load average, since other work on the machine changes the figures.

Alone: ``python -m benchmarks.class_load`` (needs Playwright and Debian's chromium, as the
browser tests do; run ``python -m engine warm`` first so the server does not compile kernels).
"""
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.common import Row, markdown_table

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = ("word_segmentation", "tag_trajectories", "word_segmentation", "tag_trajectories",
           "word_segmentation")
PLAYER_QUERY = "?speed=50&passes=20000"
SETTLE = 10.0       # seconds the five play before the first measurement
REPEATS = 3
PAUSE_BETWEEN = 3.0  # seconds between two measurements (the closed context's session goes idle)
TIMEOUT_MS = 120_000
CLK_TCK = os.sysconf("SC_CLK_TCK")

INTERACTIVE = """() => {
  const step = [...document.querySelectorAll('button')]
      .find(b => b.innerText.split(/\\s+/).includes('Step'));  // "skip_next Step →"
  return !!step && !step.disabled && step.offsetParent !== null
      && document.querySelector('.js-plotly-plot .main-svg') !== null;
}"""
ALL_AT_PASS_1 = """() => {
  const labels = [...document.querySelectorAll('[data-testid="stMetricLabel"]')];
  return labels.length > 0 && labels.every(e => /· pass 1\b/.test(e.innerText));
}"""
PASSES = """() => [...document.querySelectorAll('[data-testid="stMetricLabel"]')]
    .map(e => (e.innerText.match(/pass ([\\d,]+)/) || [, '-1'])[1].replace(/,/g, ''))
    .map(Number)"""


# --- CPU and load from /proc ------------------------------------------------------------------
def _stat(pid):
    """(parent pid, CPU seconds user + system) of a process, or None when it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()  # fields from the 3rd (state) on
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / CLK_TCK


def _descendants_cpu(root, exclude):
    """CPU seconds of every living descendant of ``root`` but ``exclude`` and its own."""
    stats = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            found = _stat(int(entry))
            if found:
                stats[int(entry)] = found
    children = {}
    for pid, (ppid, _) in stats.items():
        children.setdefault(ppid, []).append(pid)
    total, todo = 0.0, list(children.get(root, []))
    while todo:
        pid = todo.pop()
        if pid == exclude:
            continue
        total += stats[pid][1]
        todo += children.get(pid, [])
    return total


def _machine_busy():
    """(busy, total) jiffies of every core since boot, from /proc/stat."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]  # idle + iowait
    return sum(values) - idle, sum(values)


class Meter:
    """CPU shares over a stretch of wall time: the server, the browser, the whole machine."""

    def __init__(self, server_pid):
        self.server_pid = server_pid
        self.start = self._sample()

    def _sample(self):
        server = _stat(self.server_pid)
        return (time.perf_counter(), server[1] if server else 0.0,
                _descendants_cpu(os.getpid(), self.server_pid), _machine_busy())

    def read(self):
        """{server, browser: % of one core; machine: % of all cores busy; load: 1-min average}"""
        (t0, s0, b0, (busy0, all0)), (t1, s1, b1, (busy1, all1)) = self.start, self._sample()
        wall = t1 - t0
        return dict(server=100 * (s1 - s0) / wall, browser=100 * max(0.0, b1 - b0) / wall,
                    machine=100 * (busy1 - busy0) / max(1, all1 - all0),
                    load=os.getloadavg())


# --- the server and the browser ---------------------------------------------------------------
@contextlib.contextmanager
def _server(log):
    """`streamlit run app.py` on a free port (stderr to ``log``); yields (url, pid)."""
    from tests.e2e.conftest import free_port, wait_until_healthy
    port = free_port()
    env = dict(os.environ, STREAMLIT_BROWSER_GATHER_USAGE_STATS="false")
    process = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.headless=true",
         f"--server.port={port}", "--server.address=127.0.0.1"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_healthy(url, process)
        yield url, process.pid
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _new_page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 3200})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    return context, page


def _start_player(browser, url, lesson):
    context, page = _new_page(browser)
    page.goto(f"{url}/{lesson}{PLAYER_QUERY}", wait_until="commit")
    play = page.get_by_role("button", name="Play")
    play.wait_for()
    page.wait_for_function(INTERACTIVE)  # Play is enabled once the race is drawn
    play.click()
    page.get_by_role("button", name="Pause").wait_for()
    return context, page


def _passes(pages):
    """Each player's lowest pass number (-1 when its labels could not be read)."""
    found = []
    for page in pages:
        try:
            found.append(min(page.evaluate(PASSES) or [-1]))
        except Exception:  # noqa: BLE001 — a page mid-redraw: count it as unread
            found.append(-1)
    return found


def _measure_sixth(browser, url, server_pid):
    """One new session on /word_segmentation: (seconds to interactive, seconds for Step, CPU)."""
    context, page = _new_page(browser)
    meter = Meter(server_pid)
    try:
        t0 = time.perf_counter()
        page.goto(f"{url}/word_segmentation", wait_until="commit")
        page.wait_for_function(INTERACTIVE, polling=20)
        interactive = time.perf_counter() - t0
        step = page.get_by_role("button", name="Step")
        t1 = time.perf_counter()
        step.click()
        page.wait_for_function(ALL_AT_PASS_1, polling=20)
        answered = time.perf_counter() - t1
    finally:
        context.close()
    return interactive, answered, meter.read()


def measure(players=PLAYERS, repeats=REPEATS, settle=SETTLE, report=None):
    """Run the scenario; returns a dict of the figures (report(text) is told the progress)."""
    from playwright.sync_api import sync_playwright

    from tests.e2e.conftest import CHROMIUM_ARGS, chromium_path
    report = report or (lambda text: print(text, file=sys.stderr, flush=True))
    path = chromium_path()
    if path is None:
        raise RuntimeError("Debian's chromium is not installed (sudo apt-get install chromium)")
    with tempfile.TemporaryFile() as log, _server(log) as (url, pid), \
            sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, headless=True,
                                             args=CHROMIUM_ARGS)
        try:
            contexts, pages = [], []
            for n, lesson in enumerate(players, 1):
                t0 = time.perf_counter()
                context, page = _start_player(browser, url, lesson)
                contexts.append(context)
                pages.append(page)
                report(f"player {n} ({lesson}) playing after {time.perf_counter() - t0:.1f} s")
            meter = Meter(pid)
            before = _passes(pages)
            time.sleep(settle)
            after = _passes(pages)
            idle = meter.read()
            rates = [(b - a) / settle for a, b in zip(before, after)]
            report(f"{settle:.0f} s of {len(players)} players: passes/s {rates}; server CPU "
                   f"{idle['server']:.0f}%, browser {idle['browser']:.0f}%, machine "
                   f"{idle['machine']:.0f}% busy, load {idle['load'][0]:.2f}")
            runs = []
            for n in range(repeats):
                start = _passes(pages)
                t0 = time.perf_counter()
                interactive, answered, cpu = _measure_sixth(browser, url, pid)
                wall = time.perf_counter() - t0
                end = _passes(pages)
                cpu["player_rates"] = [(b - a) / wall for a, b in zip(start, end)]
                runs.append((interactive, answered, cpu))
                report(f"6th session #{n + 1}: interactive {interactive:.2f} s, Step "
                       f"{answered:.2f} s; server CPU {cpu['server']:.0f}%, browser "
                       f"{cpu['browser']:.0f}%, machine {cpu['machine']:.0f}% busy; load "
                       f"{' '.join(f'{v:.2f}' for v in cpu['load'])}; players' passes/s "
                       f"{' '.join(f'{r:.1f}' for r in cpu['player_rates'])}")
                time.sleep(PAUSE_BETWEEN)
            still = sum(page.get_by_role("button", name="Pause").count() > 0 for page in pages)
            for context in contexts:
                context.close()
        finally:
            browser.close()
    return dict(players=players, settle=idle, settle_rates=rates, runs=runs, still=still)


def _summary(figures):
    runs = figures["runs"]
    mean = lambda key: statistics.fmean(cpu[key] for _, _, cpu in runs)  # noqa: E731
    loads = [cpu["load"][0] for _, _, cpu in runs]
    kinds = ", ".join(f"{figures['players'].count(p)} × {p}" for p in dict.fromkeys(
        figures["players"]))
    return (f"{len(figures['players'])} players ({kinds}) at speed 50, "
            f"{figures['still']} still playing at the end; server CPU {mean('server'):.0f}% "
            f"of a core, browser {mean('browser'):.0f}%, machine {mean('machine'):.0f}% busy "
            f"of {os.cpu_count()} cores; 1-min load {min(loads):.2f}–{max(loads):.2f}")


def rows():
    figures = measure()
    interactive = [r[0] for r in figures["runs"]]
    answered = [r[1] for r in figures["runs"]]
    summary = _summary(figures)
    times = lambda values: ", ".join(f"{v:.2f}" for v in values)  # noqa: E731
    return [
        Row("Class load: 6th session's first page interactive (5 sessions playing)",
            statistics.median(interactive), 8.0, "s",
            f"median of {len(interactive)} new sessions ({times(interactive)} s): navigation → "
            f"Step enabled and a Plotly chart drawn, Word segmentation; {summary}"),
        Row("Class load: Step answers (5 sessions playing)", statistics.median(answered), 1.0,
            "s", f"median of {len(answered)} ({times(answered)} s): click → every metric at "
                 "pass 1, Word segmentation (5 samplers, built-in corpus)"),
    ]


if __name__ == "__main__":
    print(markdown_table(rows()))

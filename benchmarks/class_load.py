"""Issue 11, item 8: a class on one server. Five sessions play while a sixth opens Word
segmentation: how long until its page is interactive, and how long a Step takes to answer.

One `streamlit run app.py` (headless) and headless Chromium, a browser context per session.
First the server's first visitor loads the engine, and REPEATS new sessions are timed with no
one playing (the baseline: what the page costs without a class). Then five players open Word
segmentation and HMM tag trajectories in turn at the top speed (``?speed=50``) with long runs
(``?passes=5000``, so none finishes during the measurement), press Play and play for SETTLE
seconds; REPEATS new sessions then open /word_segmentation and are timed again:

- *first page interactive*: from the navigation until the Step button is visible and enabled
  and a chart is drawn;
- *Step answers*: from the click on Step until every metric label reads "· pass 1".

Medians are reported, with the server process's CPU (from /proc/<pid>/stat; 100% = one core),
the browsers' (Chromium and Playwright's driver), the whole machine's busy share and the load
average: other work on the machine changes the figures. In a class the players' browsers are
on the students' machines; here they share the server's cores, so once they play their
browser is put under SCHED_IDLE (IDLE_PLAYERS; ``--players-not-idle``: it is not) and
their pages do not load the chart libraries or the data grid (LIGHT_PLAYERS; ``--full-players``:
they do).
The server's work is the same either way: it builds and sends every figure and table.

Each new session's times are split where its websocket says: the page's scripts loading (until
the socket opens), the server (until the last message before the page is interactive) and the
drawing.

Alone: ``python -m benchmarks.class_load [--players-not-idle] [--full-players]
[--<streamlit option>=<value> …]``, the last passed to `streamlit run` (to try a setting). It
needs Playwright and Debian's chromium, as the browser tests do; run ``python -m engine warm``
first, so that the server loads its kernels instead of compiling them.
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
PLAYER_QUERY = "?speed=50&passes=5000"  # 5,000: the most both lessons accept
SETTLE = 10.0       # seconds the five play before the first measurement
REPEATS = 3
PAUSE_BETWEEN = 3.0  # seconds between two measurements (the closed context's session goes idle)
TIMEOUT_MS = 120_000
# in a class the players' browsers are on the students' machines; here they share the server's
# cores: once they play, their browser is put under SCHED_IDLE (it runs on CPU no one else wants)
IDLE_PLAYERS = True
# the players' pages do not load the charts' and the data grid's scripts (their charts are not
# drawn), which takes most of their browser's work off this machine; the server's work is the
# same: it builds and sends every figure and table all the same
LIGHT_PLAYERS = True
LIGHT_BLOCKED = ("**/static/js/PlotlyChart*.js", "**/static/js/ArrowVegaLiteChart*.js",
                 "**/static/js/DataFrame*.js")
CLK_TCK = os.sysconf("SC_CLK_TCK")

# the page's own clock, in ms since its navigation started, once the condition holds
INTERACTIVE = r"""() => {
  const step = [...document.querySelectorAll('button')]
      .find(b => b.innerText.split(/\s+/).includes('Step'));  // "skip_next Step →"
  const ready = !!step && !step.disabled && step.offsetParent !== null
      && document.querySelector('.vega-embed svg') !== null;
  return ready && performance.now();
}"""
ALL_AT_PASS_1 = r"""() => {
  const labels = [...document.querySelectorAll('[data-testid="stMetricLabel"]')];
  return labels.length > 0 && labels.every(e => /· pass 1\b/.test(e.innerText))
      && performance.now();
}"""
NOTE_CLICK = """() => document.addEventListener(
  'click', () => { window.clickedAt = performance.now(); }, {capture: true, once: true})"""
PLAY_READY = r"""() => {
  const play = [...document.querySelectorAll('button')]
      .find(b => b.innerText.split(/\s+/).includes('Play'));
  return !!play && !play.disabled;
}"""
PASSES = """() => [...document.querySelectorAll('[data-testid="stMetricLabel"]')]
    .map(e => (e.innerText.match(/pass ([\\d,]+)/) || [, '-1'])[1].replace(/,/g, ''))
    .map(Number)"""


# --- CPU and load from /proc ------------------------------------------------------------------
def _stat(pid, tid=None):
    """(parent pid, CPU seconds user + system) of a process (or one of its threads), or None
    when it is gone."""
    where = f"/proc/{pid}/task/{tid}/stat" if tid else f"/proc/{pid}/stat"
    try:
        text = Path(where).read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()  # fields from the 3rd (state) on
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / CLK_TCK


def _processes():
    """{pid: (parent pid, CPU seconds)} of every living process."""
    stats = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            found = _stat(int(entry))
            if found:
                stats[int(entry)] = found
    return stats


def descendants(roots, exclude=None, stats=None):
    """The pids of every living descendant of ``roots`` (but ``exclude`` and its own)."""
    stats = stats or _processes()
    children = {}
    for pid, (ppid, _) in stats.items():
        children.setdefault(ppid, []).append(pid)
    found, todo = [], [child for root in roots for child in children.get(root, [])]
    while todo:
        pid = todo.pop()
        if pid != exclude:
            found.append(pid)
            todo += children.get(pid, [])
    return found


def _descendants_cpu(root, exclude):
    """CPU seconds of every living descendant of ``root`` but ``exclude`` and its own."""
    stats = _processes()
    return sum(stats[pid][1] for pid in descendants([root], exclude, stats))


def to_idle(pids):
    """Every thread of these processes (and of what they start later) under SCHED_IDLE: they
    get only the CPU no one else wants. (Not ``nice``: Chromium, run as root, sets its
    processes' niceness itself.)"""
    for pid in pids:
        with contextlib.suppress(OSError):
            for tid in os.listdir(f"/proc/{pid}/task"):
                with contextlib.suppress(OSError):
                    os.sched_setscheduler(int(tid), os.SCHED_IDLE, os.sched_param(0))


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
        main = _stat(self.server_pid, self.server_pid)  # Tornado's event loop: the main thread
        return (time.perf_counter(), server[1] if server else 0.0, main[1] if main else 0.0,
                _descendants_cpu(os.getpid(), self.server_pid), _machine_busy())

    def read(self):
        """{server, server_main (its event-loop thread), browser (ours and Playwright's
        driver): % of one core; machine: % of all cores busy; load: os.getloadavg()}"""
        (t0, s0, m0, b0, (busy0, all0)) = self.start
        (t1, s1, m1, b1, (busy1, all1)) = self._sample()
        wall = t1 - t0
        return dict(server=100 * (s1 - s0) / wall, server_main=100 * (m1 - m0) / wall,
                    browser=100 * max(0.0, b1 - b0) / wall,
                    machine=100 * (busy1 - busy0) / max(1, all1 - all0), load=os.getloadavg())


# --- the server and the browsers -------------------------------------------------------------
@contextlib.contextmanager
def app_server(log, options=()):
    """`streamlit run app.py` on a free port (stderr to ``log``; ``options`` such as
    "--runner.postScriptGC=false" added to its command); yields (url, pid)."""
    from tests.e2e.conftest import free_port, wait_until_healthy
    port = free_port()
    env = dict(os.environ, STREAMLIT_BROWSER_GATHER_USAGE_STATS="false")
    process = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.headless=true",
         f"--server.port={port}", "--server.address=127.0.0.1", *options],
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


def _start_player(browser, url, lesson, light):
    context, page = _new_page(browser)
    if light:
        for pattern in LIGHT_BLOCKED:
            context.route(pattern, lambda route: route.abort())
    page.goto(f"{url}/{lesson}{PLAYER_QUERY}", wait_until="commit")
    page.wait_for_function(PLAY_READY)  # the race is made
    page.get_by_role("button", name="Play").click()
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


class Frames:
    """When the page's websocket opened and each message went out or came in."""

    def __init__(self, page):
        self.opened, self.sent, self.received = [], [], []
        page.on("websocket", self._socket)

    def _socket(self, socket):
        self.opened.append(time.perf_counter())
        socket.on("framesent", lambda _: self.sent.append(time.perf_counter()))
        socket.on("framereceived", lambda _: self.received.append(time.perf_counter()))

    def last_received(self, start, end):
        return max((t for t in self.received if start <= t <= end), default=float("nan"))

    def first_sent(self, start):
        return min((t for t in self.sent if t >= start), default=float("nan"))


def _renderer_seconds(cdp):
    """Seconds the page's renderer has been busy (Chrome's TaskDuration)."""
    metrics = cdp.send("Performance.getMetrics")["metrics"]
    return next(m["value"] for m in metrics if m["name"] == "TaskDuration")


def _measure_session(browser, url, server_pid):
    """One new session on /word_segmentation: its figures (seconds) and the CPU meanwhile.

    The two figures are timed by the page's clock: from its navigation start, and from the
    click event. Where their time went, by this process's clock: the page's scripts loading
    until the websocket opens, then until the last message before the page is interactive
    (the server: queueing and running the page), then drawing; for Step, the click going out
    (Playwright's click included), the server's answer, drawing. And the renderer's main
    thread's tasks over each (Chrome's TaskDuration: wall time, waits for a CPU included)."""
    context, page = _new_page(browser)
    frames = Frames(page)
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable")
    meter = Meter(server_pid)
    try:
        busy0 = _renderer_seconds(cdp)
        t0 = time.perf_counter()
        page.goto(f"{url}/word_segmentation", wait_until="commit")
        interactive = page.wait_for_function(INTERACTIVE, polling=20).json_value() / 1000
        t1 = time.perf_counter()
        busy1 = _renderer_seconds(cdp)
        step = page.get_by_role("button", name="Step")
        page.evaluate(NOTE_CLICK)
        t2 = time.perf_counter()
        step.click()
        done = page.wait_for_function(ALL_AT_PASS_1, polling=20).json_value()
        t3 = time.perf_counter()
        answered = (done - page.evaluate("() => window.clickedAt")) / 1000
        busy2 = _renderer_seconds(cdp)
    finally:
        context.close()
    opened = min(frames.opened, default=float("nan"))
    answer = frames.last_received(t0, t1)
    sent = frames.first_sent(t2)
    step_answer = frames.last_received(t2, t3)
    return dict(interactive=interactive, answered=answered,
                load_scripts=opened - t0, load_server=answer - opened, load_draw=t1 - answer,
                load_renderer=busy1 - busy0,
                step_out=sent - t2, step_server=step_answer - sent, step_draw=t3 - step_answer,
                step_renderer=busy2 - busy1, cpu=meter.read())


def _describe(run):
    cpu = run["cpu"]
    return (f"interactive {run['interactive']:.2f} s (scripts {run['load_scripts']:.2f}, "
            f"server {run['load_server']:.2f}, drawing {run['load_draw']:.2f}; renderer's tasks "
            f"{run['load_renderer']:.2f}), Step {run['answered']:.2f} s (out "
            f"{run['step_out']:.2f}, server {run['step_server']:.2f}, drawing "
            f"{run['step_draw']:.2f}; renderer's tasks {run['step_renderer']:.2f}); "
            + _describe_cpu(cpu))


def _describe_cpu(cpu):
    return (f"server CPU {cpu['server']:.0f}% (event-loop thread {cpu['server_main']:.0f}%), "
            f"our browsers {cpu['browser']:.0f}%, machine {cpu['machine']:.0f}% busy; load "
            + " ".join(f"{v:.2f}" for v in cpu["load"]))


def measure(players=PLAYERS, repeats=REPEATS, settle=SETTLE, idle=IDLE_PLAYERS,
            light=LIGHT_PLAYERS, server_options=(), report=None):
    """Run the scenario; returns a dict of the figures (report(text) is told the progress).

    The players have a browser of their own; idle: it is put under SCHED_IDLE once they
    play; light: their pages draw no charts or tables. Both stand in for the players'
    browsers being on other machines. server_options: more
    `streamlit run` options, to try a setting ("--runner.postScriptGC=false")."""
    from playwright.sync_api import sync_playwright

    from tests.e2e.conftest import CHROMIUM_ARGS, chromium_path
    report = report or (lambda text: print(text, file=sys.stderr, flush=True))
    path = chromium_path()
    if path is None:
        raise RuntimeError("Debian's chromium is not installed (sudo apt-get install chromium)")
    with tempfile.TemporaryFile() as log, app_server(log, server_options) as (url, pid), \
            sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, headless=True,
                                             args=CHROMIUM_ARGS)
        ours = set(descendants([os.getpid()]))
        player_browser = playwright.chromium.launch(executable_path=path, headless=True,
                                                    args=CHROMIUM_ARGS)
        players_own = set(descendants([os.getpid()])) - ours - {pid}
        try:
            # the server's first visitor loads the kernels (warm_engine) and the built-in corpus
            report("first visitor (loads the engine): " + _describe(
                _measure_session(browser, url, pid)))
            baseline = []
            for n in range(repeats):
                baseline.append(_measure_session(browser, url, pid))
                report(f"no one playing, new session #{n + 1}: " + _describe(baseline[-1]))
                time.sleep(PAUSE_BETWEEN)
            contexts, pages = [], []
            for n, lesson in enumerate(players, 1):
                t0 = time.perf_counter()
                context, page = _start_player(player_browser, url, lesson, light)
                contexts.append(context)
                pages.append(page)
                report(f"player {n} ({lesson}) playing after {time.perf_counter() - t0:.1f} s")
            if idle:  # only now: idle, a player might not even start on a busy machine
                to_idle(players_own | set(descendants(players_own)))
            meter = Meter(pid)
            before = _passes(pages)
            time.sleep(settle)
            after = _passes(pages)
            playing = meter.read()
            rates = [(b - a) / settle for a, b in zip(before, after)]
            report(f"{settle:.0f} s of {len(players)} players: passes/s "
                   f"{' '.join(f'{r:.1f}' for r in rates)}; " + _describe_cpu(playing))
            runs = []
            for n in range(repeats):
                start, t0 = _passes(pages), time.perf_counter()
                run = _measure_session(browser, url, pid)
                wall, end = time.perf_counter() - t0, _passes(pages)
                run["player_rates"] = [(b - a) / wall for a, b in zip(start, end)]
                runs.append(run)
                report(f"6th session #{n + 1}: " + _describe(run) + "; players' passes/s " +
                       " ".join(f"{r:.1f}" for r in run["player_rates"]))
                time.sleep(PAUSE_BETWEEN)
            still = sum(page.get_by_role("button", name="Pause").count() > 0 for page in pages)
            for context in contexts:
                context.close()
        finally:
            player_browser.close()
            browser.close()
    return dict(players=players, idle=idle, light=light, options=server_options,
                baseline=baseline, playing=playing, rates=rates, runs=runs, still=still)


def _median(runs, key):
    return statistics.median(run[key] for run in runs)


def _summary(figures):
    runs = figures["runs"]
    mean = lambda key: statistics.fmean(run["cpu"][key] for run in runs)  # noqa: E731
    loads = [run["cpu"]["load"][0] for run in runs]
    rates = [statistics.fmean(run["player_rates"]) for run in runs]
    kinds = " + ".join(f"{figures['players'].count(p)} {p}" for p in dict.fromkeys(
        figures["players"]))
    where = "a browser of their own" + (" under SCHED_IDLE" if figures["idle"] else "")
    if figures["light"]:
        where += ", drawing no charts or tables"
    if figures["options"]:
        where += "; server run with " + " ".join(figures["options"])
    return (f"players: {kinds} at speed 50 in {where}; {statistics.fmean(rates):.1f} passes/s "
            f"each on average (alone, one plays ≈ 40), {figures['still']} of "
            f"{len(figures['players'])} still playing at the end; server CPU "
            f"{mean('server'):.0f}% of a core, our browsers {mean('browser'):.0f}%, machine "
            f"{mean('machine'):.0f}% busy ({os.cpu_count()} cores), 1-min load "
            f"{min(loads):.1f}–{max(loads):.1f}")


def rows(**options):
    figures = measure(**options)
    runs, alone = figures["runs"], figures["baseline"]
    times = lambda key: ", ".join(f"{run[key]:.2f}" for run in runs)  # noqa: E731
    return [
        Row("Class load: 6th session's first page interactive (5 sessions playing)",
            _median(runs, "interactive"), 8.0, "s",
            f"median of {len(runs)} new sessions ({times('interactive')} s): navigation → "
            f"Step enabled and a chart drawn, Word segmentation; of which (medians) "
            f"scripts loading {_median(runs, 'load_scripts'):.2f} s, server "
            f"{_median(runs, 'load_server'):.2f} s, drawing {_median(runs, 'load_draw'):.2f} s; "
            f"with no one playing {_median(alone, 'interactive'):.2f} s (server "
            f"{_median(alone, 'load_server'):.2f} s); {_summary(figures)}"),
        Row("Class load: Step answers (5 sessions playing)", _median(runs, "answered"), 1.0,
            "s", f"median of {len(runs)} ({times('answered')} s): click → every metric at "
                 f"pass 1, Word segmentation (5 samplers, built-in corpus); server "
                 f"{_median(runs, 'step_server'):.2f} s of it; with no one playing "
                 f"{_median(alone, 'answered'):.2f} s"),
    ]


if __name__ == "__main__":
    FLAGS = ("--players-not-idle", "--full-players")
    options = [a for a in sys.argv[1:] if a not in FLAGS]
    print(markdown_table(rows(idle=FLAGS[0] not in sys.argv, light=FLAGS[1] not in sys.argv,
                              server_options=options)))

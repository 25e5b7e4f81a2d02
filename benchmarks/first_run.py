"""Issue 24's first run: a fresh copy of the project (packages installed, no compiled kernels),
its server started as `make run` starts it, then, in a real browser (Playwright driving Debian's
Chromium, headless):

- Home interactive: its content drawn and its script run finished, from the server's start;
- each lesson playable when a user opens it first: on a server of its own with an empty cache
  (the page opened first is compiled first), Home drawn, then the page opened — playable when
  its script run has finished with no kernel compiling and its Play (Type blocks: its TYPE
  move) enabled, from the server's start;
- Home again with another process saturating one core.

The copy gets the working tree without .venv, .git and the Numba cache; the installed packages
are this interpreter's. Needs Chromium and Playwright (`make test` installs both).
"""
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.class_load import descendants
from benchmarks.common import Row
from ui import course

try:  # the test requirements (make test installs them): Playwright, the browser tests' helpers
    from playwright.sync_api import sync_playwright
    from tests.e2e.conftest import CHROMIUM_ARGS, chromium_path, free_port, wait_until_healthy
except ImportError as missing:
    MISSING = missing.name
else:
    MISSING = None

ROOT = Path(__file__).resolve().parents[1]
HOME_TARGET, PAGE_TARGET, LOADED_HOME_TARGET = 15.0, 20.0, 30.0  # issue 47: a lesson ≤ 20 s
WAIT = 900  # seconds a page may take before the benchmark gives up
# the page's state as the browser shows it: an exception's text, true once interactive
HOME_READY = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  const error = document.querySelector('[data-testid="stException"]');
  if (error) return 'error: ' + error.innerText;
  return app !== null && app.getAttribute('data-test-script-state') === 'notRunning'
    && [...document.querySelectorAll('h1')].some(h => h.innerText.includes('Typeblocks'));
}"""
# a lesson page playable: its script run finished with no kernel compiling (no progress bar)
# and its main action — Play, or Type blocks' TYPE move: the page's primary buttons — enabled
PAGE_READY = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  const main = document.querySelector('[data-testid="stMain"]');
  const error = document.querySelector('[data-testid="stException"]');
  if (error) return 'error: ' + error.innerText;
  if (app === null || main === null) return false;
  const primary = [...main.querySelectorAll('[data-testid="stBaseButton-primary"]')];
  return app.getAttribute('data-test-script-state') === 'notRunning'
    && document.querySelector('[data-testid="stProgress"]') === null
    && primary.length > 0 && primary.every(b => !b.disabled);
}"""
HOG = "import time\nend = time.time() + {seconds}\nwhile time.time() < end:\n    pass\n"


def fresh_copy(folder):
    """The working tree copied into ``folder`` as a fresh clone has it (no compiled kernels)."""
    copy = Path(folder) / "typeblocks"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(
        ".venv", ".git", ".numba-cache*", "__pycache__", "test-artifacts"))
    return copy


def app_pages():
    """(address, title) of every lesson, in the course's order (the pages app.py lists)."""
    return [(Path(lesson.page).stem, lesson.title) for lesson in course.LESSONS]


@contextlib.contextmanager
def server(copy, caches):
    """`make run`'s server in ``copy``, compiling into the empty ``caches``; yields its URL and
    the moment it was started."""
    port = free_port()
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "TYPEBLOCKS_ENGINE_DIGEST")}
    env.update(TYPEBLOCKS_CACHE_ROOT=str(caches), STREAMLIT_BROWSER_GATHER_USAGE_STATS="false")
    with tempfile.TemporaryFile() as log:
        started = time.perf_counter()
        process = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless=true",
             f"--server.port={port}", "--server.address=127.0.0.1"],
            cwd=copy, env=env, stdout=subprocess.DEVNULL, stderr=log)
        url = f"http://127.0.0.1:{port}"
        try:
            wait_until_healthy(url, process, log, seconds=WAIT)
            yield url, started
        finally:
            compiler = descendants([process.pid])
            process.terminate()  # its background compiler stops when its input closes
            process.wait(timeout=60)
            gone(compiler)  # before the caches are removed: it still writes as it stops


def gone(pids, seconds=60):
    """Wait until none of ``pids`` is alive (at most ``seconds``)."""
    deadline = time.monotonic() + seconds
    while any(os.path.exists(f"/proc/{pid}") for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)


def seconds_until(page, address, ready, started):
    """Open ``address`` and wait until ``ready`` holds; the seconds since ``started``."""
    page.goto(address)
    state = page.wait_for_function(ready, timeout=WAIT * 1000).json_value()
    if state is not True:
        raise RuntimeError(f"{address}: {state}")
    return time.perf_counter() - started


def first_visit(browser, copy, folder, page_name=None):
    """On a fresh server with an empty cache: (seconds to Home, seconds to ``page_name``
    opened next, or None without one)."""
    caches = Path(tempfile.mkdtemp(dir=folder))
    context = browser.new_context(viewport={"width": 1400, "height": 1600})
    shown = None
    try:
        with server(copy, caches) as (url, started):
            tab = context.new_page()
            home = seconds_until(tab, url, HOME_READY, started)
            if page_name:
                shown = seconds_until(tab, f"{url}/{page_name}", PAGE_READY, started)
        return home, shown
    finally:
        context.close()
        shutil.rmtree(caches, ignore_errors=True)


@contextlib.contextmanager
def one_core_busy(seconds=WAIT):
    """Another process keeping one core busy (for at most ``seconds``)."""
    hog = subprocess.Popen([sys.executable, "-c", HOG.format(seconds=seconds)])
    try:
        yield
    finally:
        hog.kill()
        hog.wait()


def measure(copy, folder):
    """{"home": [s, …], "pages": {title: s}, "loaded home": s} on fresh servers."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), headless=True,
                                             args=CHROMIUM_ARGS)
        homes, pages = [], {}
        for name, title in app_pages():
            home, pages[title] = first_visit(browser, copy, folder, name)
            homes.append(home)
            print(f"  {title}: Home {home:.1f} s, the page {pages[title]:.1f} s", file=sys.stderr,
                  flush=True)
        with one_core_busy():
            loaded, _ = first_visit(browser, copy, folder)
        browser.close()
    return {"home": homes, "pages": pages, "loaded home": loaded}


def rows():
    if MISSING or chromium_path() is None:
        print(f"first-run: {MISSING or 'chromium'} is missing (make test installs it)",
              file=sys.stderr)
        return []
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as folder:
        times = measure(fresh_copy(folder), folder)
    slowest = max(times["pages"], key=times["pages"].get)
    each = ", ".join(f"{title} {s:.0f} s" for title, s in times["pages"].items())
    where = f"fresh copy, packages installed, empty cache; load average {load:.1f} at the start"
    return [
        Row("First run: Home interactive after `make run`", max(times["home"]), HOME_TARGET, "s",
            f"{where}; the slowest of {len(times['home'])} fresh starts (fastest "
            f"{min(times['home']):.1f} s)"),
        Row("First run: every lesson playable, opened first", times["pages"][slowest],
            PAGE_TARGET, "s", f"{where}; each page on a server of its own, opened after Home "
                              f"(the slowest: {slowest}): {each}"),
        Row("First run: Home interactive, one core busy", times["loaded home"],
            LOADED_HOME_TARGET, "s", f"{where}; another process saturating one core"),
    ]

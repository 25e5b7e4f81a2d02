"""A live Streamlit server and a headless Debian Chromium for the browser tests.

The tests skip, saying why, only when the browser itself is missing (``make test`` installs it
where it can: see the Makefile).
"""
import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
# this machine's network is closed: without these flags Chromium keeps calling home
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
                 "--no-first-run", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-extensions", "--mute-audio"]


def chromium_path():
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until_healthy(url, process, log=None, seconds=90):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if process.poll() is not None:
            said = ""
            if log is not None:
                log.seek(0)
                said = ": " + log.read().decode(errors="replace")[-2000:]
            raise RuntimeError(f"streamlit exited with status {process.returncode}{said}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as reply:
                if reply.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"streamlit did not answer at {url} within {seconds} s")


@contextlib.contextmanager
def streamlit_server():
    """A fresh `streamlit run app.py` on a free port; yields its URL.

    Its log goes to a file, never to a pipe: a pipe nobody reads fills up (64 KB) and the
    server then blocks on its next log line — every session with it (seen: a deprecation
    warning logged on every chart drawn froze the server in the middle of the e2e suite). The
    file is kept under test-artifacts/ (server-PORT.log), for reading after a failure."""
    port = free_port()
    env = dict(os.environ, STREAMLIT_BROWSER_GATHER_USAGE_STATS="false")
    ARTIFACTS.mkdir(exist_ok=True)
    with open(ARTIFACTS / f"server-{port}.log", "w+b") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"),
             "--server.headless=true", f"--server.port={port}", "--server.address=127.0.0.1"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log)
        url = f"http://127.0.0.1:{port}"
        try:
            wait_until_healthy(url, process, log)
            yield url
        finally:
            process.terminate()
            process.wait(timeout=20)


@pytest.fixture
def fresh_server():
    """For tests that need a server no session has visited yet: ``with fresh_server() as url``."""
    return streamlit_server


@pytest.fixture(scope="session")
def app_url():
    with streamlit_server() as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    path = chromium_path()
    if path is None:
        pytest.skip("Debian's chromium is not installed (run `sudo apt-get install chromium`)")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, headless=True,
                                             args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 3200})
    page = context.new_page()
    page.set_default_timeout(60_000)
    yield page
    context.close()


@pytest.fixture
def screenshot(page):
    """screenshot(name): save a full-page screenshot under test-artifacts/ for a human to look at."""
    ARTIFACTS.mkdir(exist_ok=True)

    def take(name):
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    return take


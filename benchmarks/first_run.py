"""Issue 10's first run: a fresh copy of the project (no compiled kernels) → `make run`'s
warm-up → every page rendered, with the packages already installed.

The copy gets the working tree without .venv, .git and the Numba cache; the installed
packages are this interpreter's. Pages are rendered by Streamlit's AppTest in one fresh process
(the browser's own rendering is not counted).
"""
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.common import Row

ROOT = Path(__file__).resolve().parents[1]
PAGES_SCRIPT = """
from streamlit.testing.v1 import AppTest
at = AppTest.from_file("app.py", default_timeout=300).run()
for page in sorted(__import__("glob").glob("pages/*.py")):
    at.switch_page(page).run()
    assert not at.exception, (page, at.exception)
"""


def _timed(command, cwd):
    t0 = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=900)
    if done.returncode:
        raise RuntimeError(f"{' '.join(command)} failed:\n{done.stderr[-2000:]}")
    return time.perf_counter() - t0


def rows():
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "typeblocks"
        shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(
            ".venv", ".git", ".numba-cache*", "__pycache__", "test-artifacts"))
        warm = _timed([sys.executable, "-m", "engine", "warm"], copy)
        pages = _timed([sys.executable, "-c", PAGES_SCRIPT], copy)
    total = warm + pages
    return [Row("First run: fresh copy → every page rendered", total, 60.0, "s",
                f"packages installed, no compiled kernels: `python -m engine warm` (what make "
                f"run does first) {warm:.1f} s, then Home and every lesson rendered in one new "
                f"process (AppTest) {pages:.1f} s")]

"""The engine's compile cache: a fresh folder per engine version, and only its own old folders
removed, whatever TYPEBLOCKS_CACHE_ROOT points at."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def cache_dir_with(root, cwd=ROOT):
    """numba's cache folder in a fresh interpreter, run in ``cwd``, that imports the engine
    with TYPEBLOCKS_CACHE_ROOT set to ``root``."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(TYPEBLOCKS_CACHE_ROOT=str(root), PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", "import engine; from numba.core import config; "
                          "print(config.CACHE_DIR)"], cwd=cwd, env=env, capture_output=True,
                         text=True, check=True)
    return Path(out.stdout.strip())


def test_old_versions_go_and_nothing_else_does(tmp_path):
    old = tmp_path / "0123456789abcdef"
    old.mkdir()
    (old / "typeblocks-numba-cache").touch()
    unmarked = tmp_path / "fedcba9876543210"  # a digest-like name without the marker
    unmarked.mkdir()
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "keep.txt").write_text("mine")
    (tmp_path / "file.txt").write_text("mine")

    current = cache_dir_with(tmp_path)

    assert current.parent == tmp_path and current.is_dir()
    assert not old.exists()
    assert unmarked.is_dir() and (tmp_path / "notes" / "keep.txt").read_text() == "mine"
    assert (tmp_path / "file.txt").read_text() == "mine"
    assert cache_dir_with(tmp_path) == current  # the same engine keeps its folder


def test_an_empty_root_means_the_default_not_the_working_folder(tmp_path):
    (tmp_path / "project-folder").mkdir()
    assert cache_dir_with("", cwd=tmp_path).parent == ROOT / ".numba-cache"
    assert (tmp_path / "project-folder").is_dir()

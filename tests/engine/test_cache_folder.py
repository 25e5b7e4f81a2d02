"""The engine's compile cache: a fresh folder per engine version, taken once per process tree
(a child reuses its parent's digest, unless a source file changed since), and only its own old
folders removed — by the warm command and the background compiler, never on import —
whatever TYPEBLOCKS_CACHE_ROOT points at."""
import os
import shutil
import subprocess
import sys
from pathlib import Path
from tests.root import ROOT

INHERITED = "TYPEBLOCKS_ENGINE_DIGEST"
SHOW = ("import os, engine; from numba.core import config; "
        f"print(config.CACHE_DIR); print(os.environ[{INHERITED!r}])")


def engine_process(root, code=SHOW, cwd=None, project=ROOT, inherited=None):
    """(numba's cache folder, the digest exported to children) of a fresh interpreter, run in
    ``cwd`` (default: ``project``), that imports ``project``'s engine with TYPEBLOCKS_CACHE_ROOT
    set to ``root`` (and its parent's exported digest, if ``inherited``) and runs ``code``."""
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", INHERITED)}
    env.update(TYPEBLOCKS_CACHE_ROOT=str(root), PYTHONPATH=str(project))
    if inherited:
        env[INHERITED] = inherited
    out = subprocess.run([sys.executable, "-c", code], cwd=cwd or project, env=env,
                         capture_output=True, text=True, check=True)
    folder, exported = out.stdout.split("\n")[:2]
    return Path(folder), exported


def planted_folders(root):
    """An old version's folder (digest name and marker) and things that must stay."""
    old = root / "0123456789abcdef"
    old.mkdir()
    (old / "typeblocks-numba-cache").touch()
    unmarked = root / "fedcba9876543210"  # a digest-like name without the marker
    unmarked.mkdir()
    (root / "notes").mkdir()
    (root / "notes" / "keep.txt").write_text("mine")
    (root / "file.txt").write_text("mine")
    return old, unmarked


def test_importing_removes_nothing(tmp_path):
    old, unmarked = planted_folders(tmp_path)
    current, _ = engine_process(tmp_path)
    assert current.parent == tmp_path and current.is_dir()
    assert old.is_dir() and unmarked.is_dir()


def test_old_versions_go_and_nothing_else_does(tmp_path):
    old, unmarked = planted_folders(tmp_path)

    current, _ = engine_process(tmp_path, SHOW + "; engine.remove_old_caches()")

    assert current.parent == tmp_path and current.is_dir()
    assert not old.exists()
    assert unmarked.is_dir() and (tmp_path / "notes" / "keep.txt").read_text() == "mine"
    assert (tmp_path / "file.txt").read_text() == "mine"
    assert engine_process(tmp_path)[0] == current  # the same engine keeps its folder


def test_an_empty_root_means_the_default_not_the_working_folder(tmp_path):
    (tmp_path / "project-folder").mkdir()
    assert engine_process("", cwd=tmp_path)[0].parent == ROOT / ".numba-cache"
    assert (tmp_path / "project-folder").is_dir()


def test_a_child_reuses_its_parent_s_digest_until_a_source_file_changes(tmp_path):
    """The digest a parent exports is trusted while every engine file is as it was (a planted
    digest shows it was not taken again); an edit since makes the child hash again."""
    project = tmp_path / "project"
    shutil.copytree(ROOT / "engine", project / "engine",
                    ignore=shutil.ignore_patterns("__pycache__"))
    caches = tmp_path / "caches"
    current, exported = engine_process(caches, project=project)
    stamp, digest = exported.split()
    assert current.name == digest

    planted = f"{stamp} 00000000feedbeef"
    assert engine_process(caches, project=project, inherited=planted)[0].name == "00000000feedbeef"

    with open(project / "engine" / "run.py", "a") as edited:
        edited.write("# an edit after the parent hashed\n")
    edited_folder, exported = engine_process(caches, project=project, inherited=planted)
    assert edited_folder.name not in (digest, "00000000feedbeef")
    assert exported.split()[0] != stamp

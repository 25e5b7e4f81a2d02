"""The Typeblocks sampler engine: models, samplers and Numba kernels. Never imports Streamlit.

Numba's on-disk cache notices edits to a kernel's own file only, not to the model functions it
inlines from other files (the model interface's overloads), so an edited model could run stale
machine code. The cache therefore lives in a folder named by a hash of every engine source
file: any edit starts a fresh cache, and an unchanged engine loads its kernels in milliseconds.
``TYPEBLOCKS_CACHE_ROOT`` moves that folder's parent elsewhere (several checkouts or processes
editing the engine at once each keep their own, instead of wiping each other's).

The hash is taken once per process tree: a process exports it (``TYPEBLOCKS_ENGINE_DIGEST``,
beside a stamp of every source file's size and modification time) and its children — chain
workers, compile workers, test subprocesses — reuse it while their stamp, which reads no file,
agrees. A file edited since the parent hashed changes the stamp, and the child hashes again.

Old cache folders are removed only by the warm command and the background compiler
(``remove_old_caches``), never on import, and only they: a folder is removed only if its name
is a source digest and it holds the marker file this module writes. A root set to a folder that
holds anything else (even the project itself, as an empty TYPEBLOCKS_CACHE_ROOT once meant)
keeps it.
"""
import functools
import hashlib
import os
import re
import shutil
import sys
from pathlib import Path

_ENGINE = Path(__file__).resolve().parent
# an empty value means unset, as for most variables (Path("") would be the working folder)
_CACHES = Path(os.environ.get("TYPEBLOCKS_CACHE_ROOT") or _ENGINE.parent / ".numba-cache")
_DIGEST = re.compile(r"[0-9a-f]{16}")
_MARKER = "typeblocks-numba-cache"
_INHERITED = "TYPEBLOCKS_ENGINE_DIGEST"  # "STAMP DIGEST", exported for this process's children
_SET_BY_ENGINE = "TYPEBLOCKS_NUMBA_CACHE_DIR"  # the NUMBA_CACHE_DIR this module set


def _source_files():
    return sorted(_ENGINE.rglob("*.py"))


def _source_digest():
    digest = hashlib.sha1()
    for path in _source_files():
        digest.update(path.relative_to(_ENGINE).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _source_stamp():
    """Where the engine is and every source file's size and modification time: an edit changes
    it, and taking it opens no file."""
    stamp = hashlib.sha1(str(_ENGINE).encode())
    for path in _source_files():
        info = path.stat()
        stamp.update(f"{path.relative_to(_ENGINE).as_posix()} {info.st_size} "
                     f"{info.st_mtime_ns}\n".encode())
    return stamp.hexdigest()[:16]


@functools.cache
def version():
    """This engine's version: a digest of every engine source file, taken once per process
    tree (a parent's is reused while no source file changed since). Two processes run the same
    engine exactly when their versions agree (a cluster's workers are checked with it:
    engine.grid.check_cluster)."""
    # the stamp before the hash: a file edited in between gives a stamp that no child matches
    stamp = _source_stamp()
    parent_stamp, _, digest = os.environ.get(_INHERITED, "").partition(" ")
    if parent_stamp != stamp or _DIGEST.fullmatch(digest) is None:
        digest = _source_digest()
        os.environ[_INHERITED] = f"{stamp} {digest}"
    return digest


def _is_old_cache(path, current):
    return (path != current and _DIGEST.fullmatch(path.name) is not None
            and (path / _MARKER).is_file())


def remove_old_caches():
    """Remove the cache folders of other engine versions under the cache root (only folders
    named by a digest and holding the marker); nothing when the user chose NUMBA_CACHE_DIR."""
    if _user_chose_cache() or not _CACHES.is_dir():
        return
    current = _CACHES / version()
    for old in _CACHES.iterdir():
        if _is_old_cache(old, current):
            shutil.rmtree(old, ignore_errors=True)


def cache_folder():
    """The folder Numba keeps this engine's compiled kernels in."""
    return Path(os.environ["NUMBA_CACHE_DIR"])


def _user_chose_cache():
    """Whether NUMBA_CACHE_DIR is the user's choice, not the folder this module (in this
    process or a parent) set it to."""
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    return chosen is not None and chosen != os.environ.get(_SET_BY_ENGINE)


def _use_versioned_cache():
    """Point Numba at this engine version's folder through NUMBA_CACHE_DIR, read when Numba is
    imported (so importing the engine does not import Numba: ``python -m engine --help`` stays
    quick), and inherited by this process's children (who set their own should the engine have
    changed since)."""
    if _user_chose_cache():
        return  # the user chose a folder: leave it alone
    folder = _CACHES / version()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / _MARKER).touch()
    os.environ["NUMBA_CACHE_DIR"] = os.environ[_SET_BY_ENGINE] = str(folder)
    config = sys.modules.get("numba.core.config")
    if config is not None:  # Numba was imported first: it has read its settings already
        config.CACHE_DIR = str(folder)


_use_versioned_cache()

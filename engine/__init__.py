"""The Typeblocks sampler engine: models, samplers and Numba kernels. Never imports Streamlit.

Numba's on-disk cache notices edits to a kernel's own file only, not to the model functions it
inlines from other files (the model interface's overloads), so an edited model could run stale
machine code. The cache therefore lives in a folder named by a hash of every engine source
file: any edit starts a fresh cache, and an unchanged engine loads its kernels in milliseconds.
``TYPEBLOCKS_CACHE_ROOT`` moves that folder's parent elsewhere (several checkouts or processes
editing the engine at once each keep their own, instead of wiping each other's).

Old cache folders are removed, and only they: a folder is removed only if its name is a source
digest and it holds the marker file this module writes. A root set to a folder that holds
anything else (even the project itself, as an empty TYPEBLOCKS_CACHE_ROOT once meant) keeps it.
"""
import hashlib
import os
import re
import shutil
from pathlib import Path

_ENGINE = Path(__file__).resolve().parent
# an empty value means unset, as for most variables (Path("") would be the working folder)
_CACHES = Path(os.environ.get("TYPEBLOCKS_CACHE_ROOT") or _ENGINE.parent / ".numba-cache")
_DIGEST = re.compile(r"[0-9a-f]{16}")
_MARKER = "typeblocks-numba-cache"


def _source_digest():
    digest = hashlib.sha1()
    for path in sorted(_ENGINE.rglob("*.py")):
        digest.update(path.relative_to(_ENGINE).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _is_old_cache(path, current):
    return (path != current and _DIGEST.fullmatch(path.name) is not None
            and (path / _MARKER).is_file())


def _use_versioned_cache():
    if "NUMBA_CACHE_DIR" in os.environ:
        return  # the user chose a folder: leave it alone
    folder = _CACHES / _source_digest()
    if _CACHES.is_dir():
        for old in _CACHES.iterdir():
            if _is_old_cache(old, folder):
                shutil.rmtree(old, ignore_errors=True)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / _MARKER).touch()
    from numba.core import config
    config.CACHE_DIR = str(folder)


_use_versioned_cache()

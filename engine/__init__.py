"""The Typeblocks sampler engine: models, samplers and Numba kernels. Never imports Streamlit.

Numba's on-disk cache notices edits to a kernel's own file only, not to the model functions it
inlines from other files (the model interface's overloads), so an edited model could run stale
machine code. The cache therefore lives in a folder named by a hash of every engine source
file: any edit starts a fresh cache, and an unchanged engine loads its kernels in milliseconds.
``TYPEBLOCKS_CACHE_ROOT`` moves that folder's parent elsewhere (several checkouts or processes
editing the engine at once each keep their own, instead of wiping each other's).
"""
import hashlib
import os
import shutil
from pathlib import Path

_ENGINE = Path(__file__).resolve().parent
_CACHES = Path(os.environ.get("TYPEBLOCKS_CACHE_ROOT", _ENGINE.parent / ".numba-cache"))


def _source_digest():
    digest = hashlib.sha1()
    for path in sorted(_ENGINE.rglob("*.py")):
        digest.update(path.relative_to(_ENGINE).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _use_versioned_cache():
    if "NUMBA_CACHE_DIR" in os.environ:
        return  # the user chose a folder: leave it alone
    folder = _CACHES / _source_digest()
    if _CACHES.is_dir():
        for old in _CACHES.iterdir():
            if old != folder:
                shutil.rmtree(old, ignore_errors=True)
    from numba.core import config
    config.CACHE_DIR = str(folder)


_use_versioned_cache()

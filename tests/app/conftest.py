"""AppTest fixtures: the app started at a given page, with a timeout for cold Numba caches."""
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "app.py")
TIMEOUT = 120  # a cold Numba cache compiles every kernel on the first run


@pytest.fixture
def open_page():
    """open_page(path, **query) → an AppTest that has run the app and switched to ``path``."""
    def open_(path, **query):
        at = AppTest.from_file(APP, default_timeout=TIMEOUT)
        at.query_params.update({k: str(v) for k, v in query.items()})
        at.run()
        if path != "pages/home.py":
            at.switch_page(path).run()
        assert not at.exception, [e.value for e in at.exception]
        return at
    return open_

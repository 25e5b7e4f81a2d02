"""The browser fixtures of tests/e2e, for browser tests that time nothing and so may run on
the pytest-xdist workers beside the other tests (``make test`` runs tests/e2e alone)."""
from tests.e2e.conftest import app_url, browser, page  # noqa: F401  (pytest fixtures)

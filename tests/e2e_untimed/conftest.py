"""The browser fixtures of tests/e2e, for browser tests that time nothing (layout, downloads,
uploads, presets) and so may run on the pytest-xdist workers beside the other tests:
``make test`` runs tests/e2e alone, since those tests time what a user waits for."""
from tests.e2e.conftest import app_url, browser, fresh_server, page, screenshot  # noqa: F401

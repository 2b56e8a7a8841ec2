"""Browser tests: a live server in a thread and Playwright driving Debian's Chromium."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect
from werkzeug.serving import make_server

from webapp import create_app


@pytest.fixture(scope="session")
def live_server() -> Iterator[str]:
    """The app served on a free localhost port for the whole session."""
    # the session's secret (tests/conftest.py), shared by in-process jobs; static files cached by the browser for
    # the session (as nginx serves them in a deployment), so a test's page loads do not ask for each again
    app = create_app({"JOBS_IMMEDIATE": True, "SEND_FILE_MAX_AGE_DEFAULT": 3600})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=5)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test here as e2e."""
    for item in items:
        if "tests/e2e" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)


# make test runs the browser tests beside the whole-system ones (servers, proofs): assertions wait up to 10 s, not
# Playwright's 5, before a page that is merely slow to come counts as wrong
expect.set_options(timeout=10_000)


@pytest.fixture(autouse=True)
def _no_policy_violation(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every browser test fails if the page's console reports a Content-Security-Policy violation (an inline
    style or script the site's policy refuses), whatever the test itself checks."""
    if "page" not in request.fixturenames:
        yield
        return
    page = request.getfixturevalue("page")
    seen: list[str] = []
    page.on(
        "console",
        lambda m: seen.append(f"{m.text[:40]} at {m.location}") if "Content Security Policy" in m.text else None,
    )
    yield
    assert not seen, f"the console reported a policy violation: {seen[:3]}"

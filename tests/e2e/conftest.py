"""Browser tests: a live server in a thread and Playwright driving Debian's Chromium."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from werkzeug.serving import make_server

from webapp import create_app


@pytest.fixture(scope="session")
def live_server() -> Iterator[str]:
    """The app served on a free localhost port for the whole session."""
    app = create_app({"JOBS_IMMEDIATE": True})  # the session's secret (tests/conftest.py), shared by in-process jobs
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

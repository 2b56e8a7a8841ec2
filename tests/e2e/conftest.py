"""Browser tests: a live server in a thread and Playwright driving Debian's Chromium."""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from werkzeug.serving import make_server

from webapp import create_app

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-gpu",
    "--no-first-run",
]


def chromium_path() -> str:
    """The system Chromium (Playwright's own download is never used)."""
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and Path(candidate).exists():
            return candidate
    pytest.fail("Debian's chromium is not installed: run `make test`, which installs it")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Launch the system Chromium with the flags this machine needs."""
    return {**browser_type_launch_args, "executable_path": chromium_path(), "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def live_server() -> Iterator[str]:
    """The app served on a free localhost port for the whole session."""
    app = create_app({"SECRET_KEY": "e2e-secret"})
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

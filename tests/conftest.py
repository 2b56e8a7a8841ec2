"""Shared fixtures: the app (flaskr-style factory) and its test client."""

from __future__ import annotations

import os
import secrets
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import settings

# Every test run gets its own instance folder (result store, queue) and a known secret; a testing app's queues
# run jobs in-process (Huey's immediate mode: JOBS_IMMEDIATE defaults to TESTING).
os.environ["COIN_PUZZLES_INSTANCE"] = tempfile.mkdtemp(prefix="coin-puzzles-test-")
# a key made for this run (the controller's, inherited by pytest-xdist's workers): none is kept in git
TEST_KEY = os.environ.setdefault("COIN_PUZZLES_SECRET", secrets.token_hex(32))
os.environ.pop("COIN_PUZZLES_REDIS_URL", None)

from webapp import create_app  # noqa: E402

# CI runs the same examples every time (a red CI blocks landing); local runs keep exploring new ones.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture
def app() -> Iterator[Flask]:
    """A testing app with CSRF on (as in production)."""
    yield create_app({"TESTING": True, "SECRET_KEY": TEST_KEY})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client."""
    return app.test_client()


# Chromium's GPU work in its browser process (one process fewer per browser), and the system's preference for
# reduced motion, which the site honours (static/css/site.css): no frames drawn for a spinner or a scale's swing
# while a test waits (the browser tests took 301 CPU-s here instead of 345 with both)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-gpu",
    "--no-first-run",
    "--in-process-gpu",
    "--force-prefers-reduced-motion",
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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest tests first, so that pytest-xdist's processes share out the short ones at the end instead of
    one process finishing a long one alone: the visitor's tour and the two-node cluster's, the other whole-system
    tests (servers, mostly waiting), then the slow checks, the browser tests, the rest (each group in its collection
    order)."""

    def rank(item: pytest.Item) -> int:
        path = Path(str(item.fspath)).as_posix()
        if path.endswith(("tests/system/test_tour.py", "tests/system/test_cluster.py")):
            return 0
        if "/tests/system/" in path:
            return 1
        if item.get_closest_marker("slow"):
            return 2
        return 3 if "/tests/e2e/" in path else 4

    items.sort(key=rank)


@pytest.fixture(autouse=True)
def halt_flag_left_clear() -> Iterator[None]:
    """Every test leaves this process's halt flag (`solvers.halt`) as it found it: clear. A test that halts a proof
    and forgets to clear it would stop every later proof of its pytest-xdist process part-way (`Paused`), failing
    whichever test happens to run next there."""
    from solvers.halt import clear, halted

    yield
    if halted():
        clear()
        pytest.fail("this test left the halt flag set (`solvers.halt.clear` it): later proofs here would stop")

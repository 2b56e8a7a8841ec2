"""serve's processes skip Python's teardown only when they end cleanly (`webapp.commands.exits`)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from webapp.commands import exits


class Ended(Exception):
    """What the test's os._exit raises instead of ending the test's process."""


def ending_with(code: object, monkeypatch: pytest.MonkeyPatch) -> int | None:
    """The status a gunicorn worker ending with SystemExit(code) leaves through the hook (None: it goes on)."""
    said: list[int] = []

    def _exit(status: int) -> None:
        said.append(status)
        raise Ended

    monkeypatch.setattr(exits.os, "_exit", _exit)
    try:
        try:
            raise SystemExit(code)
        finally:
            exits.worker_exit(None, None)
    except (Ended, SystemExit):
        pass
    return said[0] if said else None


@pytest.mark.parametrize(("code", "status"), [(0, 0), (None, 0), (3, None), (-1, None), ("boot failed", None)])
def test_only_a_clean_end_skips_the_teardown(code: object, status: int | None, monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker's SystemExit(0) ends it at once with status 0; a boot error's status (3), an exception's (-1) or a
    message goes on to gunicorn's own exit, so the master sees it."""
    assert ending_with(code, monkeypatch) == status


def test_a_quick_exit_keeps_its_status_and_its_output() -> None:
    """Output printed (and logged) before it is flushed, and the status is the one asked for."""
    program = (
        "import logging, sys; from webapp.commands.exits import quick_exit; print('out', end=''); "
        "logging.basicConfig(); logging.getLogger().warning('logged'); quick_exit(7)"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (7, "out") and "logged" in done.stderr

"""serve's processes skip Python's teardown only when they end cleanly (`webapp.commands.exits`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from webapp.commands import exits

ROOT = Path(__file__).resolve().parents[2]


class Ended(Exception):
    """What the test's os._exit raises instead of ending the test's process."""


def ending_with(code: object, monkeypatch: pytest.MonkeyPatch) -> int | None:
    """The status a gunicorn worker ending with SystemExit(code) leaves through the hook (None: it goes on)."""
    said: list[int] = []

    def _exit(status: int) -> None:
        said.append(status)
        raise Ended

    monkeypatch.setattr(exits.os, "_exit", _exit)
    monkeypatch.setattr(exits.logging, "shutdown", lambda: None)  # not this test process's own handlers
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
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert (done.returncode, done.stdout) == (7, "out") and "logged" in done.stderr


def test_a_quick_exit_waits_for_its_child_processes(tmp_path: Path) -> None:
    """As Python's own exit: a consumer's job worker still halting its job (a second here) ends before it does."""
    done = tmp_path / "done"
    script = tmp_path / "child.py"
    script.write_text(
        "import multiprocessing, pathlib, time; from webapp.commands.exits import quick_exit\n"
        f"def work(): time.sleep(1); pathlib.Path({str(done)!r}).write_text('kept')\n"
        "if __name__ == '__main__':\n    multiprocessing.Process(target=work).start(); quick_exit(0)\n"
    )
    ended = subprocess.run([sys.executable, str(script)], timeout=60, cwd=ROOT)
    assert ended.returncode == 0 and done.read_text() == "kept"

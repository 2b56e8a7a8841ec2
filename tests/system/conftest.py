"""The app as `make run` starts it: `coin-puzzles serve` (gunicorn and the job consumer) on a free port, with its
own instance folder, and a real redis-server when a test asks for one."""

from __future__ import annotations

import gc
import os
import secrets
import shutil
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import pytest

from tests.waiting import until

BIN = Path(sys.executable).parent
SYSTEM_KEY = secrets.token_hex(32)  # the servers' key, made for this run
QUEUED_WITHIN = 300  # seconds a fresh site's precomputation may take to queue its work, or to store what is shipped,
# or to render a heavy page (each wait's deadline, not a timing): its consumer runs at nice 19, so on a slow 2-core
# machine under make test's four test processes it waited past 60 and 120 s (2026-11-29), and passed in 30 s alone


@pytest.fixture(autouse=True)
def collect_garbage() -> Iterator[None]:
    """After each system test, collect its garbage, so that a socket it left open fails that test (warnings are
    errors) rather than whichever test happens to run when the collector does."""
    yield
    gc.collect()


def free_port() -> int:
    """A free localhost port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for_port(port: int, seconds: float = 30, process: subprocess.Popen[str] | None = None) -> bool:
    """Block until something listens on the port (True), or the process given ends first (False)."""

    def listening_or_ended() -> str:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return "listening"
        return "ended" if process is not None and process.poll() is not None else ""

    return until(listening_or_ended, seconds, f"nothing listens on port {port}", 0.1) == "listening"


@dataclass
class Served:
    """A running `coin-puzzles serve` and what it printed."""

    url: str
    process: subprocess.Popen[str]
    log: Path
    out: IO[str]

    def output(self) -> str:
        """Everything the server and the consumer printed so far."""
        return self.log.read_text()

    def stop(self) -> None:
        """Stop gunicorn and the consumer (SIGTERM, as a service manager would)."""
        self.process.terminate()
        self.process.wait(timeout=30)
        self.out.close()


BIND_ATTEMPTS = 3  # serve starts again on another free port when its port was taken meanwhile
LISTENS_WITHIN = 120  # seconds serve may take to listen (a deadline, not a timing): with the precomputation on, a
# fresh instance's gunicorn master stores what is shipped first (5 s alone here, longer beside three test processes)


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., Served]]:
    """Start `coin-puzzles serve` (stopped at the end); the instance folder stays between starts of one test."""
    started: list[Served] = []

    def start(redis_url: str | None = None, **settings: str) -> Served:
        port = free_port()
        env = {
            **os.environ,
            "COIN_PUZZLES_INSTANCE": str(tmp_path / "instance"),
            "COIN_PUZZLES_SECRET": SYSTEM_KEY,
            "COIN_PUZZLES_PRECOMPUTE": "0",
            "WORKERS": "2",
            "JOB_WORKERS": "1",
            "PRECOMPUTE_WORKERS": "1",  # nothing is precomputed unless a test asks (the tour: as make run, two)
        }
        env.pop("COIN_PUZZLES_REDIS_URL", None)
        if redis_url:
            env["COIN_PUZZLES_REDIS_URL"] = redis_url
        env.update(settings)
        for attempt in range(BIND_ATTEMPTS):
            log = tmp_path / f"serve-{len(started)}-{attempt}.log"
            out = log.open("w")
            proc = subprocess.Popen(
                [str(BIN / "coin-puzzles"), "serve", "--port", str(port)],
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                text=True,
            )
            if wait_for_port(port, LISTENS_WITHIN, process=proc):
                break
            out.close()
            if "Address already in use" not in log.read_text() or attempt == BIND_ATTEMPTS - 1:
                raise RuntimeError(f"coin-puzzles serve ended before it listened:\n{log.read_text()[-2000:]}")
            port = free_port()  # a parallel test's process took the free port before serve bound it: another one
        served = Served(f"http://127.0.0.1:{port}", proc, log, out)
        started.append(served)
        return served

    yield start
    for s in started:
        if s.process.poll() is None:
            s.stop()
    for s in started:  # every system test fails if the server's log holds a traceback
        out, traceback = s.output(), "Traceback (most recent call last)"
        first = out.find(traceback)  # shown itself, not the log's tail (where the error it ends in was cut off)
        assert first < 0, out[first : first + 4000]


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[str]:
    """A real redis-server on a free port, no persistence (Debian's package, which `make test` installs)."""
    exe = shutil.which("redis-server")
    if exe is None:
        pytest.fail("redis-server is not installed: run `make test`, which installs it")
    port = free_port()
    proc = subprocess.Popen(
        [exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", str(tmp_path)],
        stdout=subprocess.DEVNULL,
    )
    wait_for_port(port)
    yield f"redis://127.0.0.1:{port}/0"
    proc.terminate()
    proc.wait(timeout=10)

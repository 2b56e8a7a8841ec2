"""Load: throughput and latency of the site as `make run` serves it (gunicorn, 2 sync workers), at concurrency 10
and 50, for the home page, a plan node and an API call; the baseline in the same run is /healthz, the cheapest
request through the same stack. Errors must stay at 0.

Run with `python benchmarks/load.py`. The load generator (Python threads, one connection per request, as gunicorn's
sync workers close them) shares the 2 cores with the server, so the figures are a floor. Not part of `make test`.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from record import Record

BIN = Path(sys.executable).parent
REQUESTS = 1500
PATHS = [
    "/healthz",
    "/",
    "/coins/plan?n=12&weight=unknown&goal=identify&extra=0&maybe_none=0&objective=worst&path=LB",
    "/api/coins?n=1000",
]


def free_port() -> int:
    """A free localhost port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def one(url: str) -> tuple[float, bool]:
    """Seconds for one GET, and whether it succeeded."""
    t = time.perf_counter()
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            r.read()
            ok = r.status == 200
    except OSError:
        ok = False
    return time.perf_counter() - t, ok


def run(url: str, concurrency: int) -> tuple[float, float, float, int]:
    """Requests per second, p50 and p99 in ms, errors."""
    with ThreadPoolExecutor(concurrency) as pool:
        list(pool.map(one, [url] * 50))  # warm up
        t = time.perf_counter()
        results = list(pool.map(one, [url] * REQUESTS))
        took = time.perf_counter() - t
    times = sorted(s for s, _ in results)
    return (
        REQUESTS / took,
        times[len(times) // 2] * 1000,
        times[int(len(times) * 0.99) - 1] * 1000,
        sum(not ok for _, ok in results),
    )


def main() -> None:
    """Start the server, load it, print the table."""
    port = free_port()
    env = {
        **os.environ,
        "COIN_PUZZLES_INSTANCE": tempfile.mkdtemp(prefix="coin-puzzles-load-"),
        "COIN_PUZZLES_PRECOMPUTE": "0",
    }
    server = subprocess.Popen(
        [str(BIN / "coin-puzzles"), "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            if one(base + "/healthz")[1]:
                break
            time.sleep(0.1)
        record = Record("load")
        for path in PATHS:
            figures = [run(base + path, concurrency) for concurrency in (10, 50)]
            record.row(
                f"`{path}`, 2 sync workers, client on the same cores, concurrency 10 / 50",
                " / ".join(f"{rps:,.0f} req/s" for rps, *_ in figures)
                + ", p99 "
                + " / ".join(f"{p99:.0f}" for *_, p99, _ in figures)
                + " ms, errors "
                + " / ".join(str(e) for *_, e in figures),
                target="0 errors",
            )
        record.save()
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()

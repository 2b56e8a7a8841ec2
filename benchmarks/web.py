"""Web under load: every page kind through gunicorn and through nginx, cold and cached, at 10 and 50 connections.

Servers as `make run` starts them (`coin-puzzles serve`: nginx in front of gunicorn's 2 workers of 8 threads), on
stores holding what the pages read (the English board's table, as `make run`'s fill leaves it), the precomputation
off: one as shipped (pages kept by each process and by nginx: "cached") and one with COIN_PUZZLES_PAGE_CACHE=0
(every request renders the page: "cold", the baseline in the same run); and the same two without nginx
(COIN_PUZZLES_PROXY=0: gunicorn on a TCP port, since behind nginx it listens on a private Unix socket). Through
nginx the load comes from 1,000 loopback addresses (nginx holds each address to 50 requests a second: one address
would measure the limit), by a client in this process (threads, a connection per request); gunicorn alone is
loaded by wrk (one thread). Each for a few seconds after a warm-up request; a static file served by the same nginx
is the ceiling. Then, in this process: the server time of a conditional GET of an unchanged page (304) against
rendering it.

Targets (issue 49; this machine, loopback): >= 1,500 req/s and p99 < 50 ms at 50 connections through serve on
every kept page, 0 errors; through nginx's cache at least half the static file's rate; a 304 in < 2 ms. The client
shares the cores with the server, so the figures are a floor. Run with `python benchmarks/web.py` (about four
minutes here); needs wrk (`make bench` installs Debian's). Not part of `make test`.
"""

from __future__ import annotations

import http.client
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.record import Record  # noqa: E402

BIN = Path(sys.executable).parent
SECONDS = 4  # of load per figure
PAGES = [  # (kind, path): the four, and pages of the other kinds
    ("home page", "/"),
    ("12-coin plan node", "/coins/plan?n=12&weight=unknown&goal=identify&extra=0&maybe_none=0&objective=worst&path=LB"),
    ("API answer", "/api/coins?n=1000"),
    ("English peg board", "/pegs/play?board=english&hole=d4"),
    ("Devil's game (a form: private)", "/devil/play?n=4&goal=all-heads"),
    ("glossary", "/glossary"),
]


def free_port() -> int:
    """A free localhost port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def get(url: str) -> tuple[int, dict[str, str]]:
    """Status and headers of one GET."""
    try:
        with urllib.request.urlopen(url, timeout=60) as r:
            r.read()
            return r.status, dict(r.headers)
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers)


def filled_instance() -> str:
    """A fresh instance whose store holds the English board's table of starts, as `make run`'s fill leaves it (the
    peg page reads it; without it the page says the table is being computed, and changes once it is stored)."""
    folder = tempfile.mkdtemp(prefix="coin-puzzles-web-")
    code = (
        "from webapp.results.catalogue import PEGS_TABLE, BoardParams\n"
        "from webapp.results.computations import run, write\n"
        "from webapp.store import default_store\n"
        "p = BoardParams('english')\n"
        "write(default_store(), PEGS_TABLE, PEGS_TABLE.key(p), run(PEGS_TABLE, p, lambda done, total: None))\n"
    )
    subprocess.run([sys.executable, "-c", code], env={**os.environ, "COIN_PUZZLES_INSTANCE": folder}, check=True)
    return folder


class Server:
    """`coin-puzzles serve` on a copy of an instance: its address (nginx) and its upstream (gunicorn)."""

    def __init__(self, instance: str, **env: str) -> None:
        """Start it and wait until it answers."""
        self.instance = tempfile.mkdtemp(prefix="coin-puzzles-web-")
        shutil.copytree(instance, self.instance, dirs_exist_ok=True)
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        self.proc = subprocess.Popen(
            [str(BIN / "coin-puzzles"), "serve", "--port", str(port)],
            env={**os.environ, "COIN_PUZZLES_INSTANCE": self.instance, "COIN_PUZZLES_PRECOMPUTE": "0", **env},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(600):
            try:
                if get(self.url + "/healthz")[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)

    def stop(self) -> None:
        """Stop it and remove its instance."""
        self.proc.terminate()
        self.proc.wait(timeout=30)
        shutil.rmtree(self.instance, ignore_errors=True)


def wrk(url: str, connections: int) -> tuple[float, float, int]:
    """Requests per second, p99 latency in ms and errors (non-2xx/3xx answers, socket errors) of SECONDS of load."""
    out = subprocess.run(
        ["wrk", "-t1", f"-c{connections}", f"-d{SECONDS}s", "--latency", "--timeout", "10s", url],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out)[1])  # type: ignore[index]
    value, unit = re.search(r"99%\s+([\d.]+)(us|ms|s)", out).groups()  # type: ignore[union-attr]
    p99 = float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]
    errors = sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", out))
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return rps, p99, errors + (int(bad[1]) if bad else 0)


ADDRESSES = 1000  # the loopback addresses the load through nginx comes from (127.0.4.0 up)


def spread(url: str, connections: int) -> tuple[float, float, int]:
    """wrk's three figures for load from many clients: each connection a thread that asks again as soon as it is
    answered, each request from the next of ADDRESSES loopback addresses on a connection of its own (so no address
    passes nginx's 50 a second: a single address would measure that limit), for SECONDS."""
    parts = urlsplit(url)
    target = parts.path + (f"?{parts.query}" if parts.query else "")
    times: list[list[float]] = [[] for _ in range(connections)]
    errors = [0] * connections
    start = time.monotonic()

    def client(k: int) -> None:
        n = k
        while time.monotonic() - start < SECONDS:
            address = 4 * 256 + n % ADDRESSES
            source = (f"127.0.{address // 256}.{address % 256 or 1}", 0)
            n += connections
            t = time.perf_counter()
            conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10, source_address=source)
            try:
                conn.request("GET", target)
                r = conn.getresponse()
                r.read()
                errors[k] += r.status >= 400
            except (OSError, http.client.HTTPException):
                errors[k] += 1
            finally:
                conn.close()
            times[k].append(time.perf_counter() - t)

    threads = [threading.Thread(target=client, args=(k,)) for k in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    every = sorted(t for ts in times for t in ts)
    return len(every) / (time.monotonic() - start), every[int(0.99 * (len(every) - 1))] * 1000, sum(errors)


def figures(url: str, load: Callable[[str, int], tuple[float, float, int]] = wrk) -> tuple[str, float]:
    """'rps10 / rps50 req/s, p99 a / b ms, errors x / y' and the rate at 50 connections."""
    get(url)  # the first rendering (and, cached, the copy every later request gets)
    runs = [load(url, c) for c in (10, 50)]
    text = (
        " / ".join(f"{r:,.0f}" for r, _, _ in runs)
        + " req/s, p99 "
        + " / ".join(f"{p:.0f}" for _, p, _ in runs)
        + " ms, errors "
        + " / ".join(str(e) for _, _, e in runs)
    )
    return text, runs[1][0]


def conditional_get_ms() -> tuple[float, float]:
    """Median server time (ms, in this process, no network) of a 304 to a conditional GET of the plan node, and of
    rendering the same page with the page cache off."""
    os.environ["COIN_PUZZLES_INSTANCE"] = tempfile.mkdtemp(prefix="coin-puzzles-web-")
    from webapp import create_app

    path = PAGES[1][1]
    kept = create_app({"PAGE_CACHE_BYTES": 2**24}).test_client()
    etag = kept.get(path).headers["ETag"]
    cold = create_app({"PAGE_CACHE_BYTES": 0}).test_client()

    def median(client: object, headers: dict[str, str], status: int) -> float:
        times = []
        for _ in range(300):
            t = time.perf_counter()
            r = client.get(path, headers=headers)  # type: ignore[attr-defined]
            times.append(time.perf_counter() - t)
            assert r.status_code == status
        return statistics.median(times) * 1000

    return median(kept, {"If-None-Match": etag}, 304), median(cold, {}, 200)


def main() -> None:
    """Both servers under load, then the conditional GET; the table's rows."""
    if shutil.which("wrk") is None:
        sys.exit("benchmarks/web.py needs wrk: `make bench` installs Debian's")
    record = Record("web")
    instance = filled_instance()
    cached, cold = Server(instance), Server(instance, COIN_PUZZLES_PAGE_CACHE="0")
    alone, alone_cold = (
        Server(instance, COIN_PUZZLES_PROXY="0"),
        Server(instance, COIN_PUZZLES_PROXY="0", COIN_PUZZLES_PAGE_CACHE="0"),
    )
    try:
        static, static_rps = figures(cached.url + "/static/css/site.css", spread)
        record.row("a static file (site.css, 27 kB) served by nginx: the ceiling, 10 / 50 connections", static)
        for kind, path in PAGES:
            status, headers = get(cached.url + path)
            kept = "public" in headers.get("Cache-Control", "")
            serve, serve_rps = figures(cached.url + path, spread)
            baseline, _ = figures(cold.url + path, spread)
            gunicorn, _ = figures(alone.url + path)
            gunicorn_cold, _ = figures(alone_cold.url + path)
            what = "kept" if kept else headers.get("Cache-Control", "")
            record.row(
                f"{kind} `{path}` ({what}) through serve (nginx), 10 / 50 connections from {ADDRESSES} addresses",
                serve,
                f"cold (COIN_PUZZLES_PAGE_CACHE=0): {baseline}",
                f"{serve_rps / static_rps:.0%} of the static file",
                ">= 1,500 req/s, p99 < 50 ms at 50, 0 errors" if kept else "",
            )
            record.row(
                f"{kind} through gunicorn alone (2 workers of 8 threads), 10 / 50 connections",
                gunicorn,
                f"cold: {gunicorn_cold}",
            )
    finally:
        for server in (cached, cold, alone, alone_cold):
            server.stop()
        shutil.rmtree(instance, ignore_errors=True)
    answered, rendered = conditional_get_ms()
    record.row(
        "a conditional GET of an unchanged plan node, server time (in-process, median of 300)",
        f"{answered:.2f} ms (304)",
        f"{rendered:.2f} ms: rendering it (page cache off)",
        f"{rendered / answered:.0f}x",
        "< 2 ms",
    )
    record.save()


if __name__ == "__main__":
    main()

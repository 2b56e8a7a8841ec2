"""The site as `make run` starts it, on an empty store, driven over HTTP.

Prints: the first response of every page the site links to (a progress page or the result: target < 1 s); `/` and
`/healthz` while the consumer precomputes (heavy jobs running: target p99 < 200 ms); the total precomputation
time; every linked page again once the store is full (target p99 < 300 ms); peak RSS of each web worker (target
< 300 MB) and of the job processes. Baseline in the same run: what each heavy page used to cost inside a request,
measured by computing its result in this process.

Run with `python benchmarks/crawl.py` (about two to three minutes here). Not part of `make test`.
"""

from __future__ import annotations

import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import deque
from pathlib import Path
from urllib.parse import urljoin, urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.record import Record  # noqa: E402

BIN = Path(sys.executable).parent
MAX_PAGES = 150


def free_port() -> int:
    """A free localhost port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def fetch(url: str) -> tuple[int, str, float]:
    """Status, body and seconds."""
    t = time.perf_counter()
    try:
        with urllib.request.urlopen(url, timeout=60) as r:
            return r.status, r.read().decode(errors="replace"), time.perf_counter() - t
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(errors="replace"), time.perf_counter() - t


def crawl(base: str) -> list[tuple[str, int, float, bool]]:
    """Breadth-first over the site's own links from /: (path, status, seconds, progress page?) per page."""
    seen, out, queue = {"/"}, [], deque(["/"])
    while queue and len(out) < MAX_PAGES:
        path = queue.popleft()
        status, body, took = fetch(base + path)
        out.append((path, status, took, "<progress" in body and "Computing" in body))
        for href in re.findall(r'href="([^"#]+)"', body):
            href = href.replace("&amp;", "&")
            parts = urlsplit(urljoin(base + path, href))
            link = parts.path + (f"?{parts.query}" if parts.query else "")
            if parts.netloc == urlsplit(base).netloc and not link.startswith("/static") and link not in seen:
                seen.add(link)
                queue.append(link)
    return out


def p99(xs: list[float]) -> float:
    """The 99th percentile."""
    return sorted(xs)[max(0, int(len(xs) * 0.99) - 1)]


def rss_peaks(root_pid: int) -> list[tuple[str, float]]:
    """Peak RSS (VmHWM) of every process under root_pid, in MB, with its command."""
    out = subprocess.run(["ps", "-e", "-o", "pid=,ppid=,args="], capture_output=True, text=True).stdout
    children: dict[int, list[tuple[int, str]]] = {}
    for line in out.splitlines():
        pid, ppid, args = line.split(None, 2)
        children.setdefault(int(ppid), []).append((int(pid), args))
    found, stack = [], [root_pid]
    while stack:
        for pid, args in children.get(stack.pop(), []):
            stack.append(pid)
            try:
                status = Path(f"/proc/{pid}/status").read_text()
            except OSError:
                continue
            m = re.search(r"VmHWM:\s+(\d+) kB", status)
            if m:
                found.append((args[:60], int(m.group(1)) / 1024))
    return found


def baseline() -> list[tuple[str, float]]:
    """What heavy pages cost inside a request before: their results computed in this process."""
    from solvers.aequitas.paper import cells
    from solvers.devil import DevilVariant, solve
    from solvers.pegs import board_table

    out = []
    for name, run in (
        ("/pegs/table?board=triangle-6", lambda: board_table("triangle-6")),
        ("/devil/play?n=16", lambda: solve(DevilVariant(16))),
        ("/aequitas/table (N <= 30)", lambda: cells(30)),
    ):
        t = time.perf_counter()
        run()
        out.append((name, time.perf_counter() - t))
    return out


def main() -> None:
    """Start, measure, print."""
    folder = tempfile.mkdtemp(prefix="coin-puzzles-bench-")
    port = free_port()
    env = {**os.environ, "COIN_PUZZLES_INSTANCE": folder, "PORT": str(port)}
    log = open(Path(folder) / "serve.log", "w")  # noqa: SIM115 - open for the server's lifetime
    server = subprocess.Popen(
        [str(BIN / "coin-puzzles"), "serve", "--port", str(port)], env=env, stdout=log, stderr=subprocess.STDOUT
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            fetch(base + "/healthz")
            break
        except OSError:
            time.sleep(0.1)
    started = time.perf_counter()
    record = Record("crawl")
    try:
        first = crawl(base)
        times = [t for _, _, t, _ in first]
        slowest = max(first, key=lambda r: r[2])
        record.row(
            f"first response of {len(first)} linked pages as `make run` starts, empty store "
            f"({sum(p for *_, p in first)} progress pages)",
            f"p99 {p99(times) * 1000:.0f} ms, max {slowest[2] * 1000:.0f} ms ({slowest[0]}), "
            f"{sum(s >= 500 for _, s, _, _ in first)} errors",
            target="< 1 s",
        )
        cheap = [fetch(base + path)[2] for _ in range(100) for path in ("/", "/healthz")]
        record.row(
            "`/` and `/healthz` while the consumer runs the precomputation",
            f"p50 {statistics.median(cheap) * 1000:.1f} ms, p99 {p99(cheap) * 1000:.1f} ms",
            target="< 200 ms",
        )
        os.environ["COIN_PUZZLES_INSTANCE"] = folder
        from webapp.jobs.precompute import everything
        from webapp.store import default_store

        store = default_store()
        keys = [c.key(params) for c, params in everything()]
        while time.perf_counter() - started < 1800 and any(store.get(k) is None for k in keys):
            time.sleep(2)
        jobs = Path(folder, "serve.log").read_text().count("coin-puzzles job: computing")
        missing = sum(store.get(k) is None for k in keys)
        record.row(
            f"precomputation of all {len(keys)} stored results in the background while serving ({jobs} jobs)",
            f"{time.perf_counter() - started:.0f} s"
            + (f", {missing} still missing at the 30-minute cut-off" if missing else ""),
        )
        again = [fetch(base + path)[2] for _ in range(3) for path, *_ in first]
        record.row(
            f"the same pages once stored ({len(again)} requests)",
            f"p50 {statistics.median(again) * 1000:.1f} ms, p99 {p99(again) * 1000:.1f} ms",
            target="< 300 ms",
        )
        peaks = rss_peaks(server.pid)
        for args, mb in peaks:
            print(f"peak RSS {mb:7.1f} MB  {args}")
        record.row(
            "peak RSS per process (gunicorn workers, consumers, jobs)",
            ", ".join(f"{mb:.0f} MB" for _, mb in peaks),
            target="< 300 MB per web worker",
        )
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()
    record.row(
        "what the precomputation keeps off the request path",
        "a progress page at once",
        "; ".join(f"{name} computed inside a request: {seconds:.1f} s" for name, seconds in baseline()),
    )
    record.save()


if __name__ == "__main__":
    main()

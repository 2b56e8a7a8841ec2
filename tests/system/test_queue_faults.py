"""The visitors' queue under abuse and faults, with the real servers `make run` starts (gunicorn, the consumers,
nginx in front): a burst from one client is bounded and never holds another client's job back; the whole queue
is bounded; a job past its time limit fails clearly and frees its worker; a job whose process is killed is run
again, then marked failed; a killed consumer worker's job is claimed again at once, and a killed web worker
loses nothing; the SQLite store passes PRAGMA integrity_check after all of it."""

from __future__ import annotations

import http.client
import http.cookiejar
import json
import os
import re
import signal
import sqlite3
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.system.conftest import Served
from tests.system.test_jobs import descendants
from tests.system.test_proxy import start_nginx
from tests.waiting import until

HEAVY = "/api/variants/table?weight=unknown&lies=2&fakes=1&pans=2"  # minutes of one core, little memory
SMALL = "/api/devil?n=15"  # a job of about 2-3 s
SHORT = "/api/devil?n=13"  # a job well under a second (under the 3-second limit below, even on a busy machine)
Answer = tuple[int, dict[str, str], dict[str, object]]


def ask(base: str, path: str, source: str = "127.0.0.1") -> Answer:
    """GET path from a given source address (loopback has all of 127/8): status, headers, JSON body."""
    host, port = base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=30, source_address=(source, 0))
    try:
        conn.request("GET", path)
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, json.loads(r.read() or b"{}")
    finally:
        conn.close()


def answered(base: str, path: str, source: str, seconds: float = 120) -> Answer:
    """Poll as an API client would until the answer is not 202."""
    result: list[Answer] = []

    def done() -> bool:
        result[:] = [ask(base, path, source)]
        return result[0][0] != 202

    until(done, seconds, f"{path} was not answered")
    return result[0]


def french_positions(count: int) -> list[str]:
    """Distinct French-board positions (all holes full but two): each a job, never quick."""
    full = (1 << 37) - 1
    return [f"{full & ~(1 << i) & ~(1 << j):010x}" for i in range(37) for j in range(i + 1, 37)][:count]


def client_jobs(app: Served, client: str) -> list[str]:
    """The states of a client's job rows in the served instance's store."""
    path = Path(app.log).parent / "instance" / "results.db"
    with sqlite3.connect(path) as db:
        return [str(r[0]) for r in db.execute("SELECT state FROM jobs WHERE client = ?", (client,))]


def integrity(app: Served) -> str:
    """PRAGMA integrity_check on the served instance's result store."""
    path = Path(app.log).parent / "instance" / "results.db"
    with sqlite3.connect(path) as db:
        return str(db.execute("PRAGMA integrity_check").fetchone()[0])


@pytest.mark.slow
def test_a_burst_from_one_client_leaves_others_served(serve: Callable[..., Served], tmp_path: Path) -> None:
    """Through nginx, client A sends 200 distinct heavy requests: 4 are queued (202), 196 get 429 with
    Retry-After and nothing queued. Client B's small job is then answered while A's job of minutes is still
    running (A's jobs run one at a time, so a worker stays free for others). A third client fills the queue to
    its cap of 5: then a 503."""
    app = serve(
        COIN_PUZZLES_PROXIES="1", JOB_WORKERS="2", COIN_PUZZLES_JOBS_PER_CLIENT="4", COIN_PUZZLES_JOBS_QUEUED="5"
    )
    url, nginx = start_nginx(tmp_path, app.url.removeprefix("http://"))
    try:
        paths = [HEAVY] + [f"/api/pegs?board=french&position={p}" for p in french_positions(199)]
        burst = [ask(url, path, "127.0.0.2") for path in paths]
        statuses = [status for status, _, _ in burst]
        assert statuses[:4] == [202] * 4 and statuses[4:] == [429] * 196
        status, headers, body = burst[-1]
        assert headers["retry-after"] == "30" and "already have 4 computations" in str(body["error"])
        until(lambda: '"1-unknown-l2-f1-p2"' in app.output(), 60, "A's heavy job did not start")
        status, _, body = answered(url, SMALL, "127.0.0.3")
        assert status == 200 and body["solvable"] is False
        # B's answer is stored a moment before its job's row is deleted: B no longer counts once it is
        until(lambda: not client_jobs(app, "127.0.0.3"), 30, "B's finished job still holds a place in the queue")
        heavy = ask(url, HEAVY, "127.0.0.2")
        assert heavy[0] == 202 and heavy[2]["status"] == "running"  # B did not wait for A's job of minutes
        # A's other jobs wait while its heavy one runs: how many of A's are live now stays so
        live = sum(ask(url, path, "127.0.0.2")[0] == 202 for path in paths[:4])
        tables = [
            f"/api/variants/table?weight={w}&lies={k}&fakes=1&pans=2" for w in ("heavier", "lighter") for k in (1, 2)
        ]
        third = [ask(url, path, "127.0.0.4")[0] for path in tables[: 5 - live + 1]]
        assert third == [202] * (5 - live) + [503]  # the queue's 5 places filled: nothing more is queued
        assert ask(url, SMALL, "127.0.0.4")[0] == 200  # stored results are never refused
    finally:
        nginx.terminate()
        nginx.wait(timeout=10)


@pytest.mark.slow
def test_a_job_past_its_time_limit_fails_clearly_and_frees_its_worker(serve: Callable[..., Served]) -> None:
    """With a 3-second limit, the heavy job ends as a clear 503 (retry later), and the one worker then runs the
    next job."""
    app = serve(JOB_WORKERS="1", COIN_PUZZLES_JOB_SECONDS="3")
    status, headers, body = answered(app.url, HEAVY, "127.0.0.1", 60)
    assert status == 503 and "ran past the limit of 3 seconds" in str(body["error"])
    assert headers["retry-after"] == "60" and job_processes(app) == []  # its process was stopped
    assert answered(app.url, SHORT, "127.0.0.1", 60)[0] == 200
    assert integrity(app) == "ok"


def job_processes(app: Served) -> list[tuple[int, int]]:
    """(worker, job process) for each job the visitors' consumer runs now (its scheduler has no children)."""
    below = descendants(app.process.pid)
    consumer = _child_running(app, b"visitors")
    workers = {c for c in below if _parent(c) == consumer}
    return sorted((_parent(j), j) for j in below if _parent(j) in workers)


def _child_running(app: Served, word: bytes) -> int:
    """The process serve started whose command line has this word (its own children have the same one)."""
    for pid in descendants(app.process.pid):
        if _parent(pid) == app.process.pid and word in Path(f"/proc/{pid}/cmdline").read_bytes():
            return pid
    raise AssertionError(f"serve has no {word.decode()} process")


def _parent(pid: int) -> int:
    """A process's parent, 0 if it is gone."""
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError):
        return 0


def _kill_job(app: Served) -> int:
    """SIGKILL the job process now running; its pid."""
    until(lambda: bool(job_processes(app)), 60, "no job process")
    _, job = job_processes(app)[0]
    os.kill(job, signal.SIGKILL)
    return job


@pytest.mark.slow
def test_killed_jobs_are_run_again_then_marked_failed(serve: Callable[..., Served]) -> None:
    """SIGKILL the job's process: its worker runs it again at once. Kill it again: the job is marked failed (a
    503 saying so), never left 'computing'. SIGKILL the consumer's worker itself: its job process dies with it,
    the consumer starts a new worker, and the job's claim lapses within COIN_PUZZLES_JOB_STALE_SECONDS, so the
    next request queues it again and it completes."""
    app = serve(JOB_WORKERS="1", COIN_PUZZLES_JOB_STALE_SECONDS="3")
    assert ask(app.url, HEAVY)[0] == 202
    first = _kill_job(app)
    until(lambda: "(attempt 1)" in app.output(), 30, "the worker did not see its job killed")
    second = _kill_job(app)
    assert second != first
    status, _, body = answered(app.url, HEAVY, "127.0.0.1", 60)
    assert status == 503 and "its process was stopped (signal 9) twice" in str(body["error"])
    assert ask(app.url, SMALL)[0] == 202
    until(lambda: bool(job_processes(app)), 30, "the small job did not start")
    worker, job = job_processes(app)[0]
    os.kill(worker, signal.SIGKILL)
    until(lambda: _parent(job) == 0, 10, "the job outlived its worker")
    status, _, body = answered(app.url, SMALL, "127.0.0.1", 90)
    assert status == 200 and body["solvable"] is False
    assert integrity(app) == "ok"


def honest_game(base: str) -> tuple[urllib.request.OpenerDirector, str, str]:
    """Start an honest-scale game as a browser would (cookies, the form's CSRF token): the browser, the token and
    the game's first position's URL."""
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    with browser.open(base + "/adversary", timeout=30) as r:
        match = re.search(r'name="csrf_token" value="([^"]+)"', r.read().decode())
    assert match
    form = urllib.parse.urlencode({"csrf_token": match.group(1), "n": "12", "mode": "honest"}).encode()
    with browser.open(base + "/adversary", data=form, timeout=30) as r:  # 303 to the game, followed
        return browser, match.group(1), r.geturl()


def gunicorn_workers(app: Served) -> tuple[int, list[int]]:
    """gunicorn's master and its workers."""
    master = _child_running(app, b"gunicorn")
    return master, sorted(c for c in descendants(master) if _parent(c) == master)


QUICK = [  # results computed inside the request and written to the store (up to 256 secrets)
    f"/api/codebreak?game=mastermind&pegs={p}&colours={c}&strategy={s}"
    for p, c in ((3, 5), (3, 6), (4, 3), (4, 4), (2, 8), (2, 10))
    for s in ("knuth", "expected", "entropy", "parts")
]


@pytest.mark.slow
def test_a_killed_web_worker_loses_nothing(serve: Callable[..., Served]) -> None:
    """SIGKILL gunicorn's workers again and again while eight clients keep them busy with requests that compute
    and store results: the requests in flight fail, gunicorn starts new workers, every result is then served,
    a hidden game started before the kills goes on from its position, and the store is sound."""
    app = serve(COIN_PUZZLES_PROXY="0")  # gunicorn answering itself: a killed worker drops its connections
    browser, csrf, game = honest_game(app.url)
    master, workers = gunicorn_workers(app)
    outcomes: list[int] = []

    done = threading.Event()

    def client(paths: list[str]) -> None:
        while not done.is_set():  # the clients keep the workers busy until the kills are over
            for path in paths:
                try:
                    outcomes.append(ask(app.url, path)[0])
                except (OSError, http.client.HTTPException):
                    outcomes.append(0)  # the connection died with its worker

    with ThreadPoolExecutor(8) as pool:
        for i in range(8):
            pool.submit(client, QUICK[i::8])
        kills, deadline = 0, time.monotonic() + 60
        while (kills < 6 or 0 not in outcomes) and time.monotonic() < deadline:
            time.sleep(0.15)
            for w in gunicorn_workers(app)[1]:
                os.kill(w, signal.SIGKILL)
                kills += 1
        done.set()
    assert kills and 0 in outcomes, "no request was in flight when a worker was killed"
    until(lambda: len(gunicorn_workers(app)[1]) == len(workers), 30, "gunicorn did not replace its workers")
    assert [ask(app.url, path)[0] for path in QUICK] == [200] * len(QUICK)
    with browser.open(game, timeout=30) as r:
        assert r.status == 200 and "Weigh" in r.read().decode()
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(game).query))
    weighing = {**query, "csrf_token": csrf, "c1": "left", "c2": "right"}
    with browser.open(app.url + "/adversary/weigh", data=urllib.parse.urlencode(weighing).encode(), timeout=30) as r:
        assert r.status == 200 and "/adversary/play?" in r.geturl() and r.geturl() != game
    assert integrity(app) == "ok"

"""Heavy results through the real queue and store: a first request answers at once with progress, one job per
key however many workers ask, the result at the same URL when done, kept across a restart; SQLite and Redis."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.system.conftest import SYSTEM_KEY, Served

HEAVY = "/api/devil?n=15"  # about 2 s of CPU (a search over all 32,768 tables): a job, never a request


def get(url: str) -> tuple[int, dict[str, object], float]:
    """Status, JSON body and seconds taken."""
    t = time.monotonic()
    with urllib.request.urlopen(url, timeout=30) as r:
        return r.status, json.loads(r.read()), time.monotonic() - t


def until_done(url: str, seconds: float = 120) -> dict[str, object]:
    """Poll as an API client would (202 with retry_after) until the result is there."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        status, body, _ = get(url)
        if status == 200:
            return body
        assert status == 202 and body["status"] in ("queued", "running")
        time.sleep(0.5)
    raise TimeoutError(url)


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", "redis"])
def test_heavy_result_is_a_job_with_progress_and_survives_a_restart(
    backend: str, serve: Callable[..., Served], request: pytest.FixtureRequest
) -> None:
    """Six concurrent first requests (two gunicorn workers) each answer in well under a second with 202 and
    progress; exactly one job runs; the result comes at the same URL and is served again after a restart."""
    redis_url = request.getfixturevalue("redis_server") if backend == "redis" else None
    app = serve(redis_url)
    with ThreadPoolExecutor(6) as pool:
        first = list(pool.map(get, [app.url + HEAVY] * 6))
    assert all(status == 202 for status, _, _ in first)
    assert all(seconds < 1.0 for _, _, seconds in first)
    assert {"status", "progress", "retry_after"} <= set(first[0][1])
    body = until_done(app.url + HEAVY)
    assert body["solvable"] is False and "odd prime factor 3" in str(body["reason"])
    assert app.output().count("coin-puzzles job: computing devil.solve") == 1
    app.stop()
    again = serve(redis_url)
    status, body2, seconds = get(again.url + HEAVY)
    assert status == 200 and seconds < 1.0, seconds
    assert json.dumps(body2, sort_keys=True) == json.dumps(body, sort_keys=True)
    assert "coin-puzzles job: computing" not in again.output()
    again.stop()  # before the Redis fixture stops its server under the running consumers


@pytest.mark.slow
def test_progress_page_then_result_for_people(serve: Callable[..., Served]) -> None:
    """A page (not the API) answers at once with a progress bar that refreshes, kept by no cache, then shows the
    result."""
    app = serve()
    with urllib.request.urlopen(app.url + "/aequitas/table?max=30", timeout=30) as r:
        html = r.read().decode()
    assert r.status == 200 and "<progress" in html and 'http-equiv="refresh"' in html
    assert r.headers["Cache-Control"] == "no-store"  # kept by no cache (nginx's included): the result replaces it
    deadline = time.monotonic() + 120
    while "<progress" in html and time.monotonic() < deadline:
        time.sleep(0.5)
        with urllib.request.urlopen(app.url + "/aequitas/table?max=30", timeout=30) as r:
            html = r.read().decode()
    assert "<progress" not in html and "1,809" in html
    assert "public" in r.headers["Cache-Control"]  # the result's page is kept from now on


def descendants(pid: int) -> set[int]:
    """Every process below pid, from /proc (children, their children, ...)."""
    parent: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue  # gone meanwhile
            parent[int(entry.name)] = int(fields[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, p in parent.items() if p in frontier} - found
        found |= frontier
    return found


def alive(pid: int) -> bool:
    """Whether a process exists and is not a zombie."""
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.slow
def test_stopping_the_server_stops_a_running_job(serve: Callable[..., Served]) -> None:
    """A job of minutes (Bulls and Cows' optimal average) is running when the server is stopped (SIGTERM): serve
    exits within its deadline and leaves no process behind, the job's process included (it used to go on alone,
    its consumer killed above it); the interrupted job gave up its claim, so the next start runs it again at
    once."""
    app = serve()
    url = app.url + "/api/codebreak?game=bulls-and-cows&strategy=optimal-average"
    deadline = time.monotonic() + 90
    while "computing codebreak.tree" not in app.output():  # after the game's outcome table, its own job
        assert get(url)[0] == 202 and time.monotonic() < deadline, "the search did not start"
        time.sleep(0.5)
    while len(below := descendants(app.process.pid)) < 5:  # gunicorn and its workers, two consumers, the job
        assert time.monotonic() < deadline, "the job's process did not start"
        time.sleep(0.1)
    t = time.monotonic()
    app.stop()
    assert time.monotonic() - t < 25
    assert [pid for pid in below if alive(pid)] == []
    again = serve()
    deadline = time.monotonic() + 60
    while "computing codebreak.tree" not in again.output():
        assert get(url.replace(app.url, again.url))[0] == 202 and time.monotonic() < deadline, "not run again"
        time.sleep(0.5)


@pytest.mark.slow
def test_job_limits_redis(redis_server: str) -> None:
    """The Redis store keeps the same limits as SQLite (its claim is one Lua script, atomic on the server)."""
    from tests.unit.test_store import check_adopt, check_limits
    from webapp.store_redis import RedisStore

    check_limits(RedisStore(redis_server, [SYSTEM_KEY.encode()]))
    check_adopt(RedisStore(redis_server, [SYSTEM_KEY.encode()]))

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
from tests.waiting import until

HEAVY = "/api/devil?n=15"  # about 2 s of CPU (a search over all 32,768 tables): a job, never a request


def get(url: str) -> tuple[int, dict[str, object]]:
    """Status and JSON body."""
    with urllib.request.urlopen(url, timeout=30) as r:
        return r.status, json.loads(r.read())


def until_done(url: str, seconds: float = 120) -> dict[str, object]:
    """Poll as an API client would (202 with retry_after) until the result is there."""

    def done() -> dict[str, object] | None:
        status, body = get(url)
        assert status == 200 or (status == 202 and body["status"] in ("queued", "running")), (status, body)
        return body if status == 200 else None

    return until(done, seconds, f"{url} was not answered", every=0.5)


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", "redis"])
def test_heavy_result_is_a_job_with_progress_and_survives_a_restart(
    backend: str, serve: Callable[..., Served], request: pytest.FixtureRequest
) -> None:
    """Six concurrent first requests (two gunicorn workers) each answer at once with 202 and progress (how fast:
    benchmarks/crawl.py); exactly one job runs; the result comes at the same URL and is served again, stored,
    after a restart (no job runs again)."""
    redis_url = request.getfixturevalue("redis_server") if backend == "redis" else None
    app = serve(redis_url)
    with ThreadPoolExecutor(6) as pool:
        first = list(pool.map(get, [app.url + HEAVY] * 6))
    assert all(status == 202 for status, _ in first)
    assert {"status", "progress", "retry_after"} <= set(first[0][1])
    body = until_done(app.url + HEAVY)
    assert body["solvable"] is False and "odd prime factor 3" in str(body["reason"])
    assert app.output().count("coin-puzzles job: computing devil.solve") == 1
    app.stop()
    again = serve(redis_url)
    status, body2 = get(again.url + HEAVY)
    assert status == 200
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

    def page() -> tuple[str, str] | None:
        with urllib.request.urlopen(app.url + "/aequitas/table?max=30", timeout=30) as r:
            text = r.read().decode()
            return None if "<progress" in text else (text, r.headers["Cache-Control"])

    html, control = until(page, 120, "the table never came", every=0.5)
    assert "1,809" in html
    assert "public" in control  # the result's page is kept from now on


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
    """A job of minutes (Bulls and Cows' optimal average within 7 guesses: the uncapped one is shipped) is running
    when the server is stopped (SIGTERM, twice): serve exits within its deadline and leaves no process behind, the
    job's process included (it used to go on alone, its consumer killed above it), with no traceback (the second
    stop raised in serve's own stop); the interrupted job gave up its claim, so the next start runs it again at
    once."""
    app = serve()
    url = app.url + "/api/codebreak?game=bulls-and-cows&strategy=optimal-average&max_guesses=7"

    def searching(served: Served) -> bool:
        assert get(url.replace(app.url, served.url))[0] == 202
        return "computing codebreak.tree" in served.output()  # after the game's outcome table, its own job

    until(lambda: searching(app), 90, "the search did not start", every=0.5)

    def processes() -> set[int] | None:  # gunicorn and its workers, two consumers, the job
        found = descendants(app.process.pid)
        return found if len(found) >= 5 else None

    below = until(processes, 30, "the job's process did not start", every=0.1)
    app.process.terminate()
    time.sleep(0.3)  # serve is stopping its processes: a stop asked again (Ctrl+C twice) does not cut that short
    app.stop()  # waits for serve to exit (30 s at most; its own deadline is 15 s)
    assert [pid for pid in below if alive(pid)] == []
    again = serve()
    until(lambda: searching(again), 60, "not run again", every=0.5)


@pytest.mark.slow
def test_job_limits_redis(redis_server: str) -> None:
    """The Redis store keeps the same limits as SQLite (its claim is one Lua script, atomic on the server)."""
    from tests.unit.test_store import check_adopt, check_limits
    from webapp.store.redis import RedisStore

    check_limits(RedisStore(redis_server, [SYSTEM_KEY.encode()]))
    check_adopt(RedisStore(redis_server, [SYSTEM_KEY.encode()]))


@pytest.mark.slow
def test_store_budget_redis(redis_server: str) -> None:
    """The Redis store keeps the same budget as SQLite (a write and its evictions are one Lua script; every read
    counts as a use)."""
    from tests.unit.test_store_budget import check_budget
    from webapp.store.redis import RedisStore

    check_budget(lambda budget: RedisStore(redis_server, [SYSTEM_KEY.encode()], budget), touch_on_read=True)


@pytest.mark.slow
def test_store_games_redis(redis_server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Redis store keeps players' games within their own budget as SQLite does (one Lua script, given the
    time by the store: the test's clock)."""
    from tests.unit.test_store_budget import Clock, check_games
    from webapp.store import redis as store_redis

    clock = Clock()
    monkeypatch.setattr(store_redis, "time", clock)
    check_games(lambda budget: store_redis.RedisStore(redis_server, [SYSTEM_KEY.encode()], budget), clock)


@pytest.mark.slow
def test_games_an_earlier_version_counted_as_visitors_move_to_their_class_redis(redis_server: str) -> None:
    """A Redis store written before games had their own class (a game's size in the visitors' accounts): the first
    write of a new version moves it, with its last use, into the games' class, once."""
    import redis

    from webapp.store import Budget
    from webapp.store.redis import RedisStore

    r = redis.Redis.from_url(redis_server)
    r.flushdb()
    old = RedisStore(redis_server, [SYSTEM_KEY.encode()], Budget(10_000, lambda key: False, 10_000))
    old.put("visitor:a", b"v" * 100)
    r.hset("cp:visitor-sizes", "game:old", 110)  # as the earlier version counted a game
    r.zadd("cp:visitor-used", {"game:old": 12.5})
    r.incrby("cp:visitor-bytes", 110)
    r.delete("cp:games-class")
    new = RedisStore(redis_server, [SYSTEM_KEY.encode()], Budget(10_000, lambda key: False, 10_000))
    new.put("visitor:b", b"w" * 100)
    assert new.visitors_bytes() == 2 * (9 + 100) and new.games_bytes() == 110
    assert r.zscore("cp:game-used", "game:old") == 12.5 and r.hget("cp:visitor-sizes", "game:old") is None
    new.put("visitor:c", b"x" * 10)
    assert new.games_bytes() == 110  # once

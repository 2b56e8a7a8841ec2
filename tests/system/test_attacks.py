"""A hostile visitor and a careless operator against the app as `make run` starts it (nginx, gunicorn and the real
consumers): the queue's limits hold for results the precomputation had queued, bad input is refused before
anything is queued, every process refuses a key the site must not use, serve fails loudly when a part cannot
start, a rotated key loses no result, a killed consumer's job is queued again without anyone asking, slow clients
do not stall the site, and the instance folder is private."""

from __future__ import annotations

import http.cookiejar
import os
import re
import signal
import socket
import subprocess
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.system.conftest import BIN, QUEUED_WITHIN, SYSTEM_KEY, Served, free_port
from tests.system.test_proxy import slow_clients
from tests.system.test_queue_faults import answered, ask, gunicorn_workers, job_processes, until
from webapp.jobs.queues import make_huey

pytestmark = pytest.mark.slow

DEVIL_JOBS = [  # each queued by the precomputation (2^n tables, n > 9: never computed inside a request)
    f"/api/devil?n={n}&goal={goal}&reflections={r}"
    for n in range(10, 17)
    for goal in ("all-heads", "all-equal")
    for r in (0, 1)
]


def _visitors_waiting(app: Served) -> int:
    """Tasks waiting on the served instance's visitors' queue."""
    return int(make_huey("visitors", None, Path(app.log).parent / "instance").pending_count())


def test_results_queued_for_the_precomputation_count_against_the_client(serve: Callable[..., Served]) -> None:
    """One client asks for 28 results the precomputation has queued (behind the peg tables): at most its 4 are
    moved to the visitors' queue, the rest are refused with 429 naming what it has waiting; another client still
    gets its own."""
    app = serve(COIN_PUZZLES_PRECOMPUTE="1", COIN_PUZZLES_JOBS_PER_CLIENT="4", JOB_WORKERS="1")
    until(
        lambda: "results queued for precomputation" in app.output(), QUEUED_WITHIN, "the precomputation was not queued"
    )
    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda path: ask(app.url, path, "127.0.0.2"), DEVIL_JOBS))
    statuses = [status for status, _, _ in answers]
    refused = [body for status, _, body in answers if status == 429]
    assert len(refused) >= len(DEVIL_JOBS) - 4 - statuses.count(200) - 2, statuses  # 2: running already
    assert "You already have 4 computations queued or running (" in str(refused[0]["error"])
    assert _visitors_waiting(app) <= 4
    assert ask(app.url, "/api/devil?n=16&goal=all-heads&reflections=0", "127.0.0.3")[0] in (200, 202)


def test_bad_input_is_refused_before_anything_is_queued(serve: Callable[..., Served]) -> None:
    """A cap on the guesses with a heuristic: 400 at once, the queue untouched."""
    app = serve()
    status, _, body = ask(app.url, "/api/codebreak?game=mastermind&pegs=4&colours=5&strategy=knuth&max_guesses=9")
    assert status == 400 and "max_guesses" in str(body["error"])
    assert _visitors_waiting(app) == 0


@pytest.mark.parametrize("key", ["x", "0123456789abcdef" * 2, "abcdefgh" * 6])
def test_every_process_refuses_a_weak_key(key: str, tmp_path: Path) -> None:
    """serve, worker and precompute stop at once with exit status 2 and the reason, starting nothing."""
    env = {**os.environ, "COIN_PUZZLES_SECRET": key, "COIN_PUZZLES_INSTANCE": str(tmp_path / "instance")}
    for command in (["serve", "--port", str(free_port())], ["worker", "--queue", "visitors"], ["precompute"]):
        done = subprocess.run(
            [str(BIN / "coin-puzzles"), *command], env=env, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 2 and "too weak" in done.stderr and "Traceback" not in done.stderr, command


@pytest.mark.parametrize("proxy", ["1", "0"])
def test_serve_fails_when_its_address_is_taken(proxy: str, tmp_path: Path) -> None:
    """The address in use: nginx (or gunicorn without it) cannot listen, and serve stops everything and exits
    non-zero instead of 0."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {
            **os.environ,
            "COIN_PUZZLES_SECRET": SYSTEM_KEY,
            "COIN_PUZZLES_INSTANCE": str(tmp_path / "instance"),
            "COIN_PUZZLES_PRECOMPUTE": "0",
            "COIN_PUZZLES_PROXY": proxy,
        }
        done = subprocess.run(
            [str(BIN / "coin-puzzles"), "serve", "--port", str(port)],
            env=env,
            capture_output=True,
            text=True,
            timeout=90,
        )
    assert done.returncode != 0 and "stopped (status" in done.stderr, done.stderr[-2000:]


def test_a_rotated_key_loses_no_result(serve: Callable[..., Served], tmp_path: Path) -> None:
    """Jobs running while `rotate-key` runs sign their results with the new key; the web workers pick it up at
    once (no restart), so each result is computed once and served, and one stored before still is."""
    app = serve(COIN_PUZZLES_SECRET="")  # the instance folder's key, which rotate-key replaces
    before = answered(app.url, "/api/devil?n=12", "127.0.0.1")
    assert before[0] == 200
    heavy = ["/api/devil?n=15", "/api/devil?n=14&goal=all-equal", "/api/devil?n=14&reflections=1"]
    assert all(ask(app.url, path, f"127.0.0.{i + 5}")[0] == 202 for i, path in enumerate(heavy))
    env = {**os.environ, "COIN_PUZZLES_SECRET": "", "COIN_PUZZLES_INSTANCE": str(tmp_path / "instance")}
    subprocess.run([str(BIN / "coin-puzzles"), "rotate-key"], env=env, check=True, capture_output=True, timeout=60)
    for i, path in enumerate(heavy):
        assert answered(app.url, path, f"127.0.0.{i + 5}")[0] == 200
    assert ask(app.url, "/api/devil?n=12")[2] == before[2]
    assert app.output().count("coin-puzzles job: computing devil.solve") == 4  # n=12 and the three, once each


def test_a_worker_booted_after_rotate_key_reads_the_new_keys_before_the_session(
    serve: Callable[..., Served], tmp_path: Path
) -> None:
    """After `rotate-key`, a visitor's form and session cookie come signed with the new key; gunicorn's workers are
    then killed, so the form's POST is the first request of a worker forked from a master that still holds the
    old keys. Five times over, the POST starts its game (no 400 "your browser sent no session cookie"): the
    worker follows the key files before it opens the session."""
    app = serve(COIN_PUZZLES_SECRET="")
    env = {**os.environ, "COIN_PUZZLES_SECRET": "", "COIN_PUZZLES_INSTANCE": str(tmp_path / "instance")}
    subprocess.run([str(BIN / "coin-puzzles"), "rotate-key"], env=env, check=True, capture_output=True, timeout=60)
    for _ in range(5):
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        with browser.open(app.url + "/adversary", timeout=30) as r:
            token = re.search(r'name="csrf_token" value="([^"]+)"', r.read().decode())
        assert token
        old = gunicorn_workers(app)[1]
        for pid in old:
            os.kill(pid, signal.SIGKILL)
        until(lambda old=old: len(set(gunicorn_workers(app)[1]) - set(old)) == len(old), 30, "no new workers")
        form = urllib.parse.urlencode({"csrf_token": token[1], "n": "12", "mode": "honest"}).encode()
        with browser.open(app.url + "/adversary", data=form, timeout=30) as r:
            assert r.status == 200 and "/adversary/play?" in r.geturl()


def test_a_killed_consumer_worker_is_queued_again_without_a_request(serve: Callable[..., Served]) -> None:
    """SIGKILL the consumer's worker while its job runs, with the precomputation's whole backlog queued on its one
    worker: once the job's claim is stale, the precomputation's consumer queues it again by itself on its next
    look (nobody asks meanwhile; the looks are its own thread's, not tasks behind that backlog), and it completes.
    The looks are 2 s apart here instead of a minute (COIN_PUZZLES_REVIVE_SECONDS)."""
    app = serve(
        COIN_PUZZLES_PRECOMPUTE="1",
        JOB_WORKERS="1",
        COIN_PUZZLES_JOB_STALE_SECONDS="3",
        COIN_PUZZLES_REVIVE_SECONDS="2",
    )
    until(
        lambda: "results queued for precomputation" in app.output(), QUEUED_WITHIN, "the precomputation was not queued"
    )
    path = "/api/devil?n=15"  # the whole-table search for 15 coins: a job of about 4 s (the visitor's now)
    assert ask(app.url, path)[0] == 202
    until(lambda: bool(job_processes(app)), 60, "the job did not start")
    worker, _ = job_processes(app)[0]
    os.kill(worker, signal.SIGKILL)
    # the looks are the precomputation's consumer's, at nice 19: on a loaded machine (make test's whole-system
    # tests beside it) they wait for idle time, which came after more than 30 s once here
    until(lambda: "queued again (its consumer stopped)" in app.output(), 120, "the job was not queued again")
    assert answered(app.url, path, "127.0.0.1", 120)[0] == 200


def test_slow_clients_do_not_stall_the_site(serve: Callable[..., Served]) -> None:
    """50 connections that send their headers a line at a time for 10 s: /healthz keeps answering while they do,
    at least 20 times (nginx holds them; gunicorn's two sync workers never see them; were the site held up behind
    them, its answers would come only once they stop), with the security headers."""
    app = serve()
    thread, stopped = slow_clients(app.url, 50, 10)
    during = 0  # answers that came while the slow clients were still sending
    while not stopped.is_set():
        status, headers, _ = ask(app.url, "/healthz")
        during += not stopped.is_set()
        assert status == 200 and headers["x-frame-options"] == "DENY"
        stopped.wait(0.2)
    thread.join()
    assert during >= 20, during
    with pytest.raises(urllib.error.HTTPError) as too_long:  # nginx's own error page, with the same headers
        urllib.request.urlopen(app.url + "/" + "a" * 20_000, timeout=30)
    assert too_long.value.code == 414 and too_long.value.headers["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in too_long.value.headers["Content-Security-Policy"]
    too_long.value.close()


def test_the_instance_folder_is_private(serve: Callable[..., Served], tmp_path: Path) -> None:
    """After a start that stored a result: the folder 0700, every file in it 0600."""
    app = serve()
    assert answered(app.url, "/api/devil?n=12", "127.0.0.1")[0] == 200
    folder = tmp_path / "instance"
    assert folder.stat().st_mode & 0o777 == 0o700
    loose = [p.name for p in folder.iterdir() if p.is_file() and p.stat().st_mode & 0o077]
    assert loose == []

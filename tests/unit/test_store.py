"""The result store: entries survive reopening, a damaged entry is never served but recomputed, one claim per key,
and `fetch` computes quick results inline and heavy ones through one job."""

from __future__ import annotations

import contextlib
import inspect
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from solvers.errors import LimitError
from solvers.progress import Tick
from webapp.jobs.access import Busy, JobFailed, Pending, fetch
from webapp.results.computations import Computation, Params, Wire, execute
from webapp.store import Limits, Store
from webapp.store.sqlite import SqliteStore

SECRET = [b"unit-secret"]


runs: list[int] = []


class X(Params, frozen=True):
    """The stand-in computation's one parameter."""

    x: int


def square(p: X, tick: Tick) -> int:
    """A stand-in computation that counts its runs."""
    runs.append(p.x)
    tick(1, 1)
    if p.x < 0:
        raise LimitError("too large to search here")
    return p.x**2


class Square(Computation[X, int]):
    """A stand-in computation: quick below 10."""

    name, params, stored_as = "test.square", X, int

    def run(self, p: X, tick: Tick, checkpoint: object = None) -> int:
        return square(p, tick)

    def quick(self, p: X) -> bool:
        return p.x < 10

    def title(self, p: X) -> str:
        return "a square"


SQUARE = Square()


def test_entries_survive_reopening(tmp_path: Path) -> None:
    """A result written by one store object is read by another on the same file (another worker, a restart)."""
    SqliteStore(tmp_path / "r.db", SECRET).put("k", b"value")
    assert SqliteStore(tmp_path / "r.db", SECRET).get("k") == b"value"


OPENED_TOGETHER = """
import os, sys, tempfile
from pathlib import Path
from webapp.store.sqlite import SqliteStore
failed = []
for _ in range(40):
    path = Path(tempfile.mkdtemp(dir=sys.argv[1])) / "r.db"
    go, release = os.pipe()
    kids = []
    for _ in range(8):
        if (pid := os.fork()) == 0:
            os.close(release)
            os.read(go, 1)  # every child waits here until the parent closes the pipe, then all open at once
            try:
                SqliteStore(path, [b"k"]).put(str(os.getpid()), b"v")
                os._exit(0)
            except Exception as e:
                print(repr(e), flush=True)
                os._exit(1)
        kids.append(pid)
    os.close(go)
    os.close(release)
    failed += [k for k in kids if os.waitpid(k, 0)[1] != 0]
print(len(failed), "of", 40 * 8, "opens failed")
sys.exit(1 if failed else 0)
"""


@pytest.mark.slow
def test_workers_opening_a_new_store_together_all_open_it(tmp_path: Path) -> None:
    """A fresh server's first requests reach its workers at once, each opening the new file: every one opens it
    and writes. Before the first open was taken one process at a time, processes switching a new file to WAL
    together got 'database is locked' at once: 2 to 12 of these 320 opens in each of 6 runs (40 rounds of 8 forked
    processes each, on the 2-core VM)."""
    done = subprocess.run(
        [sys.executable, "-c", OPENED_TOGETHER, str(tmp_path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]


def test_a_process_forked_while_a_lock_file_is_held_does_not_keep_it(tmp_path: Path) -> None:
    """A consumer forks its workers while another of its threads may hold the store's open lock: the child keeps no
    copy of it (which would hold the lock for as long as the child lives and leave the child waiting on itself at
    its own next open), so once the parent lets go the child takes the lock and goes on."""
    import threading

    from tests.waiting import until
    from webapp.config import file_lock

    lock, inside, release = tmp_path / "r.db.lock", threading.Event(), threading.Event()

    def hold() -> None:
        with file_lock(lock):
            inside.set()
            release.wait()

    holder = threading.Thread(target=hold)
    holder.start()
    inside.wait()
    child = os.fork()
    if child == 0:
        with file_lock(lock):  # waits for the parent's thread to let go
            os._exit(0)
    release.set()
    holder.join()

    def reaped() -> tuple[int, int] | None:
        pid, status = os.waitpid(child, os.WNOHANG)
        return (pid, status) if pid == child else None

    try:
        _, status = until(reaped, 30, "the child never took the lock")
    finally:
        with contextlib.suppress(ProcessLookupError, ChildProcessError):
            os.kill(child, signal.SIGKILL)
            os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0


def test_a_damaged_entry_is_dropped(tmp_path: Path) -> None:
    """Changed bytes, or bytes written under another secret, fail the HMAC: never served, deleted."""
    store = SqliteStore(tmp_path / "r.db", SECRET)
    store.put("k", b"value")
    with sqlite3.connect(tmp_path / "r.db") as db:
        db.execute("UPDATE results SET blob = ? WHERE key = 'k'", (b"valuf",))
    assert store.get("k") is None and store.count("k") == 0
    SqliteStore(tmp_path / "r.db", [b"another secret"]).put("k", b"value")
    assert store.get("k") is None


def test_a_stored_pickle_is_never_loaded(tmp_path: Path) -> None:
    """Results are JSON decoded against their type: an entry holding a pickle that would run a command (written by
    anyone who can write to the store, with a valid signature) is dropped as unreadable and recomputed; the
    command never runs."""
    import pickle

    marker = tmp_path / "ran"

    class Exploit:
        def __reduce__(self) -> tuple[object, tuple[str]]:
            return (os.system, (f"touch {marker}",))

    store = SqliteStore(tmp_path / "r.db", SECRET)
    key = SQUARE.key(X(4))
    store.put(key, pickle.dumps(Exploit()))
    store.put(SQUARE.key(X(5)), b'{"value":"twenty-five"}')  # JSON, but not an int
    runs.clear()
    assert fetch(store, SQUARE, X(4), lambda *a: pytest.fail("quick")) == 16
    assert fetch(store, SQUARE, X(5), lambda *a: pytest.fail("quick")) == 25
    assert runs == [4, 5] and not marker.exists()
    assert store.get(key) == b'{"value":16}'


def test_older_keys_still_read_and_new_entries_use_the_current_key(tmp_path: Path) -> None:
    """After a key rotation the store accepts entries signed with a fallback key and signs new ones with the
    current key; once the fallback is dropped, the old entries are unreadable (and recomputed)."""
    SqliteStore(tmp_path / "r.db", [b"old"]).put("a", b"1")
    rotated = SqliteStore(tmp_path / "r.db", [b"new", b"old"])
    rotated.put("b", b"2")
    assert rotated.get("a") == b"1" and rotated.get("b") == b"2"
    assert SqliteStore(tmp_path / "r.db", [b"old"]).get("b") is None  # b was signed with the new key
    dropped = SqliteStore(tmp_path / "r.db", [b"new"])
    assert dropped.get("a") is None and dropped.count("a") == 0


def test_one_claim_per_key(tmp_path: Path) -> None:
    """Only the first claim wins until the job releases it."""
    store = SqliteStore(tmp_path / "r.db", SECRET)
    assert store.claim("k") == "won" and store.claim("k") == "taken"
    assert SqliteStore(tmp_path / "r.db", SECRET).claim("k") == "taken"
    store.release("k")
    assert store.claim("k") == "won"


def test_quick_results_are_computed_inline_and_stored(tmp_path: Path) -> None:
    """A quick computation runs in the request once; later requests read the store."""
    store = SqliteStore(tmp_path / "r.db", SECRET)
    runs.clear()
    assert fetch(store, SQUARE, X(3), lambda *a: pytest.fail("no job for a quick result")) == 9
    assert fetch(store, SQUARE, X(3), lambda *a: pytest.fail("stored")) == 9 and runs == [3]


def test_heavy_results_are_one_job_and_a_damaged_one_is_recomputed(tmp_path: Path) -> None:
    """A heavy result: Pending (with progress) and one job however often it is asked for; once the job ran, the
    result; a corrupted entry goes back through a job."""
    store = SqliteStore(tmp_path / "r.db", SECRET)
    queued: list[tuple[str, dict[str, Any]]] = []

    def enqueue(name: str, params: Wire, client: str) -> None:
        queued.append((name, dict(params)))

    for _ in range(3):
        with pytest.raises(Pending) as e:
            fetch(store, SQUARE, X(12), enqueue)
        assert e.value.progress.state == "queued"
    assert queued == [("test.square", {"x": 12})]
    runs.clear()
    execute(store, SQUARE, X(12))
    assert fetch(store, SQUARE, X(12), enqueue) == 144 and runs == [12]
    key = SQUARE.key(X(12))
    with sqlite3.connect(tmp_path / "r.db") as db:
        db.execute("UPDATE results SET blob = ? WHERE key = ?", (b'{"value":145}', key))
    with pytest.raises(Pending):
        fetch(store, SQUARE, X(12), enqueue)
    assert len(queued) == 2
    execute(store, SQUARE, X(12))
    assert fetch(store, SQUARE, X(12), enqueue) == 144


def test_a_refusal_is_stored_and_answered_as_a_limit(tmp_path: Path) -> None:
    """A job that ends in 'too large to search here' stores that answer; asking again raises it, not a 500."""
    store = SqliteStore(tmp_path / "r.db", SECRET)
    execute(store, SQUARE, X(-20))
    runs.clear()
    with pytest.raises(LimitError, match="too large"):
        fetch(store, SQUARE, X(-20), lambda *a: pytest.fail("stored"))
    assert runs == []


def test_a_job_past_its_memory_budget_is_refused_clearly(tmp_path: Path) -> None:
    """In a process under the job memory budget (COIN_PUZZLES_JOB_MEMORY_MB), a computation that needs more ends
    with a stored 'too large' refusal instead of taking the machine's memory."""
    code = (
        "import numpy as np\n"
        "from webapp.jobs.queues import limit_memory\n"
        "from webapp.results.computations import Computation, Failed, Params, run\n"
        "limit_memory('visitors')()\n"
        "class Big(Computation):\n"
        "    name, params, stored_as = 'test.big', Params, str\n"
        "    run = lambda self, p, t, c=None: np.ones(2 ** 31, dtype=np.uint8)\n"
        "    quick = lambda self, p: False\n"
        "    title = lambda self, p: 'big'\n"
        "big = Big()\n"
        "out = run(big, Params(), lambda d, t: None)\n"
        "print(type(out).__name__, out.message if isinstance(out, Failed) else '')\n"
    )
    env = {**os.environ, "COIN_PUZZLES_JOB_MEMORY_MB": "1024", "COIN_PUZZLES_INSTANCE": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert done.stdout.startswith("Failed too large to compute here"), done.stdout + done.stderr


def test_a_visitor_moves_a_precomputation_job_ahead(tmp_path: Path) -> None:
    """A result the background precomputation has queued is queued again on the visitors' queue when someone asks
    for it, once however often they ask."""
    from webapp.results.computations import PRECOMPUTE_NOTE

    store = SqliteStore(tmp_path / "r.db", SECRET)
    key = SQUARE.key(X(15))
    assert store.claim(key) == "won"
    store.report(key, "queued", 0, 0, PRECOMPUTE_NOTE)
    queued: list[str] = []
    for _ in range(3):
        with pytest.raises(Pending):
            fetch(store, SQUARE, X(15), lambda name, params, client: queued.append(name))
    assert queued == ["test.square"]


def test_precomputation_jobs_count_against_the_visitor_who_moves_them(tmp_path: Path) -> None:
    """A visitor moving precomputation jobs ahead is counted as for jobs of their own: past their limit, 429 and
    nothing queued (the bypass: 55 such results asked by one client were all queued, none counted)."""
    from webapp.results.computations import PRECOMPUTE_NOTE

    store = SqliteStore(tmp_path / "r.db", SECRET)
    for x in range(30, 36):
        assert store.claim(SQUARE.key(X(x))) == "won"
        store.report(SQUARE.key(X(x)), "queued", 0, 0, PRECOMPUTE_NOTE)
    queued: list[tuple[str, str]] = []
    limits = Limits(per_client=2, total=3)
    for x in (30, 31):
        with pytest.raises(Pending):
            fetch(store, SQUARE, X(x), lambda name, params, client: queued.append((name, client)), "1.1.1.1", limits)
    with pytest.raises(Busy) as busy:
        fetch(store, SQUARE, X(32), lambda name, params, client: queued.append((name, client)), "1.1.1.1", limits)
    assert busy.value.status == 429
    with pytest.raises(Pending):
        fetch(store, SQUARE, X(33), lambda name, params, client: queued.append((name, client)), "2.2.2.2", limits)
    with pytest.raises(Busy) as full:
        fetch(store, SQUARE, X(34), lambda name, params, client: queued.append((name, client)), "3.3.3.3", limits)
    assert full.value.status == 503
    assert queued == [("test.square", "1.1.1.1")] * 2 + [("test.square", "2.2.2.2")]
    assert store.client_jobs("1.1.1.1") == [SQUARE.key(X(30)), SQUARE.key(X(31))]


def test_the_precomputation_has_a_queue_of_its_own(tmp_path: Path) -> None:
    """Precomputation jobs go to their own queue (own consumer), so hours of them never hold a visitor's job back;
    a visitor asking for one of them while it waits queues it on the visitors' queue, which then has it too."""
    from webapp.jobs.queues import Queues

    store = SqliteStore(tmp_path / "r.db", SECRET)
    queues = Queues(None, tmp_path, store=store.address)  # SQLite queues in this folder, no consumer
    assert queues.enqueue_missing(store, [(SQUARE, X(12)), (SQUARE, X(13))]) == 2
    assert (queues.precompute.pending_count(), queues.visitors.pending_count()) == (2, 0)
    with pytest.raises(Pending):
        fetch(store, SQUARE, X(12), queues.enqueue)
    assert (queues.precompute.pending_count(), queues.visitors.pending_count()) == (2, 1)
    assert queues.enqueue_missing(store, [(SQUARE, X(12))]) == 0  # claimed: not queued twice


def check_limits(store: Store) -> None:
    """The job limits on any store: per client, in all, duplicates never counted twice, released jobs freed."""
    limits = Limits(per_client=2, total=3)
    assert [store.claim(f"a{i}", "10.0.0.1", limits) for i in range(3)] == ["won", "won", "client-full"]
    assert store.claim("a0", "10.0.0.9", limits) == "taken"  # the same result asked by another: one job
    assert store.claim("b0", "10.0.0.2", limits) == "won"
    assert store.claim("b1", "10.0.0.2", limits) == "queue-full"
    assert store.claim("p", "", limits) == "won"  # the precomputation is not a visitor: never refused
    store.release("a0")
    assert store.claim("b1", "10.0.0.2", limits) == "won"
    assert store.start("a1", "10.0.0.1") and store.start("a1", "10.0.0.1")  # started (again, on a retry)
    assert not store.start("a2", "10.0.0.1") and store.start("b0", "10.0.0.2")  # one running job per visitor
    store.fail("a1", "its process was stopped")
    progress = store.progress("a1")
    assert progress is not None and progress.state == "failed" and progress.note == "its process was stopped"
    assert store.claim("a1", "10.0.0.1", limits) == "taken"  # shown as failed a while before it is queued again
    assert store.claim("a2", "10.0.0.1", limits) == "won" and store.start("a2", "10.0.0.1")  # a1 freed its place
    assert store.claim("c0", "10.0.0.3", limits) == "queue-full"


def check_adopt(store: Store) -> None:
    """On any store: a job the precomputation queued becomes a visitor's, counted like a claim of their own (past
    the limit: refused, nothing changed); a job someone else adopted, or one not queued by the precomputation,
    is 'taken'."""
    from webapp.results.computations import PRECOMPUTE_NOTE

    limits = Limits(per_client=1, total=5)
    for key in ("p0", "p1", "q0"):
        assert store.claim(key) == "won"
        store.report(key, "queued", 0, 0, PRECOMPUTE_NOTE)
    store.report("q0", "queued", 0, 0, "")  # a visitor's job already
    assert store.adopt("p0", "10.1.0.1", limits, PRECOMPUTE_NOTE) == "won"
    assert store.adopt("p0", "10.1.0.2", limits, PRECOMPUTE_NOTE) == "taken"  # adopted once
    assert store.adopt("p1", "10.1.0.1", limits, PRECOMPUTE_NOTE) == "client-full"
    assert store.adopt("q0", "10.1.0.2", limits, PRECOMPUTE_NOTE) == "taken"
    assert store.client_jobs("10.1.0.1") == ["p0"]
    progress = store.progress("p1")
    assert progress is not None and progress.note == PRECOMPUTE_NOTE  # the refused adoption changed nothing


def test_job_limits_sqlite(tmp_path: Path) -> None:
    """The SQLite store keeps the limits (one transaction per claim)."""
    check_limits(SqliteStore(tmp_path / "r.db", SECRET))
    check_adopt(SqliteStore(tmp_path / "a.db", SECRET))


def test_a_running_job_without_news_is_claimed_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A running job's claim lapses after COIN_PUZZLES_JOB_STALE_SECONDS without a report or heartbeat (its
    worker died); a queued one keeps its claim (it may wait behind others)."""
    monkeypatch.setenv("COIN_PUZZLES_JOB_STALE_SECONDS", "1")
    store = SqliteStore(tmp_path / "r.db", SECRET)
    assert store.claim("r") == "won" and store.claim("q") == "won"
    store.report("r", "running", 0, 0, "")
    with sqlite3.connect(tmp_path / "r.db") as db:
        db.execute("UPDATE jobs SET updated = updated - 2")
    assert store.claim("r") == "won" and store.claim("q") == "taken"


def test_fetch_answers_busy_and_failed(tmp_path: Path) -> None:
    """Past a client's limit fetch raises Busy 429 (the queue's, 503) and queues nothing; a job that failed a
    moment ago raises JobFailed with its note instead of being queued again at once."""
    store = SqliteStore(tmp_path / "r.db", SECRET)
    queued: list[Params] = []

    def enqueue(name: str, params: Wire, client: str) -> None:
        queued.append(params)

    limits = Limits(per_client=1, total=2)
    with pytest.raises(Pending):
        fetch(store, SQUARE, X(20), enqueue, "1.1.1.1", limits)
    with pytest.raises(Busy) as busy:
        fetch(store, SQUARE, X(21), enqueue, "1.1.1.1", limits)
    assert busy.value.status == 429 and "already have 1 computation queued" in busy.value.message
    with pytest.raises(Pending):
        fetch(store, SQUARE, X(22), enqueue, "2.2.2.2", limits)
    with pytest.raises(Busy) as full:
        fetch(store, SQUARE, X(23), enqueue, "3.3.3.3", limits)
    assert full.value.status == 503 and "queue is full" in full.value.message
    assert [p["x"] for p in queued] == [20, 22]
    store.fail(SQUARE.key(X(20)), "it ran past the limit of 60 minutes")
    with pytest.raises(JobFailed, match="limit of 60 minutes"):
        fetch(store, SQUARE, X(20), enqueue, "1.1.1.1", limits)
    assert len(queued) == 2


def test_every_backend_is_a_store_that_checks_entries_in_one_place() -> None:
    """The backends are subclasses of `Store`, which reads and checks an entry's signature once for both: neither
    defines `get` (or signs by itself) again."""
    from webapp.store.redis import RedisStore

    for backend in (SqliteStore, RedisStore):
        assert issubclass(backend, Store) and "get" not in vars(backend), backend
        assert "Signer(" not in inspect.getsource(backend), backend

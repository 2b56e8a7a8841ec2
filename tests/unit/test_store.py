"""The result store: entries survive reopening, a damaged entry is never served but recomputed, one claim per key,
and `fetch` computes quick results inline and heavy ones through one job."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from solvers.errors import LimitError
from solvers.progress import Tick
from webapp.results.access import Busy, JobFailed, Pending, fetch
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


SQUARE = Computation("test.square", X, square, lambda p: p.x < 10, lambda p: "a square", int)


def test_entries_survive_reopening(tmp_path: Path) -> None:
    """A result written by one store object is read by another on the same file (another worker, a restart)."""
    SqliteStore(tmp_path / "r.db", SECRET).put("k", b"value")
    assert SqliteStore(tmp_path / "r.db", SECRET).get("k") == b"value"


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
        "from webapp.results.jobs import limit_memory\n"
        "from webapp.results.computations import Computation, Failed, Params, run\n"
        "limit_memory('visitors')()\n"
        "grow = lambda p, t: np.ones(2 ** 31, dtype=np.uint8)\n"
        "big = Computation('test.big', Params, grow, lambda p: False, str, str)\n"
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
    from webapp.results.jobs import Queues

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


def test_the_queue_keeps_tasks_as_json(tmp_path: Path) -> None:
    """Huey's queue holds JSON: a task goes in and comes out with its arguments (a delayed retry too); a pickle
    put in the queue by anyone who can write to it is refused, never run."""
    import pickle

    from huey import SqliteHuey

    from webapp.results.jobs import JsonSerializer

    queue = SqliteHuey("t", filename=str(tmp_path / "q.db"), results=False, serializer=JsonSerializer())
    task = queue.task(name="compute")(lambda name, params, client: None)
    task("devil.solve", {"n": 15, "goal": "all-heads"}, "10.0.0.1")
    raw = queue.storage.dequeue()
    assert raw.startswith(b'T["') and b"devil.solve" in raw and b"pickle" not in raw
    message = queue.serializer.deserialize(raw)
    assert list(message.args) == ["devil.solve", {"n": 15, "goal": "all-heads"}, "10.0.0.1"]  # no path
    marker = tmp_path / "ran"

    class Exploit:
        def __reduce__(self) -> tuple[object, tuple[str]]:
            return (os.system, (f"touch {marker}",))

    with pytest.raises(ValueError):
        queue.serializer.deserialize(pickle.dumps(Exploit()))
    assert not marker.exists()


def _refuse_odd(p: X) -> None:
    if p.x % 2:
        raise LimitError("odd numbers are refused")


HINT = Computation(
    "test.hint", X, square, lambda p: False, lambda p: "a hint", int, check=_refuse_odd, lane=lambda p: "quick"
)


def test_a_quick_job_is_never_locked_out_by_long_ones(tmp_path: Path) -> None:
    """A visitor at their limit of long jobs still gets a hint queued (the quick lane is counted apart), the 429
    names what they have waiting, and a request the computation refuses is refused before anything is queued."""
    store = SqliteStore(tmp_path / "r.db", SECRET)
    queued: list[tuple[str, str]] = []

    def enqueue(name: str, params: Wire, client: str) -> None:
        queued.append((name, client))

    limits = Limits(per_client=1, total=10)
    with pytest.raises(Pending):
        fetch(store, SQUARE, X(20), enqueue, "1.1.1.1", limits)
    with pytest.raises(Busy) as busy:
        fetch(store, SQUARE, X(21), enqueue, "1.1.1.1", limits)
    assert "(test.square (queued))" in busy.value.message  # what the visitor has waiting
    with pytest.raises(Pending) as pending:
        fetch(store, HINT, X(40), enqueue, "1.1.1.1", limits)
    assert pending.value.lane == "quick"
    assert queued == [("test.square", "1.1.1.1"), ("test.hint", "1.1.1.1 quick")]
    with pytest.raises(LimitError, match="odd numbers"):
        fetch(store, HINT, X(41), enqueue, "1.1.1.1", limits)
    assert len(queued) == 2 and store.progress(HINT.key(X(41))) is None


def test_a_task_cannot_name_a_store_or_a_foreign_computation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A task carries no store path (the consumer writes to its own store), and a task in the old shape or with a
    name the app does not know is dropped with one line, never run and never a traceback."""
    from webapp.results.jobs import compute

    store = tmp_path / "elsewhere.db"
    compute("sqlite:" + str(tmp_path / "r.db"), f"sqlite:{store}", {"n": 3}, "", "visitors", True)  # type: ignore[arg-type]
    compute("sqlite:" + str(tmp_path / "r.db"), "devil.solve", {"n": "x"}, "", "visitors", True)
    assert not store.exists() and capsys.readouterr().err.count("a task not of this app was dropped") == 2


def test_a_forged_task_of_any_shape_is_dropped_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Tasks written to the queue by someone else (a shared Redis) with arguments of another shape: each dropped
    with the one line, never run, never a traceback (huey would log one for a call its task cannot take)."""
    from webapp.results.jobs import Queues

    queues = Queues(None, tmp_path, immediate=True, store="sqlite:" + str(tmp_path / "r.db"))
    task = queues._tasks["visitors"]
    for args, kwargs in [
        ((), {}),
        (("devil.solve",), {}),
        (("devil.solve", "n=3"), {}),
        (("a", {}, 5), {}),
        (("devil.solve", {"n": 3}, "", "extra"), {}),
        (("devil.solve", {"n": 3}), {"client": "x"}),
    ]:
        task(*args, **kwargs)
    err = capsys.readouterr().err
    assert err.count("a task not of this app was dropped") == 6 and "Traceback" not in err


def test_a_malformed_queue_entry_is_dropped_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Entries written into the queue's own file by someone else than this app (not JSON, JSON of another shape, a
    task name no task has): the consumer's read drops each with one line and gets nothing to run (huey logged a
    traceback for each), and the page's look at the queue skips them without a word; a real task behind them is
    still read."""
    import sqlite3 as sql

    from webapp.results.jobs import QUEUE_FILES, Queues

    queues = Queues(None, tmp_path, store="sqlite:" + str(tmp_path / "r.db"))
    huey = queues.visitors
    with sql.connect(tmp_path / QUEUE_FILES["visitors"]) as db:
        unknown = b'T["id","nobody.task",null,0,0,null,[],{},null,null,null,null,null]'
        for junk in (b"\x80\x04pickle", b"T[1,2]", unknown):
            db.execute("INSERT INTO task (queue, data, priority) VALUES (?, ?, 0)", (huey.name, junk))
    queues.enqueue("devil.solve", {"n": 3, "goal": "all-heads", "reflections": False, "states": 2}, "10.0.0.1")
    assert queues.place("visitors", "nothing") is None
    assert [huey.dequeue() for _ in range(3)] == [None, None, None]
    task = huey.dequeue()
    assert task is not None and task.args[0] == "devil.solve"
    with sql.connect(tmp_path / QUEUE_FILES["visitors"]) as db:  # and one among the scheduled (re-queued) tasks
        db.execute("INSERT INTO schedule (queue, data, timestamp) VALUES (?, ?, 0)", (huey.name, b"T[1,2]"))
    assert huey.read_schedule() == []
    err = capsys.readouterr().err
    assert err.count("a malformed queue entry was dropped") == 3 and "Traceback" not in err
    assert err.count("a malformed scheduled entry was dropped") == 1


def test_a_job_whose_consumer_died_is_queued_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A running job whose supervisor stopped reporting (its consumer killed) is queued again by the reviver, on the
    lane of the client that asked for it, once however many consumers revive at the same time; a
    live job is left alone."""
    from webapp.results.catalogue import DEVIL, DevilParams
    from webapp.results.jobs import Queues

    monkeypatch.setenv("COIN_PUZZLES_JOB_STALE_SECONDS", "1")
    store = SqliteStore(tmp_path / "r.db", SECRET)
    queues = Queues(None, tmp_path, store=store.address)
    dead, alive = DEVIL.key(DevilParams(15, "all-heads", False, 2)), DEVIL.key(DevilParams(14, "all-heads", False, 2))
    for key in (dead, alive):
        assert store.claim(key, "10.0.0.1") == "won" and store.start(key, "")
    with sqlite3.connect(tmp_path / "r.db") as db:  # the dead job's last report, long ago
        db.execute("UPDATE jobs SET updated = updated - 60 WHERE key = ?", (dead,))
    assert queues.revive() == 1 and queues.revive() == 0
    assert queues.visitors.pending_count() == 1 and queues.precompute.pending_count() == 0
    progress = store.progress(dead)
    assert progress is not None and progress.state == "queued"
    assert store.client_jobs("10.0.0.1") == [alive, dead]  # still that visitor's (their limit counts it)


def test_a_quick_lane_job_is_awaited_a_moment_and_no_search_runs_in_the_request(tmp_path: Path) -> None:
    """A quick lane's job that stores its result within QUICK_WAIT_SECONDS is answered in the request that queued it
    (computed by the job, not the request); one that takes longer shows its progress (Pending); a visitors' lane
    job is never awaited."""
    import threading
    from threading import Event

    from webapp.results.access import QUICK_WAIT_SECONDS
    from webapp.results.computations import write

    store = SqliteStore(tmp_path / "r.db", SECRET)
    computed_here: list[int] = []

    def run(p: X, tick: object) -> int:
        computed_here.append(p.x)
        return p.x * p.x

    for lane in ("quick", "visitors"):
        c = Computation(f"test.{lane}", X, run, lambda p: False, lambda p: "a sq", int, lane=lambda p, lane=lane: lane)
        done = threading.Event()

        def enqueue(
            name: str, params: Wire, client: str, c: Computation[X, int] = c, done: Event = done, lane: str = lane
        ) -> None:
            x = X(int(params["x"]))
            # a job of a moment (the visitors' lane's too late for a request that never waits), or one past the wait
            later = 0.0 if x.x < 100 and lane == "quick" else QUICK_WAIT_SECONDS * 3
            threading.Timer(later, lambda: (write(store, c, c.key(x), x.x * x.x), done.set())).start()

        if lane == "quick":
            assert fetch(store, c, X(50), enqueue, "1.1.1.1") == 2500
        else:
            with pytest.raises(Pending):
                fetch(store, c, X(50), enqueue, "1.1.1.1")
        done.wait(5)
        done.clear()
        with pytest.raises(Pending):
            fetch(store, c, X(500), enqueue, "1.1.1.1")
        done.wait(5)
    assert computed_here == []  # every result came from a job

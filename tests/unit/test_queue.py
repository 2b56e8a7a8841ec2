"""The job queue behind the store: tasks kept as JSON, a quick lane no long job locks out, forged or malformed
tasks dropped with one line, a job whose consumer died queued again, and a quick job awaited a moment with no
search in the request."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from solvers.errors import LimitError
from solvers.progress import Tick
from tests.unit.test_store import SECRET, SQUARE, Square, X
from webapp.jobs.access import Busy, Pending, fetch
from webapp.results.computations import Computation, Wire
from webapp.store import Limits
from webapp.store.sqlite import SqliteStore


def test_the_queue_keeps_tasks_as_json(tmp_path: Path) -> None:
    """Huey's queue holds JSON: a task goes in and comes out with its arguments (a delayed retry too); a pickle
    put in the queue by anyone who can write to it is refused, never run."""
    import pickle

    from huey import SqliteHuey

    from webapp.jobs.queues import JsonSerializer

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


class Hint(Square):
    """A stand-in for a hint: never quick, odd numbers refused before a job is queued, in the quick lane."""

    name = "test.hint"

    def quick(self, p: X) -> bool:
        return False

    def check(self, p: X) -> None:
        _refuse_odd(p)

    def lane(self, p: X) -> str:
        return "quick"


HINT = Hint()


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
    from webapp.jobs.queues import compute

    store = tmp_path / "elsewhere.db"
    compute("sqlite:" + str(tmp_path / "r.db"), f"sqlite:{store}", {"n": 3}, "", "visitors", True)  # type: ignore[arg-type]
    compute("sqlite:" + str(tmp_path / "r.db"), "devil.solve", {"n": "x"}, "", "visitors", True)
    assert not store.exists() and capsys.readouterr().err.count("a task not of this app was dropped") == 2


def test_a_forged_task_of_any_shape_is_dropped_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Tasks written to the queue by someone else (a shared Redis) with arguments of another shape: each dropped
    with the one line, never run, never a traceback (huey would log one for a call its task cannot take)."""
    from webapp.jobs.queues import Queues

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

    from webapp.jobs.queues import QUEUE_FILES, Queues

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
    from webapp.jobs.queues import Queues
    from webapp.results.catalogue import DEVIL, DevilParams

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

    from webapp.jobs.access import QUICK_WAIT_SECONDS
    from webapp.results.computations import write

    store = SqliteStore(tmp_path / "r.db", SECRET)
    computed_here: list[int] = []

    class InLane(Square):
        """A square in the lane its name says, never quick."""

        def run(self, p: X, tick: Tick, checkpoint: object = None) -> int:
            computed_here.append(p.x)
            return p.x * p.x

        def quick(self, p: X) -> bool:
            return False

        def lane(self, p: X) -> str:
            return self.name.removeprefix("test.")

    for lane in ("quick", "visitors"):
        c = type(f"In{lane}", (InLane,), {"name": f"test.{lane}"})()
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


def test_a_failed_install_stops_the_precomputations_consumer_with_a_failure(tmp_path: Path) -> None:
    """The precomputation's consumer stores what is shipped from a thread of its own; when that fails, the consumer
    stops whole (its workers too, as on SIGTERM), says so with the traceback, and ends with a failure (`failed`, the
    worker command's exit status 1), never half alive. The traceback is whole however slowly it is written (here a
    stream that takes 20 ms a write): it was once written after the consumer was told to stop, and cut off when the
    interpreter ended first."""
    code = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "class Slow:\n"
        "    def __init__(self, s): self.s = s\n"
        "    def write(self, t): time.sleep(0.02); return self.s.write(t)\n"
        "    def flush(self): self.s.flush()\n"
        "    def __getattr__(self, name): return getattr(self.s, name)\n"
        "sys.stderr = Slow(sys.stderr)\n"
        "from webapp.jobs.queues import Queues\n"
        "c = Queues(None, Path(sys.argv[1])).consumer('precompute', 1)\n"
        "def install():\n"
        "    raise RuntimeError('the install failed')\n"
        "c.then = install\n"
        "c.run()\n"
        "sys.exit(3 if c.failed else 0)\n"
    )
    env = {**os.environ, "COIN_PUZZLES_INSTANCE": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path)], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 3, done.stdout + done.stderr
    assert "RuntimeError: the install failed" in done.stderr

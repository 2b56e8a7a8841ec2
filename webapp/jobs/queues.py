"""Background jobs on Huey: SQLite storage in the instance folder by default, Redis when COIN_PUZZLES_REDIS_URL
is set (then every host shares the queues). A consumer runs `compute`, which finds the computation by name.

Three queues, each with its own consumer (`coin-puzzles worker --queue visitors|quick|precompute`): visitors' jobs;
the quick lane, for the work a visitor waits on with the page open (a hint, a guess's worth: seconds each, a
computation whose `lane` is "quick"), so that it never waits behind a visitor's long proof; and the precomputation
of everything the site links to, so that a precomputation of hours never holds a visitor's job back. A visitor
asking for a result still queued for precomputation queues it again on the visitors' queue (webapp/jobs/access.py).

Huey was chosen over Celery and RQ: it is maintained, small, has no broker to run for the embedded default (its
SQLite storage), and the same code runs on Redis; it has an in-process immediate mode for the Flask test client.
"""

from __future__ import annotations

import resource
import signal
import sys
import threading
import traceback
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

import msgspec
from huey import Huey, PriorityRedisHuey, SqliteHuey
from huey.consumer import Consumer
from huey.exceptions import HueyException, RetryTask
from huey.registry import Message
from huey.serializer import Serializer

from webapp import config
from webapp.jobs.precompute import store_budget
from webapp.jobs.supervisor import supervise
from webapp.results.catalogue import REGISTRY, from_key
from webapp.results.computations import PRECOMPUTE_NOTE, Computation, Params, execute
from webapp.store import Store, open_store

QUEUE_FILES = {"visitors": "queue.db", "quick": "quick.db", "precompute": "precompute.db"}  # SQLite files in the
# instance folder
QUICK_MEMORY_MB = 3072  # a quick job's memory budget (a hint's search): the lane's process beside the others


class _Task(msgspec.Struct, array_like=True, forbid_unknown_fields=True):
    """A queued task as data: Huey's message fields, its arguments plain JSON, no callbacks or chords."""

    id: str
    name: str
    eta: datetime | None = None
    retries: int = 0
    retry_delay: float = 0
    priority: int | None = None
    args: list[Any] = msgspec.field(default_factory=list)
    kwargs: dict[str, Any] | None = None
    on_complete: None = None
    on_error: None = None
    expires: float | None = None
    expires_resolved: datetime | None = None
    timeout: float | None = None
    chord_config: None = None
    retry_backoff: float | None = None


class JsonSerializer(Serializer):
    """Huey's queue as JSON instead of pickles: a writable queue (a shared Redis) can hand a consumer only data
    (a task name it knows and plain arguments), never code to run. Anything else Huey keeps (a result, a lock)
    is plain JSON as well."""

    def _serialize(self, data: object) -> bytes:
        """A task message as a JSON array of its fields; other data as JSON."""
        if isinstance(data, Message):
            return b"T" + msgspec.json.encode(_Task(*data))
        return b"D" + msgspec.json.encode(data)

    def _deserialize(self, data: bytes) -> object:
        """The message or data back (msgspec.ValidationError / DecodeError for anything else: never unpickled)."""
        if data[:1] == b"T":
            task = msgspec.json.decode(data[1:], type=_Task)
            return Message(*(getattr(task, f) for f in task.__struct_fields__))
        if data[:1] == b"D":
            return msgspec.json.decode(data[1:])
        raise ValueError("not a coin-puzzles queue entry")


class Dropping(Huey):
    """A queue whose malformed entries (not JSON, not a task of this app, a name no task has: written by someone
    else than this app to a shared Redis or the queue's file) are dropped with one line instead of a traceback."""

    def deserialize_task(self, data: bytes) -> Any:
        """The task, or None (nothing to run) for an entry that is none of this app's (a look at the queue skips
        it; the consumer's read drops it, `dequeue`)."""
        try:
            return super().deserialize_task(data)
        except (ValueError, TypeError, HueyException, msgspec.MsgspecError):
            return None

    def dequeue(self) -> Any:
        """The next task; a malformed entry is taken off the queue with one line, and nothing runs."""
        data = self.storage.dequeue()
        task = None if data is None else self.deserialize_task(data)
        if data is not None and task is None:
            print("coin-puzzles worker: a malformed queue entry was dropped", file=sys.stderr, flush=True)
        return task

    def read_schedule(self, timestamp: Any = None) -> list[Any]:
        """The scheduled tasks now due (a re-queued visitor's job); a malformed entry among them dropped with one
        line (Huey logged a traceback for queueing None)."""
        tasks = super().read_schedule(timestamp)
        for _ in range(tasks.count(None)):
            print("coin-puzzles worker: a malformed scheduled entry was dropped", file=sys.stderr, flush=True)
        return [t for t in tasks if t is not None]


class SqliteQueue(Dropping, SqliteHuey):
    """The queue in a SQLite file (the embedded default)."""


class RedisQueue(Dropping, PriorityRedisHuey):
    """The queue on Redis (several hosts)."""


def make_huey(queue: str, redis_url: str | None, folder: Path) -> Huey:
    """A queue: Redis when a URL is given, else a SQLite file in the instance folder; tasks kept as JSON."""
    name = "coin-puzzles" if queue == "visitors" else f"coin-puzzles-{queue}"
    if redis_url:  # the type the single queue had: a deployed Redis keeps its key
        return RedisQueue(name, url=redis_url, serializer=JsonSerializer())
    folder.mkdir(parents=True, exist_ok=True)
    return SqliteQueue(name, filename=str(folder / QUEUE_FILES[queue]), results=False, serializer=JsonSerializer())


def limit_memory(queue: str) -> Callable[[], None]:
    """Each job process of a queue gets its memory budget (the configured one; the quick lane's at most
    QUICK_MEMORY_MB); a job past it fails with a clear message. The budget is the soft limit, which a job that
    hands its proof to a cluster lifts (`cluster.RayEngine`: the cluster's object store, mapped into it, is
    shared memory of its own size)."""

    def limit() -> None:
        mb = config.job_memory_mb()
        if queue == "quick":
            mb = min(mb, QUICK_MEMORY_MB)
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        resource.setrlimit(resource.RLIMIT_AS, (mb * 1024 * 1024, hard))

    return limit


DEFER_SECONDS = 2  # a visitor's further jobs wait (re-queued this much later) while one of theirs runs


def compute(address: str, name: str, params: dict[str, Any], client: str, queue: str, immediate: bool) -> None:
    """Compute one result into the store at address (the consumer's own store, never one a task names): in a
    watched child process (supervisor), or in this process when the queue is immediate (the Flask test client's).
    A visitor's job waits (re-queued a little later) while another of the same visitor's runs."""
    c = REGISTRY.get(name) if isinstance(name, str) else None
    try:
        p = c.parse(params) if c is not None else None
    except (msgspec.ValidationError, TypeError):
        p = None
    if c is None or p is None:  # written by someone else than this app (a shared Redis): refused, one line
        print(f"coin-puzzles worker: a task not of this app was dropped ({str(name)[:60]!r})", file=sys.stderr)
        return
    keys = config.keys(config.instance_path()).encoded()
    if immediate:
        execute(open_store(address, keys, store_budget()), c, p)
        return
    if not open_store(address, keys).start(c.key(p), client):
        raise RetryTask(delay=DEFER_SECONDS)
    supervise(address, keys, c, p, config.job_seconds(queue))


REVIVE_SECONDS = 60  # how often stale jobs are looked for (COIN_PUZZLES_REVIVE_SECONDS; the system tests: 2)


class Reviving(Consumer):
    """The precomputation's consumer, which also queues again the jobs whose consumer died (their claims went stale),
    every COIN_PUZZLES_REVIVE_SECONDS: at once, not on the next visitor's request, counted against no limit. It
    looks from a thread of its own in the consumer's main process, not as a task on its queue: a task waited
    behind the whole precomputation (49 looks queued and none run after 49 minutes)."""

    revive: Callable[[], int]
    then: Callable[[], None] = staticmethod(lambda: None)  # what the consumer does once it serves (the install)
    failed = False  # `then` failed: the consumer stopped, and its command ends with a failure's exit status

    def start(self) -> None:
        """Start the workers (forked first: the threads are not copied into them), then the reviver's thread, then
        `then` in a thread of its own (storing what is shipped takes seconds: the reviver looks meanwhile, and the
        consumer's main loop stays free to stop at once when asked)."""
        super().start()
        seconds = max(1, config.setting("COIN_PUZZLES_REVIVE_SECONDS", REVIVE_SECONDS))
        threading.Thread(target=self._look, args=(seconds,), name="reviver", daemon=True).start()
        threading.Thread(target=self._then, name="install", daemon=True).start()

    def _then(self) -> None:
        """`then`; if it fails, the consumer stops whole (its workers too) as on SIGTERM, and serve sees it end:
        never half alive."""
        try:
            self.then()
        except BaseException:
            # the traceback is written before the main loop is told to stop: told first, the interpreter could end
            # while this daemon thread was still writing it (CI saw it cut off after its first line)
            traceback.print_exc()
            sys.stderr.flush()
            self.failed = True
            self._restart, self._graceful, self._signum = False, False, signal.SIGTERM  # the main loop stops

    def _look(self, seconds: int) -> None:
        """Every few seconds until the consumer stops: revive; a failed look (the store away a moment) is one line."""
        while not self.stop_flag.wait(seconds):
            try:
                self.revive()
            except Exception as e:  # noqa: BLE001 - the next look tries again; the consumer must not die of it
                print(f"coin-puzzles worker: looking for stopped jobs failed ({type(e).__name__})", file=sys.stderr)


class Queues:
    """The three queues, visitors', the quick lane and the precomputation's, each with the one task that computes a
    result by name:
    built by the app (`webapp.jobs.access.init_app`, from its config) and by each consumer (`coin-puzzles worker`)."""

    def __init__(self, redis_url: str | None, folder: Path, immediate: bool = False, store: str = "") -> None:
        """The queues (Redis when a URL is given, else SQLite files in folder); store: where jobs keep their
        results (the app's RESULT_STORE; by default the configured store). A task carries its computation's name,
        parameters and client only: whoever can write to the queue (a shared Redis) cannot choose where a
        consumer writes."""
        self.store_address = store or config.store_address(folder)
        self.by_name: dict[str, Huey] = {}
        self._tasks: dict[str, Callable[..., object]] = {}
        for queue in QUEUE_FILES:
            huey = make_huey(queue, redis_url, folder)
            huey.immediate = immediate
            huey.on_startup()(limit_memory(queue))
            self.by_name[queue] = huey
            self._tasks[queue] = huey.task(name="compute")(self._job(queue, huey))

    def _job(self, queue: str, huey: Huey) -> Callable[..., None]:
        """The task of one queue (its client is ignored on the precomputation's). It takes whatever arguments a
        task carries: one this app did not write (another shape, on a shared Redis) is dropped with one line, not
        a traceback."""

        def job(*args: object, **kwargs: object) -> None:
            shaped = len(args) in (2, 3) and not kwargs and isinstance(args[1], dict)
            client = args[2] if len(args) == 3 else ""
            if not shaped or not isinstance(client, str):
                print(f"coin-puzzles worker: a task not of this app was dropped ({str(args)[:60]!r})", file=sys.stderr)
                return
            name, params = args[0], args[1]
            client = "" if queue == "precompute" else client
            compute(self.store_address, name, params, client, queue, huey.immediate)  # type: ignore[arg-type]

        return job

    def consumer(self, queue: str, workers: int) -> Consumer:
        """A queue's consumer with process workers; the precomputation's also revives (`Reviving`)."""
        kind = Reviving if queue == "precompute" else Consumer
        consumer = kind(self.by_name[queue], workers=workers, worker_type="process")
        consumer.revive = self.revive
        return consumer

    def revive(self) -> int:
        """Queue again every job whose supervisor died (a consumer killed, a host lost), on its lane, for the client
        that asked for it (the precomputation's on its own queue); how many."""
        store = open_store(self.store_address, config.keys(config.instance_path()).encoded())
        revived = 0
        for key, client in store.stale_jobs():
            found = from_key(key)
            if found is None:
                store.release(key)  # no computation of this version: nothing to run again
                continue
            if not store.revive(key):
                continue
            c, params = found
            lane = "precompute" if not client else "quick" if c.lane(params) == "quick" else "visitors"
            self._tasks[lane](c.name, c.wire(params), client)
            print(f"coin-puzzles worker: {key} queued again (its consumer stopped)", file=sys.stderr, flush=True)
            revived += 1
        return revived

    def place(self, lane: str, key: str) -> int | None:
        """Where a job for key waits on a lane's queue (1: next), or None when it is not waiting there."""
        for n, task in enumerate((t for t in self.by_name[lane].pending() if t is not None), 1):
            try:
                name, params, *_ = task.args
                c = REGISTRY[name]
                if c.key(c.parse(params)) == key:
                    return n
            except (KeyError, ValueError, TypeError, msgspec.ValidationError):
                continue
        return None

    @property
    def visitors(self) -> Huey:
        """The visitors' queue."""
        return self.by_name["visitors"]

    @property
    def precompute(self) -> Huey:
        """The precomputation's queue."""
        return self.by_name["precompute"]

    def enqueue(self, name: str, params: Mapping[str, Any], client: str = "") -> None:
        """Put a visitor's job on its computation's lane: the quick lane or the visitors' queue."""
        c = REGISTRY.get(name)  # a name the catalogue does not list: the visitors' queue (whose consumer refuses it)
        lane = "quick" if c is not None and c.lane(c.parse(params)) == "quick" else "visitors"
        self._tasks[lane](name, dict(params), client)

    def enqueue_missing(self, store: Store, items: Iterable[tuple[Computation[Any, Any], Params]]) -> int:
        """Queue a precomputation job for every item not stored yet and not already claimed; how many were
        queued."""
        queued = 0
        for c, params in items:
            key = c.key(params)
            if store.get(key) is None and store.claim(key) == "won":
                store.report(key, "queued", 0, 0, PRECOMPUTE_NOTE)
                self._tasks["precompute"](c.name, c.wire(params), "")
                queued += 1
        return queued

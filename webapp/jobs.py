"""Background jobs on Huey: SQLite storage in the instance folder by default, Redis when COIN_PUZZLES_REDIS_URL
is set (then every host shares the queues). A consumer runs `compute`, which finds the computation by name.

Two queues: visitors' jobs, and the precomputation of everything the site links to, each with its own consumer
(`coin-puzzles worker --queue visitors|precompute`), so a precomputation that takes hours (the French board's
fewest-moves proofs) never holds a visitor's job back; a visitor asking for a result still queued for
precomputation queues it again on the visitors' queue (webapp/results.py).

Huey was chosen over Celery and RQ: it is maintained, small, has no broker to run for the embedded default (its
SQLite storage), and the same code runs on Redis; it has an in-process immediate mode for the Flask test client.
"""

from __future__ import annotations

import resource
from collections.abc import Iterable, Mapping
from typing import Any

from huey import Huey, PriorityRedisHuey, SqliteHuey

from . import config
from .store import Store, open_store

QUEUE_FILES = {"visitors": "queue.db", "precompute": "precompute.db"}  # SQLite files in the instance folder


def make_huey(queue: str = "visitors") -> Huey:
    """A queue: Redis when configured, else a SQLite file in the instance folder."""
    name = "coin-puzzles" if queue == "visitors" else f"coin-puzzles-{queue}"
    url = config.redis_url()
    if url:
        return PriorityRedisHuey(name, url=url)  # the type the single queue had: a deployed Redis keeps its key
    folder = config.instance_path()
    folder.mkdir(parents=True, exist_ok=True)
    return SqliteHuey(name, filename=str(folder / QUEUE_FILES[queue]), results=False)


huey = make_huey()
precompute_huey = make_huey("precompute")
QUEUES = {"visitors": huey, "precompute": precompute_huey}


def limit_memory() -> None:
    """Each job process gets the configured memory budget; a job past it fails with a clear message."""
    limit = config.job_memory_mb() * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def compute(address: str, name: str, params: dict[str, Any]) -> None:
    """Compute one result into the store at address."""
    from . import catalogue  # noqa: F401 - registers the computations
    from .results import execute

    execute(open_store(address, config.keys(config.instance_path()).encoded()), name, params)


for _queue in QUEUES.values():
    _queue.on_startup()(limit_memory)
run_job = huey.task()(compute)
run_precompute_job = precompute_huey.task()(compute)


def enqueue(address: str, name: str, params: Mapping[str, Any], precompute: bool = False) -> None:
    """Put a job on the visitors' queue, or on the precomputation's."""
    (run_precompute_job if precompute else run_job)(address, name, dict(params))


def default_store() -> Store:
    """The store the app uses by default (outside a request: the CLI and the consumer)."""
    folder = config.instance_path()
    return open_store(config.store_address(folder), config.keys(folder).encoded())


def enqueue_missing(store: Store, items: Iterable[tuple[str, dict[str, Any]]]) -> int:
    """Queue a precomputation job for every item not stored yet and not already claimed; how many were queued."""
    from . import catalogue  # noqa: F401 - registers the computations
    from .results import PRECOMPUTE_NOTE, REGISTRY

    queued = 0
    for name, params in items:
        key = REGISTRY[name].key(params)
        if store.get(key) is None and store.claim(key):
            store.report(key, "queued", 0, 0, PRECOMPUTE_NOTE)
            enqueue(store.address, name, params, precompute=True)
            queued += 1
    return queued

"""Background jobs on Huey: SQLite storage in the instance folder by default, Redis when COIN_PUZZLES_REDIS_URL
is set (then every host shares one queue). The consumer runs `run_job`, which finds the computation by name.

Huey was chosen over Celery and RQ: it is maintained, small, has no broker to run for the embedded default (its
SQLite storage), and the same code runs on Redis; it supports priorities (a visitor's job goes before
precomputation) and an in-process immediate mode for the Flask test client.
"""

from __future__ import annotations

import resource
from collections.abc import Iterable, Mapping
from typing import Any

from huey import Huey, PriorityRedisHuey, SqliteHuey

from . import config
from .store import Store, open_store

USER_PRIORITY = 10  # a visitor is waiting
PRECOMPUTE_PRIORITY = 0


def make_huey() -> Huey:
    """The queue: Redis when configured, else a SQLite file in the instance folder."""
    url = config.redis_url()
    if url:
        return PriorityRedisHuey("coin-puzzles", url=url)
    folder = config.instance_path()
    folder.mkdir(parents=True, exist_ok=True)
    return SqliteHuey("coin-puzzles", filename=str(folder / "queue.db"), results=False)


huey = make_huey()


@huey.on_startup()
def limit_memory() -> None:
    """Each job process gets the configured memory budget; a job past it fails with a clear message."""
    limit = config.job_memory_mb() * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


@huey.task()
def run_job(address: str, name: str, params: dict[str, Any]) -> None:
    """Compute one result into the store at address."""
    from . import catalogue  # noqa: F401 - registers the computations
    from .results import execute

    execute(open_store(address, config.secret_key(config.instance_path()).encode()), name, params)


def enqueue(address: str, name: str, params: Mapping[str, Any], priority: int = USER_PRIORITY) -> None:
    """Put a job on the queue."""
    run_job(address, name, dict(params), priority=priority)


def default_store() -> Store:
    """The store the app uses by default (outside a request: the CLI and the consumer)."""
    folder = config.instance_path()
    return open_store(config.store_address(folder), config.secret_key(folder).encode())


def enqueue_missing(store: Store, items: Iterable[tuple[str, dict[str, Any]]]) -> int:
    """Queue a low-priority job for every item not stored yet and not already claimed; how many were queued."""
    from . import catalogue  # noqa: F401 - registers the computations
    from .results import PRECOMPUTE_NOTE, REGISTRY

    queued = 0
    for name, params in items:
        key = REGISTRY[name].key(params)
        if store.get(key) is None and store.claim(key):
            store.report(key, "queued", 0, 0, PRECOMPUTE_NOTE)
            enqueue(store.address, name, params, PRECOMPUTE_PRIORITY)
            queued += 1
    return queued

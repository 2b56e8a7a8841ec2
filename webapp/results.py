"""Expensive results: computed once, verified by their solvers, kept in the result store, and computed by a
background job when they are not there yet.

A view asks `computed(name, params)`. A stored result comes back at once; a quick one is computed on the
spot and stored; anything heavier is claimed (one job per key across every worker and host), enqueued on the
task queue, and the view raises `Pending`, which the app answers with a progress page (or `202 Accepted` with
the progress for the API) at the same URL until the result is there.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from flask import Flask, Response, current_app, jsonify, render_template, request

from solvers.errors import LimitError, PuzzleError
from solvers.progress import Tick

from . import codec, jobs
from .store import Progress, Store, open_store

Params = Mapping[str, Any]


def _same(value: Any) -> Any:
    """A result stored as it is."""
    return value


@dataclass(frozen=True)
class Computation:
    """A named, versioned, deterministic computation: run(params, tick) -> result; quick(params) says whether it
    is cheap enough for a web request (about a second of CPU at most); title(params) names it for people.

    Results are stored as JSON: `result` is the type stored (what a stored entry is decoded against); `dump` and
    `load` turn a result into that type and back when it is not data already (a plan holding its search)."""

    name: str
    version: str
    run: Callable[[Params, Tick], object]
    quick: Callable[[Params], bool]
    title: Callable[[Params], str]
    result: Any = object
    dump: Callable[[Any], object] = _same
    load: Callable[[Any], object] = _same

    def key(self, params: Params) -> str:
        """The store key: name, version and canonical parameters (a new version invalidates old entries)."""
        return f"{self.name}@{self.version}:{json.dumps(dict(params), sort_keys=True, separators=(',', ':'))}"


@dataclass(frozen=True)
class Failed:
    """A computation that ended in a solver's refusal (for example 'too large to search here'), stored too."""

    kind: str
    message: str


class Pending(Exception):  # noqa: N818 - not an error: the answer is on its way
    """The result is being computed by a background job."""

    def __init__(self, title: str, progress: Progress) -> None:
        """Keep what the progress page shows."""
        super().__init__(title)
        self.title = title
        self.progress = progress


REGISTRY: dict[str, Computation] = {}


def register(c: Computation) -> Computation:
    """Add a computation to the registry (the job consumer finds it by name)."""
    REGISTRY[c.name] = c
    return c


def run(c: Computation, params: Params, tick: Tick) -> object:
    """Compute a result; a solver's refusal or running out of the job's memory becomes a stored Failed."""
    try:
        return c.run(params, tick)
    except LimitError as e:
        return Failed("limit", e.message)
    except PuzzleError as e:
        return Failed("input", e.message)
    except MemoryError:
        return Failed("limit", "too large to compute here: the job ran out of its memory budget")


def unpack(value: object) -> object:
    """A stored value, or the refusal it records raised again (the app answers it with a 4xx)."""
    if isinstance(value, Failed):
        raise LimitError(value.message)
    return value


def dumps(c: Computation, value: object) -> bytes:
    """A result (or a refusal) as the store keeps it."""
    if isinstance(value, Failed):
        return codec.encode_failure(value.kind, value.message)
    return codec.encode(c.dump(value))


def loads(c: Computation, blob: bytes) -> object | None:
    """A stored result (or refusal); None when the entry is not one of this computation's (an older format)."""
    try:
        envelope = codec.open_envelope(blob)
        if envelope.failed is not None:
            return Failed(str(envelope.failed.get("kind", "")), str(envelope.failed.get("message", "")))
        if not len(envelope.value):
            return None
        return c.load(codec.decode(envelope.value, c.result))
    except codec.DecodeErrors:
        return None


def read(store: Store, c: Computation, key: str) -> object | None:
    """The stored result under key, if there is a readable one (an unreadable entry is deleted, so recomputed)."""
    blob = store.get(key)
    if blob is None:
        return None
    value = loads(c, blob)
    if value is None:
        store.delete(key)
    return value


def write(store: Store, c: Computation, key: str, value: object) -> None:
    """Store a result (or a refusal)."""
    store.put(key, dumps(c, value))


PRECOMPUTE_NOTE = "precompute"  # the note on a claim made by the background precomputation


def fetch(store: Store, name: str, params: Params, enqueue: Callable[[str, str, Params], None]) -> object:
    """The result, from the store or computed now if quick; otherwise claim and enqueue a job, raise Pending."""
    c = REGISTRY[name]
    key = c.key(params)
    found = read(store, c, key)
    if found is not None:
        return unpack(found)
    if c.quick(params):
        value = run(c, params, lambda done, total: None)
        write(store, c, key, value)
        return unpack(value)
    if store.claim(key):
        try:
            enqueue(store.address, name, params)
        except Exception:
            store.release(key)  # never leave a claim that no job will end
            raise
        found = read(store, c, key)  # an in-process (immediate) queue has already finished it
        if found is not None:
            return unpack(found)
    else:
        waiting = store.progress(key)
        if waiting is not None and waiting.state == "queued" and waiting.note == PRECOMPUTE_NOTE:
            # queued by the precomputation, perhaps behind hours of it: a visitor now waits, so queue it again on
            # the visitors' queue (once: the note is cleared; whichever job runs first stores it, the other skips)
            store.report(key, "queued", 0, 0, "")
            enqueue(store.address, name, params)
    progress = store.progress(key) or Progress("queued", 0, 0, "", time.time())
    raise Pending(c.title(params), progress)


def execute(store: Store, name: str, params: Params) -> None:
    """Run a job: report progress (at most twice a second), store the result, end the claim."""
    c = REGISTRY[name]
    key = c.key(params)
    if read(store, c, key) is not None:
        store.release(key)
        return
    last = [0.0]

    def tick(done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] >= 0.5:
            last[0] = now
            store.report(key, "running", done, total, "")

    store.report(key, "running", 0, 0, "")
    print(f"coin-puzzles job: computing {key}", file=sys.stderr, flush=True)
    try:
        write(store, c, key, run(c, params, tick))
    finally:
        store.release(key)


def app_keys() -> tuple[str, ...]:
    """The app's secret keys: the current one, then the older ones still accepted."""
    config = current_app.config
    return (str(config["SECRET_KEY"]), *(str(k) for k in config.get("SECRET_KEY_FALLBACKS") or ()))


def app_store() -> Store:
    """The app's store (one per process, opened on first use)."""
    store: Store | None = current_app.extensions.get("coin_puzzles_store")
    if store is None:
        store = open_store(str(current_app.config["RESULT_STORE"]), [k.encode() for k in app_keys()])
        current_app.extensions["coin_puzzles_store"] = store
    return store


def computed(name: str, **params: Any) -> Any:
    """A view's way in: the result, or Pending while a job computes it."""
    return fetch(app_store(), name, params, jobs.enqueue)


def stored(store: Store, name: str, params: Params) -> object | None:
    """The stored result (a stored refusal raised again), or None when it is not stored."""
    c = REGISTRY[name]
    found = read(store, c, c.key(params))
    return None if found is None else unpack(found)


def peek(name: str, **params: Any) -> Any:
    """The stored result if it is there (never computing or queuing anything), else None."""
    return stored(app_store(), name, params)


RETRY_SECONDS = 2


def pending_response(e: Pending) -> tuple[Response | str, int, dict[str, str]]:
    """The progress page (200, polled by htmx, refreshed without JavaScript) or, for the API, 202 Accepted."""
    p = e.progress
    headers = {"Retry-After": str(RETRY_SECONDS), "Cache-Control": "no-store"}
    if request.path.startswith("/api/"):
        body = {
            "status": "running" if p.state == "running" else "queued",
            "progress": {"done": p.done, "total": p.total, "fraction": round(p.fraction, 4)},
            "retry_after": RETRY_SECONDS,
        }
        return jsonify(body), 202, headers
    page = render_template("progress.html", title=e.title, progress=p, retry=RETRY_SECONDS)
    return page, 200, headers


def init_app(app: Flask) -> None:
    """Answer Pending with the progress page."""
    app.register_error_handler(Pending, pending_response)

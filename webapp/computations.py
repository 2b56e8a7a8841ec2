"""Named computations and their stored results, without the web: a `Computation` is a named, versioned,
deterministic function of its parameters; its results (or its refusals, as `Failed`) are kept in the result store
as JSON under a key made of its name, version and parameters. The computations themselves are listed in
`catalogue`; the web's way to them (computing, queuing, progress pages) is `results`."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from solvers.errors import LimitError, PuzzleError
from solvers.progress import Tick

from . import codec
from .store import Store

Params = Mapping[str, Any]
PRECOMPUTE_NOTE = "precompute"  # the note on a claim made by the background precomputation


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


def stored(store: Store, name: str, params: Params) -> object | None:
    """The stored result (a stored refusal raised again), or None when it is not stored."""
    c = REGISTRY[name]
    found = read(store, c, c.key(params))
    return None if found is None else unpack(found)


def work(store: Store, name: str, params: Params) -> None:
    """A job's work: report progress (at most twice a second), compute, store the result (the claim is left to
    whoever runs the job)."""
    c = REGISTRY[name]
    key = c.key(params)
    last = [0.0]

    def tick(done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] >= 0.5:
            last[0] = now
            store.report(key, "running", done, total, "")

    store.report(key, "running", 0, 0, "")
    print(f"coin-puzzles job: computing {key}", file=sys.stderr, flush=True)
    write(store, c, key, run(c, params, tick))


def execute(store: Store, name: str, params: Params) -> None:
    """Run a job in this process (the immediate queue of the tests, the precompute command): unless the result is
    stored already, compute it; then end the claim."""
    c = REGISTRY[name]
    try:
        if read(store, c, c.key(params)) is None:
            work(store, name, params)
    finally:
        store.release(c.key(params))

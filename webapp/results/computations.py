"""Named computations and their stored results, without the web: a `Computation[P, R]` is a named, deterministic
function of its parameters (a P, a frozen msgspec struct) returning an R; its results (or its refusals, as `Failed`)
are kept in the result store as JSON under a key made of its name, the schema of what it stores and its parameters.
The computations themselves are listed in `catalogue`; the web's way to them (computing, queuing, progress pages)
is `webapp.jobs.access`. A queued job carries its parameters as plain JSON data (`wire`), read back and checked by
`parse`."""

from __future__ import annotations

import json
import sys
import time
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Generic, TypeVar, cast

import msgspec

from solvers.checkpoint import Checkpoint, Entry, Frame
from solvers.errors import LimitError, PuzzleError
from solvers.progress import Tick
from webapp.store import Store, TooLarge, codec

Wire = Mapping[str, Any]  # a computation's parameters as a queued job carries them
PRECOMPUTE_NOTE = "precompute"  # the note on a claim made by the background precomputation
P = TypeVar("P", bound=msgspec.Struct)
R = TypeVar("R")


class Params(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The base of every computation's parameters: frozen, and a queued job's unknown fields are refused."""


class Computation(ABC, Generic[P, R]):
    """A named, deterministic computation: `run(params, tick, checkpoint=None)` -> R for params of type `params`
    (a long proof keeps what it settles in the checkpoint given, a job's in the store, and resumes from it); `quick`
    says whether it is cheap enough for a web request (about a second of CPU at most), `title` names it for people,
    `check` refuses bad parameters (a PuzzleError) before a job is queued, and `lane` says which queue a job of it
    waits in: "quick" for work a visitor waits on with the page open, estimated at seconds, never queued behind long
    jobs (webapp/jobs/queues.py) and counted apart from the visitor's long jobs (webapp/jobs/access.py).
    Each computation is a subclass (`catalogue`) setting `name`, `params` and `stored_as`.

    Results are stored as JSON: `stored_as` is the type stored (what a stored entry is decoded against); `dump`
    and `load` turn a result into that type and back when it is not data already (a plan holding its search).
    The store key carries a digest of that type's JSON schema, so a change to what is stored makes the old
    entries unreachable (they are recomputed) without a version to remember to bump."""

    name: str
    params: type[P]
    stored_as: Any

    @abstractmethod
    def run(self, params: P, tick: Tick, checkpoint: Checkpoint | None = None) -> R:
        """The result, computed (telling tick(done, total) as it goes)."""

    @abstractmethod
    def quick(self, params: P) -> bool:
        """Whether a web request may compute it."""

    @abstractmethod
    def title(self, params: P) -> str:
        """What it computes, for people ('the table of starts for the English board')."""

    def check(self, params: P) -> None:
        """Refuse parameters a job would refuse (a PuzzleError), before one is queued; none by default."""

    def lane(self, params: P) -> str:
        """The queue a job of it waits in: 'quick' or 'visitors' (the default)."""
        return "visitors"

    def dump(self, value: R) -> object:
        """A result as the store keeps it (`stored_as`): the result itself by default."""
        return value

    def load(self, stored: Any) -> R:
        """A result from what the store keeps: the stored value itself by default."""
        return cast(R, stored)

    @cached_property
    def schema(self) -> str:
        """A digest of the stored type's JSON schema (field names, types, nesting)."""
        return codec.schema_digest(self.stored_as)

    def key(self, params: P) -> str:
        """The store key: name, schema digest and canonical parameters."""
        return f"{self.name}@{self.schema}:{json.dumps(self.wire(params), sort_keys=True, separators=(',', ':'))}"

    def wire(self, params: P) -> dict[str, Any]:
        """The parameters as plain JSON data, as a queued job carries them (fields a struct lists in OMIT_IF_NONE
        left out while None, so that adding such a field keeps the earlier keys)."""
        data: dict[str, Any] = msgspec.to_builtins(params)
        for name in getattr(params, "OMIT_IF_NONE", ()):
            if data.get(name) is None:
                data.pop(name, None)
        return data

    def parse(self, data: Wire) -> P:
        """A queued job's parameters read back (msgspec.ValidationError when they are not this computation's)."""
        return msgspec.convert(data, self.params)


@dataclass(frozen=True)
class Failed:
    """A computation that ended in a solver's refusal (for example 'too large to search here'), stored too."""

    kind: str
    message: str


def run(c: Computation[P, R], params: P, tick: Tick, checkpoint: Checkpoint | None = None) -> R | Failed:
    """Compute a result (with the checkpoint given); a solver's refusal or running out of the job's memory becomes a
    stored Failed."""
    try:
        return c.run(params, tick, checkpoint)
    except LimitError as e:
        return Failed("limit", e.message)
    except PuzzleError as e:
        return Failed("input", e.message)
    except MemoryError:
        return Failed("limit", "too large to compute here: the job ran out of its memory budget")


def unpack(value: R | Failed) -> R:
    """A stored value, or the refusal it records raised again (the app answers it with a 4xx)."""
    if isinstance(value, Failed):
        raise LimitError(value.message)
    return value


def dumps(c: Computation[Any, R], value: R | Failed) -> bytes:
    """A result (or a refusal) as the store keeps it."""
    if isinstance(value, Failed):
        return codec.encode_failure(value.kind, value.message)
    return codec.encode(c.dump(value))


def loads(c: Computation[Any, R], blob: bytes) -> R | Failed | None:
    """A stored result (or refusal); None when the entry is not one of this computation's (an older format)."""
    try:
        envelope = codec.open_envelope(blob)
        if envelope.failed is not None:
            return Failed(str(envelope.failed.get("kind", "")), str(envelope.failed.get("message", "")))
        if not len(envelope.value):
            return None
        return c.load(codec.decode(envelope.value, c.stored_as))
    except codec.DecodeErrors:
        return None


def read(store: Store, c: Computation[Any, R], key: str) -> R | Failed | None:
    """The stored result under key, if there is a readable one (an unreadable entry is deleted, so recomputed)."""
    blob = store.get(key)
    if blob is None:
        return None
    value = loads(c, blob)
    if value is None:
        store.delete(key)
    return value


def write(store: Store, c: Computation[Any, R], key: str, value: R | Failed) -> None:
    """Store a result (or a refusal); a visitor's result past its share of the store is kept as the refusal that
    says so (asked again, it is not computed again until it is evicted)."""
    try:
        store.put(key, dumps(c, value))
    except TooLarge as e:
        store.put(key, dumps(c, Failed("limit", str(e))))


def stored(store: Store, c: Computation[P, R], params: P) -> R | None:
    """The stored result (a stored refusal raised again), or None when it is not stored."""
    found = read(store, c, c.key(params))
    return None if found is None else unpack(found)


class StoreCheckpoint:
    """What a long proof has settled so far, kept in the result store beside its result, so that a job stopped
    part-way (a restart, a crash, a new deploy) resumes from it when it runs again; removed once the result is
    stored. Each settled part's entries are a page of their own (under the result's key and ':checkpoint:<n>',
    n counted by compare-and-swap under ':checkpoint:pages'), so keeping one never rewrites the others (Super
    Mastermind's proof keeps thousands); a list under ':checkpoint' itself, as kept before pages, is read too."""

    def __init__(self, store: Store, key: str) -> None:
        self.store = store
        self.key = key + ":checkpoint"
        self.count_key = self.key + ":pages"

    def _pages(self) -> int:
        blob = self.store.get(self.count_key)
        return int(blob) if blob else 0

    def known(self) -> list[Entry]:
        """The entries kept by earlier runs of the job (a page whose writer stopped before writing it is skipped)."""
        blobs = [self.store.get(self.key), *(self.store.get(f"{self.key}:{n}") for n in range(self._pages()))]
        return [(int(a), int(b), int(c), int(d)) for blob in blobs if blob for a, b, c, d in json.loads(blob)]

    def keep(self, entries: list[Entry]) -> None:
        """Keep one settled part's entries as a new page (its number taken again if another worker took it)."""
        while True:
            old = self.store.get(self.count_key)
            n = int(old) if old else 0
            if self.store.swap(self.count_key, old, str(n + 1).encode()):
                break
        self.store.put(f"{self.key}:{n}", json.dumps([list(e) for e in entries]).encode())

    def paused(self) -> list[Frame]:
        """Where the running parts of the job's last stopped run stood (`solvers.halt.Paused`)."""
        blob = self.store.get(self.key + ":frames")
        return [tuple(int(x) for x in f) for f in json.loads(blob)] if blob else []

    def pause(self, frames: list[Frame]) -> None:
        """Keep where the running parts stood as the job was stopped."""
        self.store.put(self.key + ":frames", json.dumps([list(f) for f in frames]).encode())

    def clear(self) -> None:
        """Forget the entries and frames (the result is stored)."""
        for n in range(self._pages()):
            self.store.delete(f"{self.key}:{n}")
        self.store.delete(self.count_key)
        self.store.delete(self.key)
        self.store.delete(self.key + ":frames")


def work(store: Store, c: Computation[P, Any], params: P) -> None:
    """A job's work: report progress (at most twice a second), compute with a checkpoint in the store (given to the
    computation), store the result and drop the checkpoint (the claim is left to whoever runs the
    job)."""
    key = c.key(params)
    last = [0.0]

    def tick(done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] >= 0.5:
            last[0] = now
            store.report(key, "running", done, total, "")

    store.report(key, "running", 0, 0, "")
    print(f"coin-puzzles job: computing {key}", file=sys.stderr, flush=True)
    resumable(store, c, params, tick)


def resumable(store: Store, c: Computation[P, Any], params: P, tick: Tick) -> None:
    """Compute a result with a checkpoint in the store (given to the computation, so that a run stopped part-way
    resumes), store it and drop the checkpoint."""
    key = c.key(params)
    checkpoint = StoreCheckpoint(store, key)
    result = run(c, params, tick, checkpoint)
    write(store, c, key, result)
    checkpoint.clear()


def execute(store: Store, c: Computation[P, Any], params: P) -> None:
    """Run a job in this process (the immediate queue of the tests, the precompute command): unless the result is
    stored already, compute it; then end the claim."""
    try:
        if read(store, c, c.key(params)) is None:
            work(store, c, params)
    finally:
        store.release(c.key(params))

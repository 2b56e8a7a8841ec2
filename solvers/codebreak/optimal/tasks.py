"""The tasks of a search (`parallel.Workers`): a part searched by the kernel (`settle`), a younger brother's
experiment (`brother`), a large set opened (`opening`), and what each hands back (`Found`); what they run against
(`Context`: the parent's own, when it runs them itself, or a worker's, `share` and `in_worker`); the log of every
task (`Task`); and what rebuilds the search in a cluster's worker (`Recipe`).

Forked workers share the parent's table, so what they prove is read there. A cluster's workers each have a table
of their own: a task settled exactly there hands back the entries of its optimal tree (`Found.entries`), which the
parent keeps in its table (and its checkpoint)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, NamedTuple, Protocol

import numpy as np
from numpy.typing import NDArray

from solvers.checkpoint import Entry, Frame
from solvers.errors import Paused

from .candidates import candidates
from .rules import Memo, Opened, Rules, Symmetry
from .table import Tuning

Capped = Callable[[], int] | None  # a live budget, read before each part (`AverageSearch.settle_guess`)

INDEX_BITS = 20  # a shared best: total << INDEX_BITS | the index of its experiment (BIG << 20 fits)
NO_INDEX = (1 << INDEX_BITS) - 1


class Searcher(Protocol):
    """What a split proof needs of its search (`average_search.AverageSearch`, which imports `parallel`)."""

    keep: Callable[[list[Entry]], None] | None  # where proved sets' entries go (a checkpoint), if anywhere
    split_from: int
    rules: Rules
    memo: Memo

    @property
    def work(self) -> int:
        """The secrets of every set searched so far."""

    def everyone(self) -> NDArray[np.int32]:
        """Every secret."""

    @property
    def game(self) -> Any:
        """The game searched."""

    def recipe(self, game: Any) -> Recipe:
        """What rebuilds the search in a cluster's worker, the game given as the engine holds it."""

    def adopt(self, entries: list[Entry]) -> None:
        """Keep proved entries in the table."""

    def load_kernels(self) -> None:
        """Load every kernel before forking."""

    def depth_at(self, made: int) -> int:
        """The depth left after `made` experiments."""

    def sym_of(self, path: tuple[int, ...]) -> Symmetry:
        """The symmetries in force after the experiments of path."""

    def held(self, s: NDArray[np.int32], depth: int) -> tuple[bool, int, bool, int]:
        """What the table holds of s."""

    def key(self, s: NDArray[np.int32], depth: int) -> tuple[np.uint64, np.uint64]:
        """A set's table key."""

    def keep_new(self, every: bool = False) -> int:
        """Keep the newly proved sets (with a checkpoint)."""

    def tree_entries(self, s: NDArray[np.int32], g: int, budget: int, depth: int) -> list[Entry]:
        """The entries of every set on the optimal tree below experiment g at s."""

    def part_proof(self, part: NDArray[np.int32], cost: int, depth: int) -> list[Entry]:
        """The entries of a proved set and of every set on its optimal tree."""

    def settle_part(self, part: NDArray[np.int32], left: int, sym: Symmetry, depth: int) -> int:
        """The kernel's search of one part."""

    def open_guess(self, s: NDArray[np.int32], path: tuple[int, ...], g: int, best: int) -> Opened:
        """Experiment g next at s: its parts and their bounds."""

    def settle_guess(
        self, path: tuple[int, ...], g: int, opened: Opened, best: int, told: Callable[[int], None], cap: Capped
    ) -> int:
        """An opened experiment's total, if below best."""


class Found(NamedTuple):
    """What a worker found: a total (exact when below its budget, else a lower bound at least the budget); or, for
    a younger brother whose largest part is to be split, its parts' bounds (outcome, bound), largest first, the
    search of its parts left to the parent; or, for a set opened, its experiments in order and its eldest's parts
    and total (`opening`)."""

    value: int
    exact: bool
    work: int
    seconds: float  # the worker's CPU time on it
    parts: tuple[tuple[int, int], ...] = ()
    cands: NDArray[np.int64] | None = None  # a set opened (`opening`): its experiments in order, with their bounds
    entries: tuple[Entry, ...] = ()  # a cluster's worker: the optimal tree of what it settled exactly, as entries
    paused: tuple[Frame, ...] | None = None  # halted part-way (`solvers.halt`): where its part stood (or nothing)


class Task(NamedTuple):
    """One task as it ran, for the scaling benchmark: its number, what it was ("part": a set searched by the kernel;
    "brother": a younger brother at a set, its parts searched one by one or handed back to be split; "open": a large
    set opened for the parent, `opening`), the secrets of its set, its budget, whether it was settled exactly, its
    work and CPU seconds, when it was handed out and when its result arrived (seconds from the search's start), and
    the tasks whose results it had to wait for."""

    number: int
    kind: str
    size: int
    budget: int
    exact: bool
    work: int
    seconds: float
    sent: float
    done: float
    after: tuple[int, ...]


class Recipe(NamedTuple):
    """What rebuilds a split proof's search in a cluster's worker (`average_search.rebuilt`): the game (or the
    engine's handle to it), how the search runs (its split size included), its cap, and whether only possible codes
    are guessed."""

    game: Any
    tuning: Tuning
    cap: int
    possible_only: bool


class Context(NamedTuple):
    """What a task runs against: the search (its table shared with the parent's, or a cluster worker's own), the
    best totals of the sets with younger brothers out, the least set whose parts a brother hands back to be split,
    whether a task settled exactly hands back its optimal tree's entries (a cluster's worker), and where a brother
    at the start tells the secrets it settled (the parent's progress, when the task runs in the parent itself)."""

    search: Searcher
    best: Any
    split_from: int
    entries: bool = False
    tell: Callable[[int, int], None] | None = None


ROOT_SLOT = 0  # the start's slot among the shared best totals (the first set a split proof opens)

_context: Context | None = None  # in a worker: what its tasks run against (`share`, before the fork or the task)


def share(search: Searcher, best: Any, entries: bool = False) -> None:
    """What the workers forked after this call (or a cluster's worker, before each task) run their tasks against
    (`in_worker`): the search (whose table they share, or its own) and the best totals; entries: hand back what was
    settled exactly."""
    global _context
    _context = Context(search, best, search.split_from, entries)


def in_worker(fn: Callable[..., Found], *args: Any) -> Found:
    """A task in a worker process: fn against what `share` gave; what the worker proves goes to the shared table
    (which the parent keeps, with a checkpoint), never to a checkpoint of its own."""
    assert _context is not None
    _context.search.keep = None
    return fn(_context, *args)


def settle(ctx: Context, part: NDArray[np.int32], left: int, path: tuple[int, ...], depth: int) -> Found:
    """The kernel's search of one part below the experiments of path: its cost if below left, else a bound."""
    search = ctx.search
    before, clock = search.work, time.process_time()
    try:
        v = search.settle_part(part, left, search.sym_of(path), depth)
    except Paused as stop:
        return Found(left, False, search.work - before, time.process_time() - clock, paused=tuple(stop.frames))
    entries = tuple(search.part_proof(part, v, depth)) if ctx.entries and v < left else ()
    return Found(v, v < left, search.work - before, time.process_time() - clock, entries=entries)


def brother(ctx: Context, slot: int, i: int, s: NDArray[np.int32], path: tuple[int, ...], g: int, limit: int) -> Found:
    """Experiment g (the i-th in s's order) next at s: its total if below limit, lowered while it runs as other
    processes find better ones at s (to their best, or one above it for an experiment after i, which loses a tie);
    else a lower bound. Its parts' bounds instead when its largest part is to be split."""
    search, shared, tell = ctx.search, ctx.best, ctx.tell

    def cap() -> int:
        best = int(shared[slot])
        return min(limit, (best >> INDEX_BITS) + (1 if i < best & NO_INDEX else 0))

    before, clock = search.work, time.process_time()
    opened = search.open_guess(s, path, g, cap())
    _, start, lows, total, order = opened
    if total >= cap():
        return Found(max(int(total), cap()), False, search.work - before, time.process_time() - clock)
    if len(order) and start[order[0] + 1] - start[order[0]] >= ctx.split_from:
        parts = tuple((int(o), int(lows[o])) for o in order)
        return Found(int(total), False, search.work - before, time.process_time() - clock, parts)
    told: Callable[[int], None] = (lambda done: tell(i, done)) if tell and slot == ROOT_SLOT else lambda _: None
    try:
        total = search.settle_guess(path, g, opened, limit, told, cap)
    except Paused as stop:
        return Found(limit, False, search.work - before, time.process_time() - clock, paused=tuple(stop.frames))
    final = cap()
    exact = total < final
    entries = tuple(search.tree_entries(s, g, total, search.depth_at(len(path)))) if ctx.entries and exact else ()
    seconds = time.process_time() - clock
    return Found(total if exact else max(total, final), exact, search.work - before, seconds, entries=entries)


def opening(
    ctx: Context, s: NDArray[np.int32], path: tuple[int, ...], budget: int, cands: NDArray[np.int64] | None = None
) -> Found:
    """A large set opened for the parent (which settles it): its experiments (cands, else one per class of every
    code), best bound first, and, if the best bound is below the budget, its eldest's total and parts' bounds
    (outcome, bound), largest first."""
    search = ctx.search
    clock = time.process_time()
    if cands is None:
        cands = candidates(s, search.rules.everything, search.rules, False, search.sym_of(path))
    if not len(cands) or cands[0, 0] >= budget:
        return Found(0, False, 0, time.process_time() - clock, (), cands)
    _, _, lows, total, order = search.open_guess(s, path, int(cands[0, 1]), budget)
    parts = tuple((int(o), int(lows[o])) for o in order)
    return Found(int(total), False, 0, time.process_time() - clock, parts, cands)

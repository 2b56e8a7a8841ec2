"""What the forked workers of a split proof run (`parallel`): a part searched by the kernel (`settle`), a younger
brother's experiment (`brother`), and what each hands back (`Found`); and the log of every task (`Task`)."""

from __future__ import annotations

import time
from multiprocessing.queues import Queue
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from solvers.checkpoint import Entry

from .average import open_parts

if TYPE_CHECKING:
    from .average_search import AverageSearch

INDEX_BITS = 20  # a shared best: total << INDEX_BITS | the index of its experiment (BIG << 20 fits)
NO_INDEX = (1 << INDEX_BITS) - 1


class Found(NamedTuple):
    """What a worker found: a total (exact when below its budget, else a lower bound at least the budget); or, for
    a younger brother whose largest part is to be split, its parts' bounds (outcome, bound), largest first, the
    search of its parts left to the parent."""

    value: int
    exact: bool
    entries: list[Entry]  # an exact result's proof: its tree's table entries
    work: int
    seconds: float  # the worker's CPU time on it
    parts: tuple[tuple[int, int], ...] = ()


class Task(NamedTuple):
    """One task as it ran, for the scaling benchmark: its number, what it was ("part": a set searched by the kernel;
    "brother": a younger brother at a set, its parts searched one by one or handed back to be split; "open": a large
    set opened in the parent), the secrets of its set, its budget, whether it was settled exactly, its work and CPU
    seconds, when it was handed out and when its result arrived (seconds from the search's start), and the tasks
    whose results it had to wait for."""

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


_search: AverageSearch | None = None  # the search the workers were forked from (each has its own copy)
_progress: Queue[list[Entry]] | None = None  # settled parts' entries, for the parent's checkpoint
_best: Any = None  # the shared best totals (a multiprocessing array of int64)


def share(search: AverageSearch, progress: Queue[list[Entry]], best: Any) -> None:
    """What the workers forked after this call find: the search, where settled parts' entries go, the best totals."""
    global _search, _progress, _best
    _search, _progress, _best = search, progress, best


def _ready() -> AverageSearch:
    """The worker's search, its settled parts' entries sent to the parent (which keeps them) when checkpointed."""
    assert _search is not None and _progress is not None
    if _search.keep is not None:
        _search.keep = _progress.put
    return _search


def settle(part: NDArray[np.int32], left: int, path: tuple[int, ...], depth: int) -> Found:
    """The kernel's search of one part below the experiments of path: its cost if below left, with its proof."""
    search = _ready()
    before, clock = search.work, time.process_time()
    v = search.settle_part(part, left, search.sym_of(path), depth)
    search.keep_new(every=True)
    proof = search.part_proof(part, v, depth) if v < left else []
    return Found(v, v < left, proof, search.work - before, time.process_time() - clock)


def brother(slot: int, i: int, s: NDArray[np.int32], path: tuple[int, ...], g: int, limit: int) -> Found:
    """Experiment g (the i-th in s's order) next at s: its total if below limit, lowered while it runs as other
    processes find better ones at s (to their best, or one above it for an experiment after i, which loses a tie);
    else a lower bound. Its parts' bounds instead when its largest part is to be split."""
    search, shared = _ready(), _best

    def cap() -> int:
        best = int(shared[slot])
        return min(limit, (best >> INDEX_BITS) + (1 if i < best & NO_INDEX else 0))

    before, clock = search.work, time.process_time()
    depth, after = search.depth_at(len(path)), search.sym_of((*path, g))
    _, start, lows, total, order = open_parts(s, g, np.int64(limit), search.rules, search.memo, depth, after)
    if total >= cap():
        return Found(max(int(total), cap()), False, [], search.work - before, time.process_time() - clock)
    if len(order) and start[order[0] + 1] - start[order[0]] >= search.split_from:
        parts = tuple((int(o), int(lows[o])) for o in order)
        return Found(int(total), False, [], search.work - before, time.process_time() - clock, parts)
    total = search.guess_total(s, path, g, limit, lambda _: None, cap)
    search.keep_new(every=True)
    final = cap()
    proof = search.proof_below(s, g, total, depth) if total < final else []
    seconds = time.process_time() - clock
    return Found(total if total < final else max(total, final), total < final, proof, search.work - before, seconds)

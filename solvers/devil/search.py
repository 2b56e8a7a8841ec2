"""Breadth-first search for the shortest sure win: beliefs as bitmasks of rotation classes (necklaces), and
the same search on whole configuration sets (NumPy) where the class search is too large."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from solvers.errors import InputError, LimitError
from solvers.progress import Tick, quiet

from .variant import DevilVariant, add, goal_configs, tables

SEARCH_MAX_CONFIGS = 1024  # coins: beliefs are searched exhaustively up to this many configurations


SEARCH_MAX_DIAL_CONFIGS = 100  # dials: the same, kept smaller so that a request stays quick


MAX_BELIEFS = 50_000


EXHAUST_MAX_CONFIGS = 1 << 15  # coins: whole-table search for "no strategy" up to 15 coins


@lru_cache(maxsize=64)
def classes(v: DevilVariant) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Canonical representative of each class (smallest member), and each configuration's class number."""
    _, maps, _ = tables(v)
    canon = maps.min(axis=0)
    reps = tuple(sorted({int(x) for x in canon}))
    number = {r: i for i, r in enumerate(reps)}
    return reps, tuple(number[int(x)] for x in canon)


def _transitions(v: DevilVariant) -> list[list[int]]:
    """For each canonical move and class: the classes it can become (as bits), goal classes dropped."""
    reps, cls = classes(v)
    _, maps, _ = tables(v)
    won = {cls[g] for g in goal_configs(v)}
    out = []
    for a in reps:
        images = {int(x) for x in maps[:, a]}
        row = []
        for c in reps:
            bits = 0
            for ga in images:
                k = cls[add(v, c, ga)]
                if k not in won:
                    bits |= 1 << k
            row.append(bits)
        out.append(row)
    return out


CHUNK = 8  # classes per lookup in a move's transition tables
MASK = (1 << CHUNK) - 1


def _tables(row: list[int]) -> list[list[int]]:
    """A move's transitions by chunks of CHUNK classes: for each chunk, the classes every subset of it can
    become (so a belief's successor is one lookup per chunk)."""
    out = []
    for base in range(0, len(row), CHUNK):
        part = row[base : base + CHUNK]
        table = [0] * (1 << len(part))
        for subset in range(1, len(table)):
            low = subset & -subset
            table[subset] = table[subset ^ low] | part[low.bit_length() - 1]
        out.append(table)
    return out


def _step(tables: list[list[int]], belief: int) -> int:
    """The belief after a move, from its transition tables."""
    out = 0
    for table in tables:
        if not belief:
            break
        out |= table[belief & MASK]
        belief >>= CHUNK
    return out


@dataclass(frozen=True)
class SearchResult:
    """Shortest strategy found by breadth-first search over beliefs, or proof that none exists."""

    moves: tuple[int, ...] | None
    beliefs_explored: int
    exhausted: bool


def searchable(v: DevilVariant) -> bool:
    """True when the belief search is run for this variant."""
    return v.configs <= (SEARCH_MAX_CONFIGS if v.states == 2 else SEARCH_MAX_DIAL_CONFIGS)


def _searchable(v: DevilVariant) -> None:
    """LimitError unless the belief search is run for this variant."""
    if not searchable(v):
        raise LimitError(f"search is limited to {SEARCH_MAX_CONFIGS} configurations")


@lru_cache(maxsize=64)
def search(v: DevilVariant) -> SearchResult:
    """Breadth-first search over beliefs (sets of classes) for the shortest sure win."""
    _searchable(v)
    return _search(v, _belief_bits(v, ())[0])


def search_from(v: DevilVariant, moves: Sequence[int]) -> SearchResult:
    """The shortest sure win from the position after `moves` (what the blind player knows there is the same,
    whatever the Devil did); its moves do not include those already made."""
    _searchable(v)
    return _search(v, _belief_bits(v, moves)[-1])


def _search(v: DevilVariant, start: int) -> SearchResult:
    """Breadth-first search over beliefs (sets of classes) from a belief to the empty one."""
    reps, _ = classes(v)
    rows = [_tables(row) for row in _transitions(v)]
    if start == 0:
        return SearchResult((), 1, True)  # already won: every configuration is a goal
    parent: dict[int, tuple[int, int]] = {start: (-1, -1)}
    frontier = [start]
    while frontier and len(parent) <= MAX_BELIEFS:
        nxt = []
        for belief in frontier:
            for mi, row in enumerate(rows):
                after = _step(row, belief)
                if after in parent:
                    continue
                parent[after] = (belief, mi)
                if after == 0:
                    return SearchResult(_path(parent, reps), len(parent), True)
                nxt.append(after)
        frontier = nxt
    return SearchResult(None, len(parent), not frontier)


def _path(parent: dict[int, tuple[int, int]], reps: tuple[int, ...]) -> tuple[int, ...]:
    """The moves leading to the empty belief."""
    moves = []
    node = 0
    while parent[node][0] != -1:
        node, mi = parent[node]
        moves.append(reps[mi])
    return tuple(reversed(moves))


def exhaust_configs(v: DevilVariant, tick: Tick = quiet) -> SearchResult:
    """The same breadth-first search on whole configuration sets (NumPy), for coins beyond the class search.

    Beliefs are boolean arrays over all 2^N tables, closed under the Devil's symmetries; a move a maps B to
    the union of B + g(a) over the symmetries g. Used to show exhaustively that no strategy exists for N up to
    15 (reachable beliefs are few: the Devil keeps almost everything alive).
    """
    if v.states != 2:
        raise InputError("the configuration-set search is for coins")
    _, maps, _ = tables(v)
    reps, _ = classes(v)
    idx = np.arange(v.configs, dtype=np.int64)
    images = [sorted({int(x) for x in maps[:, a]}) for a in reps]
    start = np.ones(v.configs, dtype=bool)
    start[goal_configs(v)] = False
    seen = {start.tobytes()}
    frontier = [start]
    while frontier and len(seen) <= MAX_BELIEFS:
        nxt = []
        tick(len(seen), 0)
        for belief in frontier:
            for shifts in images:
                after = np.zeros(v.configs, dtype=bool)
                for ga in shifts:
                    after |= belief[idx ^ ga]
                after[goal_configs(v)] = False
                if not after.any():
                    return SearchResult(None, len(seen), False)  # a win exists; use the class search for it
                key = after.tobytes()
                if key not in seen:
                    seen.add(key)
                    nxt.append(after)
        frontier = nxt
    return SearchResult(None, len(seen), not frontier)


@lru_cache(maxsize=64)
def _class_sizes(v: DevilVariant) -> tuple[int, ...]:
    """How many configurations each class holds."""
    reps, cls = classes(v)
    sizes = [0] * len(reps)
    for k in cls:
        sizes[k] += 1
    return tuple(sizes)


def _configurations(v: DevilVariant, belief: int) -> int:
    """How many configurations (tables) a belief holds."""
    return sum(size for k, size in enumerate(_class_sizes(v)) if belief >> k & 1)


def _best_moves(rows: list[list[list[int]]], belief: int) -> tuple[int, ...]:
    """The moves (indices of canonical moves) that start a shortest sure win from a belief: one breadth-first
    search in which each belief carries the set of first moves that reach it at its depth; () when none is found
    within MAX_BELIEFS beliefs."""
    layer: dict[int, int] = {}
    for mi, row in enumerate(rows):
        after = _step(row, belief)
        layer[after] = layer.get(after, 0) | 1 << mi
    seen = {belief, *layer}
    while layer and 0 not in layer and len(seen) <= MAX_BELIEFS:
        nxt: dict[int, int] = {}
        for b, first in layer.items():
            for row in rows:
                after = _step(row, b)
                if after not in seen:
                    nxt[after] = nxt.get(after, 0) | first
        seen.update(nxt)
        layer = nxt
    first = layer.get(0, 0)
    return tuple(mi for mi in range(len(rows)) if first >> mi & 1)


def _belief_bits(v: DevilVariant, moves: Sequence[int]) -> list[int]:
    """The classes still possible (bits of class numbers) before and after each move (small N only)."""
    reps, cls = classes(v)
    rows = _transitions(v)  # tables built only for the moves made (a few, not every move as in `search`)
    won = {cls[g] for g in goal_configs(v)}
    belief = sum(1 << k for k in range(len(reps)) if k not in won)
    index = {r: i for i, r in enumerate(reps)}
    out = [belief]
    for a in moves:
        belief = _step(_tables(rows[index[int(tables(v)[1][:, a].min())]]), belief)
        out.append(belief)
    return out


def belief_classes(v: DevilVariant, moves: Sequence[int]) -> list[list[int]]:
    """The classes (as canonical configurations) still possible before and after each move (small N only)."""
    reps, _ = classes(v)
    return [[reps[k] for k in range(len(reps)) if belief >> k & 1] for belief in _belief_bits(v, moves)]


def _fewest(rows: list[list[list[int]]], belief: int) -> int | None:
    """The fewest moves that surely empty a belief, by breadth-first search; None when none does (or none is found
    within MAX_BELIEFS beliefs)."""
    seen, frontier, depth = {belief}, [belief], 0
    if belief == 0:
        return 0
    while frontier and len(seen) <= MAX_BELIEFS:
        depth += 1
        nxt = []
        for b in frontier:
            for row in rows:
                after = _step(row, b)
                if after == 0:
                    return depth
                if after not in seen:
                    seen.add(after)
                    nxt.append(after)
        frontier = nxt
    return None


@dataclass(frozen=True)
class DevilLesson:
    """What the last move was worth: the fewest moves still surely winning before it and after it (None: no sure
    win from there); the tables (configurations) the Devil could still have before it and after it, and the
    fewest a best move (one that starts a shortest sure win) would have left (None: no best move known)."""

    before: int | None
    after: int | None
    tables_before: int = 0
    tables_after: int = 0
    best_left: int | None = None

    @property
    def cost(self) -> int | None:
        """Moves the last one cost against a best move (0 for a best one); None when it cannot be said (no sure
        win before it, or none after: see `lost`)."""
        if self.before is None or self.after is None:
            return None
        return self.after + 1 - self.before

    @property
    def lost(self) -> bool:
        """Whether the move lost a sure win that existed before it."""
        return self.before is not None and self.after is None


def devil_lesson(v: DevilVariant, moves: Sequence[int]) -> DevilLesson | None:
    """The fewest moves that surely win against any Devil from the tables still possible before and after the last
    move (the player is blind, so the tables still possible are the same whatever the Devil did); None before a
    move, or where the belief search is too large."""
    if not moves or not searchable(v):
        return None
    rows = [_tables(row) for row in _transitions(v)]
    *_, before, after = _belief_bits(v, moves)
    best = [_configurations(v, _step(rows[mi], before)) for mi in _best_moves(rows, before)]
    return DevilLesson(
        _fewest(rows, before),
        _fewest(rows, after),
        _configurations(v, before),
        _configurations(v, after),
        min(best) if best else None,
    )

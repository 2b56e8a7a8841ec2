"""Fewest moves on any board (a move is a chain of jumps by one coin), proved by IDA*: iterative deepening on the
number of moves with an admissible lower bound, compiled with Numba.

The bound counts full Merson regions: sets of holes R such that every jump over a coin in R starts or lands in R.
While R is full no jump can land in it, so the first jump that changes a full region starts in it; a chain that
arrives from elsewhere would need an empty hole to land on. A full region must change before the end (unless it is
the finish hole alone), so each needs a move that starts in it, and a move starts on one hole: the number of full
regions in a disjoint family is a lower bound on the moves left. (Counting regions that are merely occupied is not a
bound: one chain can pass through several regions and empty each.) A depth bound that fails for every smaller number
of moves, with that bound and a table of positions already searched with at least as many moves left (up to the
symmetries that keep the finish hole in place), proves the number found is the fewest.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from .board import Board, Move
from .compiled import TABLE_BITS, _canonical, _lut, _popcount
from .invariant import class_finals

MAX_REGION = 4  # Merson regions of up to this many holes are searched for
BUFFER = 1 << 17  # children of the positions on the current path
PROBES = 16  # slots looked at before an older position in the table is replaced


def is_merson(b: Board, region: set[int]) -> bool:
    """Every jump over a coin in the region starts or lands in it."""
    return all(f in region or t in region for f, o, t in b.jumps if o in region)


def merson_regions(b: Board) -> list[frozenset[int]]:
    """As many disjoint small Merson regions as possible: every connected one of up to MAX_REGION holes, none
    containing a smaller one, then the largest disjoint family (exhaustive over the candidates)."""
    near: dict[int, set[int]] = {h: set() for h in range(b.size)}
    for f, o, _ in b.jumps:
        near[f].add(o)
        near[o].add(f)
    found: list[frozenset[int]] = []
    for k in range(1, MAX_REGION + 1):
        for holes in combinations(range(b.size), k):
            region = frozenset(holes)
            if any(r < region for r in found) or not is_merson(b, set(region)):
                continue
            seen, todo = {holes[0]}, [holes[0]]
            while todo:
                for y in near[todo.pop()] & region - seen:
                    seen.add(y)
                    todo.append(y)
            if len(seen) == k:
                found.append(region)
    best: list[frozenset[int]] = []

    def choose(i: int, chosen: list[frozenset[int]], used: frozenset[int]) -> None:
        nonlocal best
        if len(chosen) + len(found) - i <= len(best):
            return
        if i == len(found):
            best = list(chosen)
            return
        if not found[i] & used:
            choose(i + 1, [*chosen, found[i]], used | found[i])
        choose(i + 1, chosen, used)

    choose(0, [], frozenset())
    return best


def lower_bound(regions: list[frozenset[int]], pos: int) -> int:
    """Moves still needed at least: the full regions of the family."""
    return sum(1 for r in regions if all(pos >> h & 1 for h in r))


@njit(cache=True)
def _bound(pos: np.int64, masks: NDArray[np.int64]) -> int:  # pragma: no cover - compiled
    n = 0
    for m in masks:
        if pos & m == m:
            n += 1
    return n


@njit(cache=True)
def _children(
    pos: np.int64,
    starts: NDArray[np.int64],
    over: NDArray[np.int64],
    to: NDArray[np.int64],
    out: NDArray[np.int64],
    at: int,
) -> int:  # pragma: no cover - compiled
    """Every position one move (a chain of one or more jumps by one coin) away, written at out[at:]."""
    n = 0
    chain_pos = np.zeros(64, dtype=np.int64)
    chain_hole = np.zeros(64, dtype=np.int64)
    size = starts.shape[0] - 1
    for h in range(size):
        if not (pos >> h) & 1:
            continue
        top = 0
        chain_pos[0] = pos
        chain_hole[0] = h
        top = 1
        while top > 0:
            top -= 1
            p = chain_pos[top]
            c = chain_hole[top]
            for j in range(starts[c], starts[c + 1]):
                o, t = over[j], to[j]
                if (p >> o) & 1 and not (p >> t) & 1:
                    q = p ^ ((np.int64(1) << c) | (np.int64(1) << o) | (np.int64(1) << t))
                    if at + n >= out.shape[0]:
                        return -1
                    out[at + n] = q
                    n += 1
                    chain_pos[top] = q
                    chain_hole[top] = t
                    top += 1
    return n


@njit(cache=True)
def _ida(
    start: np.int64,
    goal: np.int64,
    first_bound: int,
    last_bound: int,
    starts: NDArray[np.int64],
    over: NDArray[np.int64],
    to: NDArray[np.int64],
    masks: NDArray[np.int64],
    lut: NDArray[np.int64],
    keys: NDArray[np.int64],
    depths: NDArray[np.int8],
    node_limit: np.int64,
) -> tuple[int, int, NDArray[np.int64], np.int64]:  # pragma: no cover - compiled
    """Iterative deepening from first_bound to last_bound. Returns (fewest moves or -1 if none within
    last_bound or -2 if out of nodes, the bound reached, the positions along the solution, nodes)."""
    mask = np.int64(keys.shape[0] - 1)
    buf = np.zeros(BUFFER, dtype=np.int64)
    base = np.zeros(65, dtype=np.int64)
    count = np.zeros(65, dtype=np.int64)
    index = np.zeros(65, dtype=np.int64)
    path = np.zeros(65, dtype=np.int64)
    nodes = np.int64(0)
    if start == goal:
        path[0] = start
        return 0, 0, path, nodes
    for bound in range(first_bound, last_bound + 1):
        keys[:] = 0
        path[0] = start
        base[0] = 0
        count[0] = _children(start, starts, over, to, buf, 0)
        index[0] = 0
        d = 0
        while d >= 0:
            if index[d] == count[d]:
                d -= 1
                continue
            q = buf[base[d] + index[d]]
            index[d] += 1
            g = d + 1
            if q == goal:
                path[g] = q
                return g, bound, path, nodes
            # a position that is not the goal needs at least one more move, and at least the bound
            if g + max(_bound(q, masks), 1) > bound or _popcount(q) == 1:
                continue
            key = _canonical(q, lut) + 1
            home = (key * np.int64(0x9E3779B97F4A7C15)) & mask
            slot = home
            seen = False
            for _ in range(PROBES):
                if keys[slot] == key:
                    seen = True
                    break
                if keys[slot] == 0:
                    break
                slot = (slot + 1) & mask
            if seen:
                if depths[slot] <= g:
                    continue
                depths[slot] = g
            else:
                if keys[slot] != 0:
                    slot = home  # crowded: forget an older position (the search stays complete, only less pruned)
                keys[slot] = key
                depths[slot] = g
            nodes += 1
            if nodes > node_limit:
                return -2, bound, path, nodes
            d += 1
            path[d] = q
            base[d] = base[d - 1] + count[d - 1]
            c = _children(q, starts, over, to, buf, base[d])
            if c < 0:
                return -2, bound, path, nodes
            count[d] = c
            index[d] = 0
    return -1, last_bound, path, nodes


@dataclass(frozen=True)
class Fewest:
    """The fewest moves to one coin on the finish hole (None: none within the bound searched, or not decided),
    the moves, whether it is proved, the lower bound at the start, and the positions searched."""

    moves: int | None
    solution: list[Move]
    proved: bool
    start_bound: int
    nodes: int
    status: str


def fewest_moves(
    b: Board, pos: int, finish: int, node_limit: int = 2_000_000_000, table_bits: int = TABLE_BITS
) -> Fewest:
    """The fewest moves from a position to one coin on the finish hole, by IDA* with the Merson-region bound."""
    regions = [r for r in merson_regions(b) if r != {finish}]
    masks = np.array([sum(1 << h for h in r) for r in regions], dtype=np.int64)
    first = lower_bound(regions, pos)
    if bin(pos).count("1") > 1 and finish not in class_finals(b, pos):
        return Fewest(None, [], True, first, 0, "position class")
    order = sorted(range(len(b.jumps)), key=lambda j: b.jumps[j][0])
    starts = np.zeros(b.size + 1, dtype=np.int64)
    for j in order:
        starts[b.jumps[j][0] + 1] += 1
    starts = np.cumsum(starts)
    over = np.array([b.jumps[j][1] for j in order], dtype=np.int64)
    to = np.array([b.jumps[j][2] for j in order], dtype=np.int64)
    lut = _lut([p for p in b.symmetries if p[finish] == finish], b.size)
    keys = np.zeros(1 << table_bits, dtype=np.int64)
    depths = np.zeros(1 << table_bits, dtype=np.int8)
    last = bin(pos).count("1") - 1  # every move removes at least one coin
    found, _, path, nodes = _ida(
        np.int64(pos),
        np.int64(1 << finish),
        first,
        last,
        starts,
        over,
        to,
        masks,
        lut,
        keys,
        depths,
        np.int64(node_limit),
    )
    if found == -2:
        return Fewest(None, [], False, first, int(nodes), "out of nodes")
    if found == -1:
        return Fewest(None, [], True, first, int(nodes), "no solution")
    positions = [int(x) for x in path[: found + 1]]
    return Fewest(
        found,
        [_move_between(b, p, q) for p, q in zip(positions, positions[1:], strict=False)],
        True,
        first,
        int(nodes),
        "proved",
    )


def _move_between(b: Board, p: int, q: int) -> Move:
    """The chain of jumps that takes position p to q in one move (found by a small search)."""
    for h in range(b.size):
        if not p >> h & 1:
            continue
        todo: list[tuple[int, Move]] = [(p, (h,))]
        while todo:
            cur, move = todo.pop()
            for f, o, t in b.jumps:
                if f == move[-1] and cur >> o & 1 and not cur >> t & 1:
                    nxt = cur ^ (1 << f | 1 << o | 1 << t)
                    if nxt == q:
                        return (*move, t)
                    todo.append((nxt, (*move, t)))
    raise AssertionError("consecutive positions of a solution are not one move apart")

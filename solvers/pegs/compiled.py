"""Compiled depth-first search (Numba) for boards too large for exact layers: any solution to one coin, on a
finish hole or anywhere, with a table of dead positions up to the symmetries that keep the finish hole in place.

A search that runs to the end without a solution is a proof of unsolvability: a position is recorded as dead
only after every jump from it has been tried (and led to dead positions), and a symmetric image of a dead
position is dead because the goal is symmetric under the same permutations. The table is an open-addressing
hash set in a NumPy array (canonical position + 1; 0 marks an empty slot); if it fills up, the search stops and
says so instead of claiming anything.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from solvers.jit import kernel

from .board import Board, Jump

TABLE_BITS = 25  # 2^25 slots = 256 MiB: room for about 23 million dead positions at a load of 0.7
FOUND, EXHAUSTED, OUT_OF_NODES, TABLE_FULL = 0, 1, 2, 3


class Moves(NamedTuple):
    """A board's jumps as the kernel reads them: jump j takes the coin on frm[j] over over[j] to to[j]."""

    frm: NDArray[np.int64]
    over: NDArray[np.int64]
    to: NDArray[np.int64]


def jump_rows(b: Board) -> NDArray[np.int64]:
    """The board's jumps as rows (from, over, to)."""
    return np.array(b.jumps, dtype=np.int64).reshape(-1, 3)


@kernel
def _canonical(pos: np.int64, lut: NDArray[np.int64]) -> np.int64:  # pragma: no cover - compiled
    """The smallest image of a position under the symmetries: lut[s, k, b] is the image under symmetry s of byte
    value b placed at byte k of the position, so an image is the OR of one look-up per byte."""
    best = pos
    for s in range(lut.shape[0]):
        img = np.int64(0)
        for k in range(lut.shape[1]):
            img |= lut[s, k, (pos >> (8 * k)) & 255]
        if img < best:
            best = img
    return best


def _lut(perms: list[tuple[int, ...]], size: int) -> NDArray[np.int64]:
    """Byte look-up tables of the symmetries for _canonical."""
    nbytes = (size + 7) // 8
    lut = np.zeros((len(perms), nbytes, 256), dtype=np.int64)
    for s, perm in enumerate(perms):
        for k in range(nbytes):
            for value in range(256):
                img = 0
                for bit in range(8):
                    h = 8 * k + bit
                    if value >> bit & 1 and h < size:
                        img |= 1 << perm[h]
                lut[s, k, value] = img
    return lut


@kernel
def _popcount(x: np.int64) -> int:  # pragma: no cover - compiled
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@kernel
def _slot(table: NDArray[np.int64], key: np.int64) -> np.int64:  # pragma: no cover - compiled
    """The dead-position table's slot holding key, or the empty slot where it would go (linear probing)."""
    size_mask = np.int64(table.shape[0] - 1)
    slot = (key * np.int64(0x9E3779B97F4A7C15)) & size_mask
    while table[slot] != 0 and table[slot] != key:
        slot = (slot + 1) & size_mask
    return slot


@kernel
def _next_jump(pos: np.int64, moves: Moves, j: np.int64) -> np.int64:  # pragma: no cover - compiled
    """The first jump from index j on that pos allows (the number of jumps when there is none)."""
    frm, over, to = moves
    while j < frm.shape[0]:
        if (pos >> frm[j]) & 1 and (pos >> over[j]) & 1 and not (pos >> to[j]) & 1:
            return j
        j += 1
    return j


@kernel
def _dfs(
    start: np.int64,
    moves: Moves,
    lut: NDArray[np.int64],
    finish: np.int64,
    node_limit: np.int64,
    table: NDArray[np.int64],
    stored: np.int64,
) -> tuple[int, np.int64, NDArray[np.int64], int, np.int64]:  # pragma: no cover - compiled
    """Iterative depth-first search from a table holding `stored` dead positions already. Returns (status, nodes,
    the jump indices of a solution, its length, the dead positions now stored)."""
    capacity = np.int64(table.shape[0] * 7 // 10)
    depth_max = _popcount(start)
    stack_pos = np.zeros(depth_max + 1, dtype=np.int64)
    stack_next = np.zeros(depth_max + 1, dtype=np.int64)
    stack_key = np.zeros(depth_max + 1, dtype=np.int64)
    path = np.zeros(depth_max + 1, dtype=np.int64)
    frm, over, to = moves
    n_jumps = frm.shape[0]
    nodes = np.int64(0)
    d = 0
    stack_pos[0] = start
    stack_next[0] = 0
    while d >= 0:
        pos = stack_pos[d]
        if stack_next[d] == 0:
            # first visit: goal, dead-table look-up, node budget
            if _popcount(pos) == 1 and (finish < 0 or pos == (np.int64(1) << finish)):
                return FOUND, nodes, path, d, stored
            key = _canonical(pos, lut) + 1
            stack_key[d] = key
            if table[_slot(table, key)] == key:
                d -= 1
                continue
            nodes += 1
            if nodes > node_limit:
                return OUT_OF_NODES, nodes, path, 0, stored
        j = _next_jump(pos, moves, stack_next[d])
        if j < n_jumps:
            stack_next[d] = j + 1
            path[d] = j
            stack_pos[d + 1] = pos ^ ((np.int64(1) << frm[j]) | (np.int64(1) << over[j]) | (np.int64(1) << to[j]))
            stack_next[d + 1] = 0
            d += 1
            continue
        # every jump tried: this position is dead
        slot = _slot(table, stack_key[d])
        if table[slot] == 0:
            table[slot] = stack_key[d]
            stored += 1
            if stored > capacity:
                return TABLE_FULL, nodes, path, 0, stored
        d -= 1
    return EXHAUSTED, nodes, path, 0, stored


@kernel
def _rehash(old: NDArray[np.int64], new: NDArray[np.int64]) -> None:  # pragma: no cover - compiled
    """Every key of one table into another (larger) one."""
    for key in old:
        if key != 0:
            new[_slot(new, key)] = key


class DeadTable:
    """The dead positions found so far for one goal (a finish hole, or anywhere) and its symmetries: a position
    is dead whatever order the jumps are tried in, so each search of a portfolio starts with the others' dead
    positions; the table grows (rehashed) to keep room for the next search's."""

    def __init__(self, b: Board, finish: int | None, table_bits: int = 16) -> None:
        """An empty table for a goal."""
        self.lut = _lut([p for p in b.symmetries if finish is None or p[finish] == finish], b.size)
        self.slots = np.zeros(1 << table_bits, dtype=np.int64)
        self.stored = 0

    def room_for(self, nodes: int) -> None:
        """Grow, up to 2^TABLE_BITS slots, so that `nodes` more dead positions stay under a load of 0.7 (each node
        expanded adds at most one)."""
        need = min(TABLE_BITS, max(16, ((self.stored + nodes) * 10 // 7 + 1).bit_length()))
        if need > self.slots.size.bit_length() - 1:
            bigger = np.zeros(1 << need, dtype=np.int64)
            _rehash(self.slots, bigger)
            self.slots = bigger


@dataclass(frozen=True)
class DepthFirst:
    """The outcome of one compiled search: a solution (jumps), a proof of none (exhausted), or neither."""

    jumps: tuple[Jump, ...] | None
    exhausted: bool
    nodes: int
    status: str


def search(
    b: Board,
    pos: int,
    finish: int | None = None,
    node_limit: int = 10**9,
    table_bits: int | None = None,
    dead: DeadTable | None = None,
) -> DepthFirst:
    """Any solution from a position (to one coin on `finish`, or anywhere), by the compiled search. The table of
    dead positions (a new one unless `dead` is given, the same goal's) gets room for node_limit more of them (or
    table_bits, if given, for a new one), at most 2^TABLE_BITS slots: a search of 200,000 nodes clears 4 MiB, not
    256."""
    if dead is None:
        dead = DeadTable(b, finish, table_bits or 16)
    if table_bits is None:
        dead.room_for(node_limit)
    rows = jump_rows(b)
    moves = Moves(*(np.ascontiguousarray(rows[:, k]) for k in range(3)))
    goal, limit = np.int64(-1 if finish is None else finish), np.int64(node_limit)
    status, nodes, path, length, stored = _dfs(
        np.int64(pos), moves, dead.lut, goal, limit, dead.slots, np.int64(dead.stored)
    )
    dead.stored = int(stored)
    names = {FOUND: "found", EXHAUSTED: "exhausted", OUT_OF_NODES: "node limit", TABLE_FULL: "table full"}
    jumps = tuple(b.jumps[int(i)] for i in path[:length]) if status == FOUND else None
    return DepthFirst(jumps, status == EXHAUSTED, int(nodes), names[status])


def _orderings(b: Board) -> list[Board]:
    """The board with its jumps in three orders, tried in turn: as listed, 'land near the middle, jump an outer
    coin', and 'move the outermost coin first' (which order finds a solution fast differs from start to start)."""
    cx = sum(x for x, _ in b.points) / b.size
    cy = sum(y for _, y in b.points) / b.size
    dist = [(x - cx) ** 2 + (y - cy) ** 2 for x, y in b.points]
    inward = sorted(b.jumps, key=lambda j: dist[j[2]] - dist[j[1]])
    outward = sorted(b.jumps, key=lambda j: -dist[j[0]])
    return [b, *(Board(b.name, b.labels, b.points, tuple(js), b.symmetries, b.colourings) for js in (inward, outward))]


def solve(b: Board, pos: int, finish: int | None = None, budget: int = 60_000_000) -> DepthFirst:
    """A portfolio of compiled searches: each jump order with a node limit that grows fourfold per round, until
    one finds a solution or exhausts the position (a proof), or the node budget is spent (unknown); each search
    skips the dead positions the earlier ones found."""
    limit, spent, last = 200_000, 0, DepthFirst(None, False, 0, "node limit")
    dead = DeadTable(b, finish)  # shared by every search of the portfolio: the same goal, the same dead positions
    while spent < budget:
        for ordered in _orderings(b):
            last = search(ordered, pos, finish, min(limit, budget - spent) or 1, dead=dead)
            spent += last.nodes
            if last.status in ("found", "exhausted"):
                return DepthFirst(last.jumps, last.exhausted, spent, last.status)
            if spent >= budget:
                break
        limit *= 4
    return DepthFirst(None, False, spent, last.status)

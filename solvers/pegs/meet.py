"""Fewest moves by bidirectional search over levels: positions with the same number of coins, forward from the
start and backward from the finish (`levels`), until the two meet at one level.

Every jump removes one coin, so a solution passes through exactly one position of each level. Where the two
searches meet, a solution costs the forward moves plus the backward moves, less one when the forward move ends
on the hole where the backward one starts (one chain of jumps). Both searches keep only states that a solution of
at most `limit` moves can pass through, so the best total met is exact when it is at most the limit, and with no
total at most the limit every solution is longer: the search raises the limit from the starting bound until that
is settled, so the count is proved. Positions are reduced by the symmetries that fix the start and the finish.
The moves are then traced by two small one-way searches that keep every level: from the start to the meeting
position, and from it to the finish.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from solvers.errors import LimitError
from solvers.jit import kernel
from solvers.progress import Tick, quiet

from .board import Board, Jump, Move
from .compiled import _lut, jump_rows
from .fewest import Fewest, lower_bound, merson_regions
from .invariant import class_finals
from .levels import BITS, BUCKET_BITS, D_SHIFT, KEY_MASK, ODD, Meet
from .rules import image, jumps_to_moves, pegs
from .storage import Held, Level, Memory, SearchState, Spill


@kernel
def _join(
    fpos: NDArray[np.int64], finfo: NDArray[np.int64], bpos: NDArray[np.int64], binfo: NDArray[np.int64]
) -> tuple[int, int, int, int]:  # pragma: no cover - compiled
    """Merge two sides sorted by key: the fewest total moves over the positions both hold (-1: none), the
    indices of one position that gives it, and how many positions they share."""
    mult = np.uint64(0x2545F4914F6CDD1D & ((1 << 50) - 1) | 1)
    keymask = np.uint64((1 << 50) - 1)
    low = (np.int64(1) << 52) - 1
    i = j = 0
    best, bi, bj, shared = -1, -1, -1, 0
    while i < fpos.shape[0] and j < bpos.shape[0]:
        ki = (np.uint64(fpos[i]) * mult) & keymask
        kj = (np.uint64(bpos[j]) * mult) & keymask
        if ki < kj:
            i += 1
        elif kj < ki:
            j += 1
        else:
            shared += 1
            total = (finfo[i] >> 52) + (binfo[j] >> 52) - (1 if finfo[i] & binfo[j] & low else 0)
            if best < 0 or total < best:
                best, bi, bj = total, i, j
            i += 1
            j += 1
    return best, bi, bj, shared


def _flat(level: Level) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """A level's parts as one pair of arrays (still in key order)."""
    loaded = [p.load() for p in level.parts]
    empty = np.zeros(0, dtype=np.int64)
    return np.concatenate([p for p, _ in loaded] or [empty]), np.concatenate([i for _, i in loaded] or [empty])


def _state(pos: int, moves: int, mask: int) -> Level:
    """A level holding one state."""
    bucket = int(((pos * ODD) & KEY_MASK) >> (BITS - BUCKET_BITS))
    info = np.array([moves << D_SHIFT | mask], dtype=np.int64)
    return Level(pegs(pos), [Held(bucket, bucket + 1, np.array([pos], dtype=np.int64), info)])


def _meet_sides(f: Level, k: Level) -> tuple[int, int, int, int, int]:
    """The fewest total moves over the positions both sides hold (-1: none), one position giving it with its
    forward and backward infos, and how many positions they share: the parts that cover the same buckets are
    merged pair by pair (both sides' parts follow each other in key order)."""
    best, where, finfo, binfo, shared = -1, 0, 0, 0, 0
    i = j = 0
    while i < len(f.parts) and j < len(k.parts):
        a, b = f.parts[i], k.parts[j]
        if a.lo < b.hi and b.lo < a.hi:
            fp, fi = a.load()
            kp, ki = b.load()
            total, x, y, n = _join(fp, fi, kp, ki)
            shared += n
            if total >= 0 and (best < 0 or total < best):
                best, where, finfo, binfo = int(total), int(fp[x]), int(fi[x]), int(ki[y])
        if a.hi <= b.hi:
            i += 1
        else:
            j += 1
    return best, where, finfo, binfo, shared


@dataclass(frozen=True)
class Meeting:
    """Where the two sides met: the fewest total moves (None: none within the limit), the position, the forward
    moves and holes there, the backward moves and holes, the states built and the positions shared."""

    total: int | None
    position: int
    forward: tuple[int, int]
    backward: tuple[int, int]
    states: int
    shared: int


class Resumable(NamedTuple):
    """Where a search's levels are kept (`spill`), and the states built for earlier limits, saved with them."""

    spill: Spill
    earlier: int = 0


def meet(
    b: Board,
    pos: int,
    finish: int,
    limit: int,
    max_states: int,
    tick: Tick = quiet,
    sharp: bool = True,
    kept: Resumable | None = None,
) -> Meeting:
    """One bidirectional search for solutions of at most `limit` moves (the best total met is exact when it is
    at most the limit; None or a larger total means there is none within it). sharp=False: the former forward
    bound (one subtracted at every state), kept for the benchmark's baseline. kept: where the levels are kept
    (default: in memory); the search is saved there after every level and resumes from a saved search of the same
    limit."""
    spill, earlier = kept if kept is not None else Resumable(Memory())
    goal = 1 << finish
    regions = [r for r in merson_regions(b) if r != {finish}]
    fwd = np.array([sum(1 << h for h in r) for r in regions], dtype=np.int64)
    bwd = np.array([m for m in fwd if pos & m == m], dtype=np.int64)
    perms = [p for p in b.symmetries if image(p, pos) == pos and p[finish] == finish]
    search = Meet(jump_rows(b), fwd, _lut(perms, b.size), max_states, sharp)
    saved = spill.restore()
    if saved is not None and saved.limit == limit:
        f, k, search.states = saved.forward, saved.backward, saved.states
    else:
        if saved is not None:
            spill.drop(saved.forward)
            spill.drop(saved.backward)
        f, k = _state(pos, 0, 0), _state(goal, 0, 0)
    steps = pegs(pos) - 1
    while f.coins > k.coins and f.size and k.size:
        tick(steps - (f.coins - k.coins), steps)
        if f.size <= k.size:
            f, old = search.step(f, False, fwd, limit, spill=spill), f
        else:
            k, old = search.step(k, True, bwd, limit, spill=spill), k
        spill.save(SearchState(limit, earlier, search.states, f, k))
        spill.drop(old)
    best, where, finfo, binfo, shared = _meet_sides(f, k)
    low = (1 << D_SHIFT) - 1
    if best < 0:
        return Meeting(None, 0, (0, 0), (0, 0), search.states, shared)
    return Meeting(best, where, (finfo >> D_SHIFT, finfo & low), (binfo >> D_SHIFT, binfo & low), search.states, shared)


def _one_way(
    b: Board, start: Level, masks: NDArray[np.int64], target: int, limit: int, stop: int, max_states: int
) -> dict[int, tuple[NDArray[np.int64], NDArray[np.int64]]]:
    """Forward levels from a state down to `stop` coins, every level kept (by coins: positions sorted, infos)."""
    search = Meet(jump_rows(b), masks, _lut([tuple(range(b.size))], b.size), max_states)
    levels = {}
    level = start
    while True:
        p, i = _flat(level)
        order = np.argsort(p)
        levels[level.coins] = (p[order], i[order])
        if level.coins == stop:
            return levels
        level = search.step(level, False, masks, limit, target)


def _lookup(levels: dict[int, tuple[NDArray[np.int64], NDArray[np.int64]]], pos: int) -> tuple[int, int] | None:
    """A position's (moves, holes) in the kept levels, or None."""
    got = levels.get(pegs(pos))
    if got is None:
        return None
    p, i = got
    k = int(np.searchsorted(p, pos))
    if k < len(p) and int(p[k]) == pos:
        return int(i[k]) >> D_SHIFT, int(i[k]) & ((1 << D_SHIFT) - 1)
    return None


def _trace(
    b: Board,
    levels: dict[int, tuple[NDArray[np.int64], NDArray[np.int64]]],
    start: int,
    end: int,
    cost: int,
    hole: int | None,
) -> tuple[list[Jump], int | None]:
    """The jumps from start to end at this cost (the last landing on `hole` when given), read back through the
    kept levels; and the hole the first jump continues from when it is free (it extends the start's move)."""
    out: list[Jump] = []
    p, c, h = end, cost, hole
    while p != start or c > 0:
        here = _lookup(levels, p)
        assert here is not None and (h is not None or here[0] == c)
        for f, o, t in b.jumps:
            if (h is not None and t != h) or (h is None and not here[1] >> t & 1):
                continue
            if not p >> t & 1 or p >> f & 1 or p >> o & 1:
                continue
            q = p ^ (1 << f | 1 << o | 1 << t)
            prev = _lookup(levels, q)
            if prev is None:
                continue
            if prev[1] >> f & 1 and prev[0] == c:
                p, h = q, f
            elif prev[0] + 1 == c:
                p, c, h = q, prev[0], None
            else:
                continue
            out.append((f, o, t))
            break
        else:
            raise AssertionError("a fewest-moves trace lost its way")
    return out[::-1], h


MAX_STATES = 400_000_000  # states held at once (16 bytes each)


def fewest_meet(
    b: Board,
    pos: int,
    finish: int,
    max_states: int = MAX_STATES,
    tick: Tick = quiet,
    sharp: bool = True,
    spill: Spill | None = None,
    start_limit: int = 0,
) -> Fewest:
    """The fewest moves from a position to one coin on the finish hole, proved by raising the limit of the
    bidirectional search from the Merson bound (or start_limit, if higher) until a total within one of it is met
    (sharp: see meet). Any start is a proof: a search with limit L finds the fewest moves exactly when they are at
    most L, so a total of at most L + 1 met there is the fewest; a start above the Merson bound only skips the
    cheaper searches of lower limits (worth it when they are known to fail, and costly when not). With a spill
    that saves (the web app's disk spill), a restart resumes at the limit and level last saved."""
    goal = 1 << finish
    regions = [r for r in merson_regions(b) if r != {finish}]
    first = max(lower_bound(regions, pos), 1)
    if pos == goal:
        return Fewest(0, [], True, 0, 0, "proved")
    if pegs(pos) == 1 or finish not in class_finals(b, pos):
        return Fewest(None, [], True, first, 0, "position class")
    spill = spill if spill is not None else Memory()
    saved = spill.restore()
    begin, states = (max(first, start_limit, saved.limit), saved.earlier) if saved else (max(first, start_limit), 0)
    for limit in range(begin, pegs(pos)):
        try:
            m = meet(b, pos, finish, limit, max_states, tick, sharp, Resumable(spill, states))
        except LimitError:
            return Fewest(None, [], False, first, states, "out of nodes")
        states += m.states
        if m.total is not None and m.total <= limit + 1:
            return Fewest(m.total, _solution(b, pos, finish, m, max_states), True, first, states, "proved")
    return Fewest(None, [], True, first, states, "no solution")


def _solution(b: Board, pos: int, finish: int, m: Meeting, max_states: int) -> list[Move]:
    """The moves of a meeting, traced by two one-way searches that keep their levels, checked move by move."""
    assert m.total is not None
    goal = 1 << finish
    regions = np.array([sum(1 << h for h in r) for r in merson_regions(b) if r != {finish}], dtype=np.int64)
    (df, mf), _ = m.forward, m.backward
    rest = m.total - df
    after = _one_way(b, _state(m.position, 0, mf), regions, -1, rest, 1, max_states)
    tail, joined = _trace(b, after, m.position, goal, rest, None)
    before = _one_way(b, _state(pos, 0, 0), regions, m.position, df, pegs(m.position), max_states)
    head, _ = _trace(b, before, pos, m.position, df, joined)
    moves = jumps_to_moves(head + tail)
    assert len(moves) == m.total, "the traced solution has a different number of moves"
    return moves

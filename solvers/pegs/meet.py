"""Fewest moves by bidirectional search over levels (Numba): positions with the same number of coins, forward
from the start and backward from the finish, until the two meet at one level.

Every jump removes one coin, so a solution passes through exactly one position of each level. A state is a
position with the fewest moves that reach it (from the start, or to the finish when searching backward) and the
holes its last move can go on from at that cost: the coin that just landed (forward), or the coin whose move
starts there (backward). A jump by that coin costs nothing, any other jump one move. Where the two searches meet,
a solution costs the forward moves plus the backward moves, less one when the forward move ends on the hole
where the backward one starts (one chain of jumps).

Both searches drop a state only when no solution of at most `limit` moves can pass through it. Forward, the full
Merson regions still need a move each (solvers/pegs/fewest.py), except that the move under way may go on from the
coin that just landed: that serves the full region holding the coin, if there is one, and no other (a chain cannot
land in a full region), so one is subtracted only then. Backward, every region that was full at the start and is
not full now needed a move that started in it while it was full, and one move starts in one region (a later jump
of a chain starts on a hole that was empty when the move began); the last of those moves may be the one the
position's first move goes on from, so one is subtracted. The best total met is therefore exact when it is at
most the limit, and with no total at most the limit every solution is longer: the search raises the limit from
the starting bound until that is settled, so the count is proved. (Subtracting one at every forward state, as
this search first did, is also admissible but weaker: on the French board's c1 to e1 it keeps 37.9 million states
within 17 moves where this keeps 4.9 million.)

Positions are stored as a bijective scramble of their bits (multiplication by an odd number modulo 2^50), so the
top bits spread them over 256 buckets. A level is built a few buckets at a time (every parent expanded once per
batch), sorted and reduced, which bounds the memory to the levels themselves, and the batches come out in key
order, so the two sides meet by a merge. Positions are reduced by the symmetries that fix the start and the
finish. The moves are then traced by two small one-way searches that keep every level: from the start to the
meeting position, and from it to the finish.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import prange
from numpy.typing import NDArray

from solvers.errors import LimitError
from solvers.jit import kernel, parallel_kernel
from solvers.progress import Tick, quiet

from .board import Board, Jump, Move
from .compiled import _lut
from .fewest import Fewest, lower_bound, merson_regions
from .invariant import class_finals
from .rules import image, jumps_to_moves, pegs

BITS = 50  # positions and masks of boards up to 50 holes
KEY_MASK = (1 << BITS) - 1
ODD = 0x2545F4914F6CDD1D & KEY_MASK | 1  # key = position * ODD mod 2^50, a bijection
ODD_INV = pow(ODD, -1, 1 << BITS)
BUCKET_BITS = 8
BATCH = 1 << 25  # children sorted at a time (256 MiB)
CHUNKS = 64  # each level's states are expanded in this many parallel chunks
D_SHIFT = 52  # a state's info: its moves above bit 52, the holes its last move can go on from below


@kernel
def _image(x: np.int64, lut: NDArray[np.int64], s: int) -> np.int64:  # pragma: no cover - compiled
    """A set of holes under the s-th symmetry: one look-up per byte."""
    img = np.int64(0)
    for k in range(lut.shape[1]):
        img |= lut[s, k, (x >> (8 * k)) & 255]
    return img


@kernel
def _canon(p: np.int64, m: np.int64, lut: NDArray[np.int64]) -> tuple[np.int64, np.int64]:  # pragma: no cover
    """The smallest image of a position under the symmetries, and the union of its mask's images under every
    symmetry that gives that image."""
    best = p
    for s in range(lut.shape[0]):
        best = min(best, _image(p, lut, s))
    bm = np.int64(0)
    for s in range(lut.shape[0]):
        if _image(p, lut, s) == best:
            bm |= _image(m, lut, s)
    return best, bm


@kernel
def _regions_left(p: np.int64, masks: NDArray[np.int64], back: bool) -> int:  # pragma: no cover - compiled
    """Forward: full regions. Backward: regions (all full at the start) that are not full now."""
    n = 0
    for m in masks:
        full = (p & m) == m
        if full != back:
            n += 1
    return n


@kernel
def _children(
    p: np.int64,
    state: np.int64,
    jumps: NDArray[np.int64],
    back: bool,
    masks: NDArray[np.int64],
    target: np.int64,
    limit: int,
    sharp: bool,
    lut: NDArray[np.int64],
    lo: int,
    hi: int,
    out: NDArray[np.int64],
    at: int,
    counts: NDArray[np.int64],
) -> int:  # pragma: no cover - compiled
    """One state's children whose bucket is in [lo, hi), packed as key << 12 | moves << 6 | hole and written at
    out[at:]; with an empty out, only counted per bucket. target >= 0 bounds a forward search towards that
    position (regions full now and not full there) instead of towards one coin. sharp: forward, one is subtracted
    from the bound only when the landed coin is in a full region (else always, the former bound)."""
    n = 0
    mult = np.uint64(0x2545F4914F6CDD1D & ((1 << 50) - 1) | 1)
    keymask = np.uint64((1 << 50) - 1)
    one = np.int64(1)
    counting = out.shape[0] == 0
    d = state >> 52
    m = state & ((one << 52) - 1)
    for j in range(jumps.shape[0]):
        a, o, t = jumps[j, 0], jumps[j, 1], jumps[j, 2]
        if back:
            if not ((p >> t) & 1) or (p >> o) & 1 or (p >> a) & 1:
                continue
            src, dst = t, a
        else:
            if not ((p >> a) & 1) or not ((p >> o) & 1) or (p >> t) & 1:
                continue
            src, dst = a, t
        q = p ^ ((one << a) | (one << o) | (one << t))
        c = d if (m >> src) & 1 else d + 1
        # forward, the move under way can go on only from the landed coin, so it serves at most the full region
        # holding that coin; every other full region needs a move still to come
        # (towards a target position, only regions not full there must change)
        if back:
            left, shared = _regions_left(q, masks, back), 1
        else:
            left, shared = 0, 0
            for r in masks:
                if (q & r) == r and (target < 0 or (target & r) != r):
                    left += 1
                    shared |= (r >> dst) & 1
            if not sharp:
                shared = 1
        if c + left - shared > limit:
            continue
        cq, cm = _canon(q, one << dst, lut)
        key = (np.uint64(cq) * mult) & keymask
        bucket = int(key >> np.uint64(50 - 8))
        if bucket < lo or bucket >= hi:
            continue
        # a position fixed by a symmetry may take the coin to more than one hole at the same cost
        rest = cm
        while rest:
            hole = 0
            while not (rest >> hole) & 1:
                hole += 1
            rest &= ~(one << hole)
            if counting:
                counts[bucket] += 1
            else:
                out[at + n] = (np.int64(key) << 12) | (c << 6) | hole
                n += 1
    return n


def _expand_chunks(
    pos: NDArray[np.int64],
    info: NDArray[np.int64],
    jumps: NDArray[np.int64],
    back: bool,
    masks: NDArray[np.int64],
    target: np.int64,
    limit: int,
    sharp: bool,
    lut: NDArray[np.int64],
    lo: int,
    hi: int,
    out: NDArray[np.int64],
    offsets: NDArray[np.int64],
    counts: NDArray[np.int64],
) -> None:  # pragma: no cover - compiled
    """A level's children in [lo, hi), its states split into chunks expanded in parallel: each chunk counts into
    its own row of counts, or writes from its own offset in out."""
    chunks = offsets.shape[0]
    size = pos.shape[0]
    for c in prange(chunks):
        at = offsets[c]
        for i in range(c * size // chunks, (c + 1) * size // chunks):
            at += _children(pos[i], info[i], jumps, back, masks, target, limit, sharp, lut, lo, hi, out, at, counts[c])


_expand_parallel = parallel_kernel(_expand_chunks)


@kernel
def _expand_serial(
    pos: NDArray[np.int64],
    info: NDArray[np.int64],
    jumps: NDArray[np.int64],
    back: bool,
    masks: NDArray[np.int64],
    target: np.int64,
    limit: int,
    sharp: bool,
    lut: NDArray[np.int64],
    lo: int,
    hi: int,
    out: NDArray[np.int64],
    offsets: NDArray[np.int64],
    counts: NDArray[np.int64],
) -> None:  # pragma: no cover - compiled
    """The same for small levels, as one chunk (starting the threads would cost more than the work)."""
    at = offsets[0]
    for i in range(pos.shape[0]):
        at += _children(pos[i], info[i], jumps, back, masks, target, limit, sharp, lut, lo, hi, out, at, counts[0])


PARALLEL_FROM = 1 << 14  # states in a level


def _expander(pos: NDArray[np.int64]) -> Any:
    """The parallel expansion for large levels, the serial one for small."""
    return _expand_parallel if len(pos) >= PARALLEL_FROM else _expand_serial


@kernel
def _distinct(s: NDArray[np.int64]) -> int:  # pragma: no cover - compiled
    """The positions among sorted packed children."""
    n = 0
    last = np.int64(-1)
    for v in s:
        if v >> 12 != last:
            n += 1
            last = v >> 12
    return n


@kernel
def _reduce(s: NDArray[np.int64], info: NDArray[np.int64], inv: np.int64) -> int:  # pragma: no cover - compiled
    """Sorted packed children to states, in place: the positions over s's front, and in info the fewest moves
    and the holes reached at that cost (a position's first child comes before any later one it is written over)."""
    keymask = np.uint64((1 << 50) - 1)
    m = -1
    last = np.int64(-1)
    for i in range(s.shape[0]):
        v = s[i]
        k = v >> 12
        c = (v >> 6) & 63
        t = v & 63
        if k != last:
            m += 1
            s[m] = np.int64((np.uint64(k) * np.uint64(inv)) & keymask)
            info[m] = (c << 52) | (np.int64(1) << t)
            last = k
        elif c == info[m] >> 52:
            info[m] |= np.int64(1) << t
    return m + 1


@dataclass
class Level:
    """One side's states with this many coins, in batches sorted by key."""

    coins: int
    pos: list[NDArray[np.int64]]
    info: list[NDArray[np.int64]]

    @property
    def size(self) -> int:
        """Number of states."""
        return sum(len(p) for p in self.pos)


@dataclass
class Search:
    """The board's arrays for the compiled expansion."""

    jumps: NDArray[np.int64]
    regions: NDArray[np.int64]
    lut: NDArray[np.int64]
    max_states: int
    sharp: bool = True
    states: int = 0

    def step(self, level: Level, back: bool, masks: NDArray[np.int64], limit: int, target: int = -1) -> Level:
        """The next level (one coin fewer forward, one more backward)."""
        empty = np.zeros(0, dtype=np.int64)
        none = np.zeros(CHUNKS, dtype=np.int64)
        counts = [np.zeros((CHUNKS, 1 << BUCKET_BITS), dtype=np.int64) for _ in level.pos]
        args = (self.jumps, back, masks, np.int64(target), limit, self.sharp, self.lut)
        for p, i, c in zip(level.pos, level.info, counts, strict=True):
            _expander(p)(p, i, *args, 0, 1 << BUCKET_BITS, empty, none, c)
        per_bucket = sum(c.sum(axis=0) for c in counts)
        out_pos: list[NDArray[np.int64]] = []
        out_info: list[NDArray[np.int64]] = []
        lo = 0
        while lo < len(per_bucket):
            hi, total = lo, 0
            while hi < len(per_bucket) and (total == 0 or total + per_bucket[hi] <= BATCH):
                total += int(per_bucket[hi])
                hi += 1
            if total:
                buf = np.empty(total, dtype=np.int64)
                at = 0
                for p, i, c in zip(level.pos, level.info, counts, strict=True):
                    sizes = c[:, lo:hi].sum(axis=1)
                    offsets = at + np.concatenate(([0], np.cumsum(sizes)[:-1]))
                    _expander(p)(p, i, *args, lo, hi, buf, offsets, c)
                    at += int(sizes.sum())
                buf.sort()
                ri = np.empty(_distinct(buf), dtype=np.int64)
                m = _reduce(buf, ri, np.int64(ODD_INV))
                out_pos.append(buf[:m].copy())
                out_info.append(ri)
                del buf
                self.states += m
                if sum(len(x) for x in out_pos) + level.size > self.max_states:
                    raise LimitError(f"the fewest-moves search needs more than {self.max_states:,} positions")
            lo = hi
        return Level(level.coins + (1 if back else -1), out_pos, out_info)


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


def _flat(level: Level, release: bool = True) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """A level's batches as one pair of arrays (still in key order). release: each batch is dropped from the
    level once copied, so the level is held about once, not twice, and is left empty."""
    pos, info = np.empty(level.size, dtype=np.int64), np.empty(level.size, dtype=np.int64)
    at = 0
    for k in range(len(level.pos)):
        p, i = (level.pos.pop(0), level.info.pop(0)) if release else (level.pos[k], level.info[k])
        pos[at : at + len(p)], info[at : at + len(p)] = p, i
        at += len(p)
        del p, i
    return pos, info


def _state(pos: int, moves: int, mask: int) -> Level:
    """A level holding one state."""
    return Level(pegs(pos), [np.array([pos], dtype=np.int64)], [np.array([moves << D_SHIFT | mask], dtype=np.int64)])


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


def meet(
    b: Board, pos: int, finish: int, limit: int, max_states: int, tick: Tick = quiet, sharp: bool = True
) -> Meeting:
    """One bidirectional search for solutions of at most `limit` moves (the best total met is exact when it is
    at most the limit; None or a larger total means there is none within it). sharp=False: the former forward
    bound (one subtracted at every state), kept for the benchmark's baseline."""
    goal = 1 << finish
    regions = [r for r in merson_regions(b) if r != {finish}]
    fwd = np.array([sum(1 << h for h in r) for r in regions], dtype=np.int64)
    bwd = np.array([m for m in fwd if pos & m == m], dtype=np.int64)
    perms = [p for p in b.symmetries if image(p, pos) == pos and p[finish] == finish]
    search = Search(_jumps(b), fwd, _lut(perms, b.size), max_states, sharp)
    f, k = _state(pos, 0, 0), _state(goal, 0, 0)
    steps = f.coins - k.coins
    while f.coins > k.coins and f.size and k.size:
        tick(steps - (f.coins - k.coins), steps)
        if f.size <= k.size:
            f = search.step(f, False, fwd, limit)
        else:
            k = search.step(k, True, bwd, limit)
    fp, fi = _flat(f)
    kp, ki = _flat(k)
    best, i, j, shared = _join(fp, fi, kp, ki)
    low = (1 << D_SHIFT) - 1
    if best < 0:
        return Meeting(None, 0, (0, 0), (0, 0), search.states, shared)
    return Meeting(
        int(best),
        int(fp[i]),
        (int(fi[i]) >> D_SHIFT, int(fi[i]) & low),
        (int(ki[j]) >> D_SHIFT, int(ki[j]) & low),
        search.states,
        shared,
    )


def _jumps(b: Board) -> NDArray[np.int64]:
    """The board's jumps as rows (from, over, to)."""
    return np.array(b.jumps, dtype=np.int64).reshape(-1, 3)


def _one_way(
    b: Board, start: Level, masks: NDArray[np.int64], target: int, limit: int, stop: int, max_states: int
) -> dict[int, tuple[NDArray[np.int64], NDArray[np.int64]]]:
    """Forward levels from a state down to `stop` coins, every level kept (by coins: positions sorted, infos)."""
    search = Search(_jumps(b), masks, _lut([tuple(range(b.size))], b.size), max_states)
    levels = {}
    level = start
    while True:
        p, i = _flat(level, release=False)
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
    b: Board, pos: int, finish: int, max_states: int = MAX_STATES, tick: Tick = quiet, sharp: bool = True
) -> Fewest:
    """The fewest moves from a position to one coin on the finish hole, proved by raising the limit of the
    bidirectional search from the Merson bound until a total within one of it is met (sharp: see meet)."""
    goal = 1 << finish
    regions = [r for r in merson_regions(b) if r != {finish}]
    first = max(lower_bound(regions, pos), 1)
    if pos == goal:
        return Fewest(0, [], True, 0, 0, "proved")
    if pegs(pos) == 1 or finish not in class_finals(b, pos):
        return Fewest(None, [], True, first, 0, "position class")
    states = 0
    for limit in range(first, pegs(pos)):
        try:
            m = meet(b, pos, finish, limit, max_states, tick, sharp)
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

"""One level of the bidirectional peg search (`meet`): every position one jump further from a level's states,
kept only where a solution within the limit can still pass through it, reduced by the symmetries, bucketed and
sorted by key (Numba).

A state is a position with the fewest moves that reach it (from the start, or to the finish when searching
backward) and the holes its last move can go on from at that cost: the coin that just landed (forward), or the
coin whose move starts there (backward). A jump by that coin costs nothing, any other jump one move.

Both directions drop a state only when no solution of at most `limit` moves can pass through it. Forward, the full
Merson regions still need a move each (solvers/pegs/fewest.py), except that the move under way may go on from the
coin that just landed: that serves the full region holding the coin, if there is one, and no other (a chain cannot
land in a full region), so one is subtracted only then. Backward, every region that was full at the start and is
not full now needed a move that started in it while it was full, and one move starts in one region (a later jump
of a chain starts on a hole that was empty when the move began); the last of those moves may be the one the
position's first move goes on from, so one is subtracted. (Subtracting one at every forward state is also
admissible but weaker; `sharp=False` keeps that form for the test that compares the two.)

Positions are stored as a bijective scramble of their bits (multiplication by an odd number modulo 2^50), so the top
bits spread them over 256 buckets. A level is built in two passes: every parent is expanded once, a slice of parents
at a time, its children handed to a `Spill` (solvers/pegs/storage.py) by bucket; then a few buckets at a time are
taken back, sorted and reduced to the level's parts, which come out in key order, so the two sides meet by a merge,
part by part. The spill decides where children and parts wait: in memory (`Memory`), or on disk
(webapp/results/peg_spill.py), where memory no longer grows with the levels and a stopped search resumes from its last
level.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from numba import prange
from numpy.typing import NDArray

from solvers.errors import LimitError
from solvers.jit import kernel, parallel_kernel

from .storage import Ints, Level, Memory, Part, Spill

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


class Side(NamedTuple):
    """What a level's expansion needs besides the states: the board's jumps (from, over, to), the direction, the
    Merson regions, the target (>= 0: a forward search towards that position: only regions not full there must
    change), the moves allowed, the forward bound's form (sharp: see `_bound`) and the symmetries' look-up
    tables."""

    jumps: NDArray[np.int64]
    back: bool
    masks: NDArray[np.int64]
    target: np.int64
    limit: int
    sharp: bool
    lut: NDArray[np.int64]


@kernel
def _bound(q: np.int64, dst: int, side: Side) -> int:  # pragma: no cover - compiled
    """The moves still needed after a jump to q that landed on dst, beyond the move under way. Forward, that move
    can go on only from the landed coin, so it serves at most the full region holding that coin; every other
    full region needs a move still to come (sharp=False: one is subtracted always, the former bound). Backward,
    the regions full at the start and not full now, less the one the position's first move may go on from."""
    if side.back:
        return _regions_left(q, side.masks, True) - 1
    left, shared = 0, 0
    for r in side.masks:
        if (q & r) == r and (side.target < 0 or (side.target & r) != r):
            left += 1
            shared |= (r >> dst) & 1
    return left - (1 if not side.sharp else shared)


@kernel
def _children(
    p: np.int64, state: np.int64, side: Side, out: NDArray[np.int64], at: int, stop: int
) -> int:  # pragma: no cover - compiled
    """One state's children, packed as key << 12 | moves << 6 | hole, written at out[at:] below stop; how many
    it has (any past stop are counted, not written)."""
    n = 0
    mult = np.uint64(0x2545F4914F6CDD1D & ((1 << 50) - 1) | 1)
    keymask = np.uint64((1 << 50) - 1)
    one = np.int64(1)
    d = state >> 52
    m = state & ((one << 52) - 1)
    for j in range(side.jumps.shape[0]):
        a, o, t = side.jumps[j, 0], side.jumps[j, 1], side.jumps[j, 2]
        if side.back:
            if not ((p >> t) & 1) or (p >> o) & 1 or (p >> a) & 1:
                continue
            src, dst = t, a
        else:
            if not ((p >> a) & 1) or not ((p >> o) & 1) or (p >> t) & 1:
                continue
            src, dst = a, t
        q = p ^ ((one << a) | (one << o) | (one << t))
        c = d if (m >> src) & 1 else d + 1
        if c + _bound(q, dst, side) > side.limit:
            continue
        cq, cm = _canon(q, one << dst, side.lut)
        key = np.int64((np.uint64(cq) * mult) & keymask)
        # a position fixed by a symmetry may take the coin to more than one hole at the same cost
        rest = cm
        while rest:
            hole = 0
            while not (rest >> hole) & 1:
                hole += 1
            rest &= ~(one << hole)
            if at + n < stop:
                out[at + n] = (key << 12) | (c << 6) | hole
            n += 1
    return n


@kernel
def _expand_run(
    pos: NDArray[np.int64],
    info: NDArray[np.int64],
    first: int,
    last: int,
    side: Side,
    out: NDArray[np.int64],
    at: int,
    stop: int,
) -> int:  # pragma: no cover - compiled
    """The children of states first..last-1 written from out[at] below stop; how many there are."""
    n = 0
    for i in range(first, last):
        n += _children(pos[i], info[i], side, out, at + n, stop)
    return n


@parallel_kernel
def _expand_parallel(
    pos: Ints, info: Ints, side: Side, out: Ints, offsets: Ints, stops: Ints, made: Ints
) -> None:  # pragma: no cover
    """A slice's children, its states split into chunks expanded on every core: each chunk writes from its own
    offset below its own stop, and says in made how many children it has."""
    chunks, size = offsets.shape[0], pos.shape[0]
    for c in prange(chunks):
        made[c] = _expand_run(pos, info, c * size // chunks, (c + 1) * size // chunks, side, out, offsets[c], stops[c])


@kernel
def _expand_serial(
    pos: Ints, info: Ints, side: Side, out: Ints, offsets: Ints, stops: Ints, made: Ints
) -> None:  # pragma: no cover
    """The same for small slices, as one chunk (starting the threads would cost more than the work)."""
    made[0] = _expand_run(pos, info, 0, pos.shape[0], side, out, offsets[0], stops[0])


LEVEL_PARALLEL_FROM = 1 << 14  # states in a level


def _expander(pos: NDArray[np.int64]) -> Any:
    """The parallel expansion for large levels, the serial one for small."""
    return _expand_parallel if len(pos) >= LEVEL_PARALLEL_FROM else _expand_serial


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
def _thin(s: NDArray[np.int64]) -> int:  # pragma: no cover - compiled
    """Sorted packed children, in place: drops repeats and, of a position's children, those that cost more than
    its first (the reduction keeps only the cheapest); the length kept, still sorted."""
    n = 0
    key, cost, last = np.int64(-1), np.int64(-1), np.int64(-1)
    for v in s:
        k, c = v >> 12, (v >> 6) & 63
        if k != key:
            key, cost = k, c
        elif c != cost or v == last:
            continue
        s[n] = v
        n += 1
        last = v
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


def _expand_slice(pos: Ints, info: Ints, side: Side) -> Ints:
    """Every child of a slice of states, unsorted, in one pass: each chunk of states gets room for as many
    children as it has states times the board's jumps, more than any chunk can fill unless the symmetries add
    many holes, in which case the chunks are written again with their exact counts."""
    run = _expander(pos)
    chunks = CHUNKS if run is _expand_parallel else 1
    sizes = np.diff(np.arange(chunks + 1, dtype=np.int64) * len(pos) // chunks)
    room = sizes * len(side.jumps)
    made = np.zeros(chunks, dtype=np.int64)
    while True:
        offsets = np.concatenate(([0], np.cumsum(room)[:-1])).astype(np.int64)
        buf = np.empty(int(room.sum()), dtype=np.int64)
        run(pos, info, side, buf, offsets, offsets + room, made)
        if (made <= room).all():
            return np.concatenate([buf[o : o + n] for o, n in zip(offsets, made, strict=True)])
        room = made.copy()


BUCKETS = 1 << BUCKET_BITS
# parents expanded at a time: their children are sorted and thinned before they wait; the room reserved for them
# (SLICE x jumps x 8 bytes, 0.8 GB on the French board) is mostly never touched, so never resident
SLICE = 1 << 20
EDGES = np.arange(BUCKETS + 1, dtype=np.int64) << (BITS - BUCKET_BITS + 12)  # first packed child of each bucket


@dataclass
class Meet:
    """The board's arrays for the compiled expansion."""

    jumps: NDArray[np.int64]
    regions: NDArray[np.int64]
    lut: NDArray[np.int64]
    max_states: int
    sharp: bool = True
    states: int = 0

    def step(
        self,
        level: Level,
        back: bool,
        masks: NDArray[np.int64],
        limit: int,
        target: int = -1,
        spill: Spill | None = None,
    ) -> Level:
        """The next level (one coin fewer forward, one more backward). Every parent is expanded once, a slice of
        parents at a time; their children go to the spill by bucket; then a few buckets at a time are taken back,
        sorted and reduced to the new level's parts."""
        spill = spill if spill is not None else Memory()
        side = Side(self.jumps, back, masks, np.int64(target), limit, self.sharp, self.lut)
        per_bucket = np.zeros(BUCKETS, dtype=np.int64)
        for part in level.parts:
            pos, info = part.load()
            for a in range(0, len(pos), SLICE):
                buf = _expand_slice(pos[a : a + SLICE], info[a : a + SLICE], side)
                buf.sort()
                buf = buf[: _thin(buf)].copy()
                edges = np.searchsorted(buf, EDGES)
                found = np.diff(edges)
                for b in np.flatnonzero(found):
                    spill.add(int(b), buf[edges[b] : edges[b + 1]])
                per_bucket += found
                del buf
            del pos, info
        parts: list[Part] = []
        held = 0
        lo = 0
        while lo < BUCKETS:
            hi, total = lo, 0
            while hi < BUCKETS and (total == 0 or total + per_bucket[hi] <= BATCH):
                total += int(per_bucket[hi])
                hi += 1
            if total:
                buf = np.concatenate([spill.take(b) for b in range(lo, hi)])
                buf.sort()
                ri = np.empty(_distinct(buf), dtype=np.int64)
                m = _reduce(buf, ri, np.int64(ODD_INV))
                parts.append(spill.keep(lo, hi, buf[:m].copy(), ri))
                del buf
                self.states += m
                held += m
                if held + level.size > self.max_states:
                    raise LimitError(f"the fewest-moves search needs more than {self.max_states:,} positions")
            lo = hi
        return Level(level.coins + (1 if back else -1), parts)

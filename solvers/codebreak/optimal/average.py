"""The average case: the least total number of experiments, summed over the secrets of a set S, from here to the
finish, proved by branch and bound.

For an experiment g the cost is |S| plus the cost of every part of S that g leaves open (in guess-the-secret games
the part "g is the secret" is finished). Every experiment is tried (one per partition and per symmetry class,
`candidates`), best bound first, until the bound reaches the best cost found. Bounds, all admissible: counting
(`rules.counting_bounds`); each open part one experiment deeper before any part is searched (`lookahead`), so the
first part searched already has a tight budget; a part is searched with the budget left by the best cost found, the
exact costs of the parts searched and the bounds of the rest, and a search that exceeds its budget returns a proved
lower bound instead. Proved costs and lower bounds are kept per set (`Memo`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from solvers.jit import kernel

from .candidates import candidates, lookahead, representatives
from .rules import (
    BEST,
    BEST_G,
    BETA,
    BIG,
    CANDIDATE,
    FLOOR,
    FRAME_LEVELS,
    PART,
    TOTAL,
    TRIED,
    Frames,
    Memo,
    Rules,
    Symmetry,
)
from .sets import (
    below,
    feasible,
    fingerprint,
    free_for,
    keyed,
    look,
    mix,
    note,
    open_by_size,
    record,
    shortcut,
    spend,
    split,
)
from .symmetry import narrowed


@kernel
def open_parts(
    s: NDArray[np.int32], g: int, beta: np.int64, rules: Rules, memo: Memo, depth: int, inner: Symmetry
) -> Any:  # pragma: no cover - compiled
    """Experiment g at S with at most depth experiments left (`rules.UNCAPPED`: no cap): (its parts as `split`
    gives them, each open part's lower bound, their total with |S|, the parts to search largest first). A part's
    bound is its counting bound (BIG if it cannot finish within depth - 1), raised by the table, then by
    `lookahead` unless the table knows better (one experiment per class under inner, the symmetries in force after
    g, which map each part onto itself); bounding stops once the total reaches beta."""
    members, start = split(s, g, rules)
    small = 2 if rules.must_hit else 1  # parts this small are exact by the shortcuts: never searched
    lows = np.zeros(rules.outcomes, dtype=np.int64)
    known = np.zeros(rules.outcomes, dtype=np.bool_)  # the table holds a proof or a bound above counting
    hs1 = np.zeros(rules.outcomes, dtype=np.uint64)
    hs2 = np.zeros(rules.outcomes, dtype=np.uint64)
    total = np.int64(s.shape[0])
    for o in range(rules.outcomes):
        size = start[o + 1] - start[o]
        if size == 0 or (rules.must_hit and o == rules.win):
            continue
        lows[o] = rules.bound[size]
        if not feasible(size, below(depth), rules):
            lows[o], known[o] = BIG, True
        elif size > small:
            hs1[o], hs2[o] = keyed(fingerprint(members[start[o] : start[o + 1]], rules), below(depth))
            held, value, exact, _ = look(memo, hs1[o], hs2[o])
            if held:
                lows[o] = max(lows[o], value)
                known[o] = exact or value > rules.bound[size]
        total += lows[o]
    order = open_by_size(start, small, rules)
    reps = rules.everything
    chosen = False
    for o in order if rules.lookahead and total < beta else order[:0]:
        if known[o]:
            continue
        if not chosen:
            reps, chosen = representatives(inner, rules.everything), True
        lo = lookahead(members[start[o] : start[o + 1]], rules, reps)
        if lo > lows[o]:
            total += lo - lows[o]
            lows[o] = lo
            if free_for(memo, hs1[o], hs2[o]):
                record(memo, hs1[o], hs2[o], lo, False, -1)
            if total >= beta:
                break
    return members, start, lows, total, order


@kernel
def settled(s: NDArray[np.int32], beta: np.int64, rules: Rules, memo: Memo, depth: int) -> Any:  # pragma: no cover
    """What `average` knows of S before any experiment: (whether that settles it, its cost or bound if so, the
    least bound, its table keys), S's work counted when it is to be searched."""
    n = s.shape[0]
    none = np.uint64(0)
    if not feasible(n, depth, rules):
        return True, BIG, BIG, none, none
    if n <= 1:
        return True, np.int64(n if rules.must_hit else 0), np.int64(0), none, none
    lb = np.int64(rules.bound[n])
    if memo.counters[0].stopped:
        return True, max(lb, beta), lb, none, none
    if lb >= beta:
        return True, lb, lb, none, none
    h1, h2 = keyed(fingerprint(s, rules), depth)
    held, value, exact, _ = look(memo, h1, h2)
    if held:
        if exact or value >= beta:
            return True, value, lb, h1, h2
        lb = max(lb, value)
    cost = shortcut(s, rules) if depth >= 3 else np.int64(-1)  # its trees take at most three experiments
    if cost >= 0:
        return True, cost, lb, h1, h2
    if not spend(memo, n):
        return True, beta, lb, h1, h2
    return False, np.int64(0), lb, h1, h2


TRIED_SEED = np.uint64(0x9E3779B97F4A7C15)


@kernel
def tried(h: np.uint64, g: int) -> np.uint64:  # pragma: no cover - compiled
    """The hash of the candidates tried so far (h, from TRIED_SEED) once experiment g is tried too."""
    return mix(h ^ np.uint64(g + 1))


@kernel
def tried_to(cands: NDArray[np.int64], c: int) -> np.uint64:  # pragma: no cover - compiled
    """The hash of candidates 0 to c (`tried`)."""
    h = TRIED_SEED
    for i in range(c + 1):
        h = tried(h, cands[i, 1])
    return h


@kernel
def resumed(
    frames: Frames, level: int, h1: np.uint64, h2: np.uint64, beta: np.int64, memo: Memo, cands: Any, n: int
) -> Any:  # pragma: no cover - compiled
    """Where the search of S (the level-th set on the path, its keys h1, h2, its candidates cands) starts: (the
    candidate, the part, the best total and experiment, the least refuted bound), from S's frame when the frames
    restore one for S with the same candidates tried (a budget no smaller: a smaller one only refutes more), else
    from the start; S's frame then set up."""
    first, part, best, best_g, floor = 0, -1, beta, -1, BIG
    if level < frames.head[1]:
        state = frames.state[level]
        c = state[CANDIDATE]
        same = frames.key[level, 0] == h1 and frames.key[level, 1] == h2 and beta <= state[BETA]
        if same and 0 <= c < cands.shape[0] and np.int64(tried_to(cands, c) >> np.uint64(1)) == state[TRIED]:
            first, part, best, best_g, floor = state[CANDIDATE], state[PART], state[BEST], state[BEST_G], state[FLOOR]
            memo.counters[0].work -= n  # counted when the stopped search entered it
            if best >= beta:  # a smaller budget now
                best, best_g, floor = beta, -1, min(floor, best)
        else:
            frames.head[1] = level  # another set, or a larger budget: nothing below restores
    if level < FRAME_LEVELS:
        frames.key[level, 0], frames.key[level, 1], frames.state[level, BETA] = h1, h2, beta
        frames.head[0] = level + 1
    return first, part, best, best_g, floor


@kernel
def reopened(s: NDArray[np.int32], g: int, rules: Rules, frames: Frames, level: int) -> Any:  # pragma: no cover
    """Experiment g at S as S's frame saw it when the search stopped: `open_parts`'s values, its bounds those of
    the frame."""
    members, start = split(s, g, rules)
    order = open_by_size(start, 2 if rules.must_hit else 1, rules)
    return members, start, frames.lows[level].copy(), frames.state[level, TOTAL], order


@kernel
def mark(
    frames: Frames, level: int, c: int, k: int, total: np.int64, best: np.int64, best_g: int, floor: np.int64
) -> None:  # pragma: no cover
    """S's frame before its experiment c's k-th part is searched."""
    if level < FRAME_LEVELS:
        state = frames.state[level]
        state[CANDIDATE], state[PART], state[TOTAL], state[BEST], state[BEST_G], state[FLOOR] = (
            c,
            k,
            total,
            best,
            best_g,
            floor,
        )


@kernel
def opening(frames: Frames, level: int, lows: NDArray[np.int64], h: np.uint64) -> int:  # pragma: no cover
    """S's frame as an experiment is opened: its parts' bounds and the candidates tried (h); its first part's place."""
    if level < FRAME_LEVELS:
        frames.lows[level] = lows
        frames.state[level, TRIED] = np.int64(h >> np.uint64(1))
    return 0


@kernel
def average(
    s: NDArray[np.int32],
    beta: np.int64,
    allowed: NDArray[np.bool_],
    rules: Rules,
    memo: Memo,
    sym: Symmetry,
    depth: int,
    level: int,
) -> Any:  # pragma: no cover - compiled
    """The least total cost of S within depth experiments (`rules.UNCAPPED`: any number) if it is below beta, else
    a proved lower bound that is at least beta, BIG if S cannot finish within depth (only the allowed experiments
    first; every experiment below). S is the level-th set on the search's path: its frame (`rules.Frames`, in
    `Memo.frames`) is kept as the search goes, and restored from when the frames hold one to restore for S
    (`resumed`). A search that stops (its work's end, or halted) returns at once, its frames as they stood, and
    records nothing."""
    done, value, lb, h1, h2 = settled(s, beta, rules, memo, depth)
    if done:
        return value
    frames = memo.frames
    cands = candidates(s, allowed, rules, False, sym)
    first, part, best, best_g, floor = resumed(frames, level, h1, h2, beta, memo, cands, s.shape[0])
    h = tried_to(cands, first - 1)
    for c in range(first, cands.shape[0]):
        if cands[c, 0] >= best:
            floor = min(floor, cands[c, 0])
            break
        g = int(cands[c, 1])
        inner = narrowed(sym, g)
        h = tried(h, g)
        if c == first and part >= 0:  # the experiment it was trying, its parts' bounds as they were
            members, start, lows, total, order = reopened(s, g, rules, frames, level)
            k = part
        else:
            members, start, lows, total, order = open_parts(s, g, best, rules, memo, depth, inner)
            k = opening(frames, level, lows, h)
        while k < order.shape[0] and total < best:
            o = order[k]
            mark(frames, level, c, k, total, best, best_g, floor)
            part_s = members[start[o] : start[o + 1]]
            v = average(part_s, best - (total - lows[o]), rules.everything, rules, memo, inner, below(depth), level + 1)
            if memo.counters[0].stopped:
                return max(lb, beta)
            frames.head[1] = min(frames.head[1], level + 1)  # the path restored: nothing below restores again
            total += v - lows[o]
            k += 1
        frames.head[1] = min(frames.head[1], level + 1)  # its experiment done: nothing below restores again
        if total < best:
            best, best_g = total, g
        else:
            floor = min(floor, total)
    if best_g < 0:
        best = max(floor, lb)
    record(memo, h1, h2, best, best_g >= 0, best_g)
    if memo.log.shape[0]:
        note(memo, s, best, sym)
    if level < FRAME_LEVELS:
        frames.head[0] = level
    return best

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
from .rules import BIG, Memo, Rules, Symmetry
from .sets import (
    below,
    feasible,
    fingerprint,
    free_for,
    keyed,
    look,
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
def average(
    s: NDArray[np.int32],
    beta: np.int64,
    allowed: NDArray[np.bool_],
    rules: Rules,
    memo: Memo,
    sym: Symmetry,
    depth: int,
) -> Any:  # pragma: no cover - compiled
    """The least total cost of S within depth experiments (`rules.UNCAPPED`: any number) if it is below beta, else
    a proved lower bound that is at least beta, BIG if S cannot finish within depth (only the allowed experiments
    first; every experiment below)."""
    n = s.shape[0]
    if not feasible(n, depth, rules):
        return BIG
    if n <= 1:
        return np.int64(n if rules.must_hit else 0)
    lb = np.int64(rules.bound[n])
    if memo.counters[0].stopped:
        return max(lb, beta)
    if lb >= beta:
        return lb
    h1, h2 = keyed(fingerprint(s, rules), depth)
    held, value, exact, _ = look(memo, h1, h2)
    if held:
        if exact or value >= beta:
            return value
        lb = max(lb, value)
    exact = shortcut(s, rules) if depth >= 3 else np.int64(-1)  # its trees take at most three experiments
    if exact >= 0:
        return exact
    if not spend(memo, n):
        return beta
    cands = candidates(s, allowed, rules, False, sym)
    best, best_g, floor = beta, -1, BIG
    for c in range(cands.shape[0]):
        if cands[c, 0] >= best:
            floor = min(floor, cands[c, 0])
            break
        g = int(cands[c, 1])
        inner = narrowed(sym, g)
        members, start, lows, total, order = open_parts(s, g, best, rules, memo, depth, inner)
        for o in order if total < best else order[:0]:
            part = members[start[o] : start[o + 1]]
            left = best - (total - lows[o])
            total += average(part, left, rules.everything, rules, memo, inner, below(depth)) - lows[o]
            if total >= best:
                break
        if total < best:
            best, best_g = total, g
        else:
            floor = min(floor, total)
    if memo.counters[0].stopped:
        return max(lb, beta)
    if best_g < 0:
        best = max(floor, lb)
    record(memo, h1, h2, best, best_g >= 0, best_g)
    if memo.log.shape[0]:
        note(memo, s, best, sym)
    return best

"""The worst case: can a set S of secrets be finished within d experiments? The search asks it with the counting
bound first (`rules.capacity`), and the depth rises from the counting bound until the answer is yes: every smaller
depth was refuted by the complete search, so the depth found is the fewest.

Experiments are tried smallest largest part first, then most even split (`candidates`); an experiment's parts
largest first, but before any is searched every other part too large to split trivially must pass the counting
test one experiment deeper (`splits`: some experiment leaves each of its parts within the capacity of the depth
after), so that a small part that cannot be split refutes the experiment before a large part is searched
(black-peg Mastermind's parts of secrets with no peg right are the tight ones). The table keeps, per set, the least
depth known to fit (exact) or the greatest depth known not to.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from solvers.jit import kernel

from .candidates import candidates, splits
from .rules import Memo, Rules, Symmetry
from .sets import fingerprint, look, open_by_size, record, spend, split
from .symmetry import narrowed


@kernel
def _others_split(
    members: NDArray[np.int32], start: NDArray[np.int64], order: NDArray[np.int64], depth: int, rules: Rules
) -> bool:  # pragma: no cover - compiled
    """Whether every part but the largest that is too large to split trivially passes the counting test one
    experiment deeper (a small part that cannot be split refutes the experiment before a large one is searched)."""
    for o in order[1:]:
        large = start[o + 1] - start[o] > rules.caps[depth - 2]
        if large and not splits(members[start[o] : start[o + 1]], depth - 1, rules):
            return False
    return True


@kernel
def fits(
    s: NDArray[np.int32], depth: int, allowed: NDArray[np.bool_], rules: Rules, memo: Memo, sym: Symmetry
) -> bool:  # pragma: no cover - compiled
    """Can S be finished within `depth` experiments (the allowed ones first; every experiment below)?"""
    n = s.shape[0]
    if n == 0 or (n == 1 and not rules.must_hit):
        return True
    if depth <= 0 or n > rules.caps[depth]:
        return False
    if n == 1:
        return True
    if memo.counters[0].stopped:
        return False
    h1, h2 = fingerprint(s, rules)
    held, value, exact, _ = look(memo, h1, h2)
    if held:
        if exact and value <= depth:
            return True
        if not exact and value >= depth:
            return False
    if not spend(memo, n):
        return False
    cands = candidates(s, allowed, rules, True, sym, False)
    found = -1
    for c in range(cands.shape[0]):
        if cands[c, 0] > rules.caps[depth - 1]:
            break
        g = int(cands[c, 1])
        members, start = split(s, g, rules)
        order = open_by_size(start, 0, rules)
        ok = depth < 3 or not rules.lookahead or _others_split(members, start, order, depth, rules)
        inner = narrowed(sym, g)
        for o in order if ok else order[:0]:
            if not fits(members[start[o] : start[o + 1]], depth - 1, rules.everything, rules, memo, inner):
                ok = False
                break
        if ok:
            found = g
            break
    if memo.counters[0].stopped:
        return False
    record(memo, h1, h2, np.int64(depth), found >= 0, found)
    return found >= 0

"""Which experiments the search tries at a set of secrets, in which order, and the bounds one experiment deeper.

Experiments making the same partition of S (whatever the outcome names) are tried once, and one per class under
the symmetries in force. Average case: in order of |S| plus their parts' counting bounds, so the search stops at
the first whose bound reaches the best cost found. Worst case: smallest largest part first, then most even split
(least sum of squared part sizes).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from solvers.jit import kernel

from .rules import BIG, Rules, Symmetry
from .sets import mix
from .symmetry import classes, first_of_classes, in_force

SPREAD_SHIFT = 50  # worst case: a candidate's score keeps its sum of squared part sizes in bits 24-49 ...
SPREAD_MAX = 1 << 13  # ... for sets of fewer secrets than this (the largest part then fits in bits 50-62)
WIN_SALT = np.uint64(0x5555)  # the part "the experiment is the secret" fingerprints apart from an open part


@kernel
def _scores(
    s: NDArray[np.int32], ok: NDArray[np.bool_], rules: Rules, worst: bool, shift: int, anything: bool
) -> tuple[NDArray[np.uint64], NDArray[np.uint64], NDArray[np.int64]]:  # pragma: no cover - compiled
    """For each experiment in ok that tells something (with possible codes only, a member of S unless anything):
    its partition's two fingerprints and its score (the bound << shift, then the tie-breaks: the spread where it
    fits, an experiment that may be the secret first, then the game's order in the low 23 bits)."""
    k = rules.outcomes
    member = np.zeros(ok.shape[0] if rules.must_hit else 1, dtype=np.bool_)
    if rules.must_hit:
        for x in s:
            member[x] = True
    count = np.zeros(k, dtype=np.int64)
    part = np.zeros(k, dtype=np.uint64)
    part2 = np.zeros(k, dtype=np.uint64)
    keys = np.empty(ok.shape[0], dtype=np.uint64)
    keys2 = np.empty(ok.shape[0], dtype=np.uint64)
    score = np.empty(ok.shape[0], dtype=np.int64)
    m = 0
    for g in np.flatnonzero(ok):
        if rules.possible_only and not anything and not member[g]:
            continue  # only codes still possible are guessed
        count[:] = 0
        part[:] = 0
        part2[:] = 0
        for x in s:
            o = rules.table[g, x]
            count[o] += 1
            part[o] += rules.r1[x]
            part2[o] += rules.r2[x]
        hit = rules.must_hit and member[g]
        parts, key, key2 = 0, np.uint64(0), np.uint64(0)
        value, largest, spread = s.shape[0], 0, 0
        for o in range(k):
            c = count[o]
            if c == 0:
                continue
            parts += 1
            salt = WIN_SALT if rules.must_hit and o == rules.win else np.uint64(0)
            key += mix(part[o] ^ salt)
            key2 += mix(part2[o] ^ salt)
            if salt == 0:
                value += rules.bound[c]
                spread += c * c
                largest = max(largest, c)
        if parts == 1 and not hit:
            continue  # tells nothing
        keys[m], keys2[m] = key, key2
        primary = largest if worst else value
        second = spread if shift == SPREAD_SHIFT else 0
        score[m] = (primary << shift) | (second << 24) | ((0 if hit else 1) << 23) | g
        m += 1
    return keys[:m], keys2[:m], score[:m]


@kernel
def _best_per_partition(
    keys: NDArray[np.uint64], keys2: NDArray[np.uint64], score: NDArray[np.int64]
) -> NDArray[np.bool_]:  # pragma: no cover - compiled
    """Which scores to keep: of the experiments with the same 128-bit partition fingerprint, the best scored
    one."""
    m = keys.shape[0]
    order = np.argsort(keys)
    keep = np.zeros(m, dtype=np.bool_)
    i = 0
    while i < m:
        j = i
        while j < m and keys[order[j]] == keys[order[i]]:
            j += 1
        for a in range(i, j):  # within equal first halves, group by the second half too
            x = order[a]
            best = True
            for b in range(i, j):
                y = order[b]
                if b != a and keys2[y] == keys2[x] and (score[y] < score[x] or (score[y] == score[x] and b < a)):
                    best = False
                    break
            keep[x] = best
        i = j
    return keep


@kernel
def candidates(
    s: NDArray[np.int32], allowed: NDArray[np.bool_], rules: Rules, worst: bool, sym: Symmetry, anything: bool
) -> NDArray[np.int64]:  # pragma: no cover - compiled
    """The experiments worth trying at S, one per partition and per class, best bound first: rows (bound,
    experiment), where the bound is |S| + the parts' counting bounds (average) or the largest open part
    (worst); anything: any code, though the rules guess possible codes only (`rules.free`)."""
    shift = SPREAD_SHIFT if worst and s.shape[0] < SPREAD_MAX else 24
    keys, keys2, score = _scores(s, first_of_classes(allowed, sym), rules, worst, shift, anything)
    chosen = score[_best_per_partition(keys, keys2, score)]
    chosen.sort()
    out = np.empty((chosen.shape[0], 2), dtype=np.int64)
    for i in range(chosen.shape[0]):
        out[i, 0] = chosen[i] >> shift
        out[i, 1] = chosen[i] & ((1 << 23) - 1)
    return out


@kernel
def representatives(sym: Symmetry, everything: NDArray[np.bool_]) -> NDArray[np.bool_]:  # pragma: no cover
    """The first experiment of each class under the permutations in force (every experiment when none)."""
    if not in_force(sym):
        return everything
    ok = everything.copy()
    classes(ok, sym)
    return ok


@kernel
def lookahead(s: NDArray[np.int32], rules: Rules, reps: NDArray[np.bool_], anything: bool) -> Any:  # pragma: no cover
    """A lower bound on S's average-case cost one experiment deep: the least, over every experiment, of |S| plus
    the counting bounds of the parts it leaves open (each part costs at least its counting bound). When S is mapped
    onto itself by permutations of the experiments, experiments of a class leave parts of the same sizes: reps
    marks one per class (`representatives`), the only ones tried; with possible codes only, S's members (unless
    anything: `rules.free`). The least
    is never below S's own counting bound: the loop stops at an experiment that reaches it."""
    n = s.shape[0]
    if rules.columns.shape[0] and 0 < n < 1 << 16:
        best = _by_rows(s, s.astype(np.int64), rules, rules.everything) if rules.must_hit else BIG
        if best <= rules.apart[n]:
            return best  # no experiment outside S does better: the table's columns need not be read
        return min(best, _lookahead_by_columns(s, rules))
    tried = s.astype(np.int64) if rules.possible_only and not anything else np.arange(rules.table.shape[0])
    return _by_rows(s, tried, rules, reps)


@kernel
def _by_rows(
    s: NDArray[np.int32], tried: NDArray[np.int64], rules: Rules, reps: NDArray[np.bool_]
) -> Any:  # pragma: no cover - compiled
    """`lookahead`'s least over the experiments tried (those reps marks), each one's parts counted along its row of
    the table; it stops at an experiment that meets S's counting bound."""
    n = s.shape[0]
    count = np.zeros(rules.outcomes, dtype=np.int64)
    best = BIG
    for g in tried:
        if not reps[g]:
            continue
        count[:] = 0
        for x in s:
            count[rules.table[g, x]] += 1
        value = np.int64(n)
        for o in range(rules.outcomes):
            if rules.must_hit and o == rules.win:
                continue
            if count[o] == n:
                value = BIG  # one open part holding everything: tells nothing
                break
            value += rules.bound[count[o]]
        best = min(best, value)
        if best <= rules.bound[n]:
            break  # no experiment does better than counting
    return best


@kernel
def _lookahead_by_columns(s: NDArray[np.int32], rules: Rules) -> Any:  # pragma: no cover - compiled
    """`lookahead` over every experiment, its parts counted secret by secret along the table's columns: each
    secret's outcomes under every experiment lie together in memory, where one experiment's outcomes for the
    members of S lie scattered over a row (in games of thousands of experiments the table is far larger than the
    cache, and this reads a few rows of it instead of a few bytes of each row)."""
    n = s.shape[0]
    e = rules.columns.shape[1]
    count = np.zeros((e, rules.outcomes), dtype=np.uint16)
    value = np.full(e, n, dtype=np.int64)  # |S| plus the counting bounds of the parts so far
    for x in s:
        row = rules.columns[x]
        for g in range(e):
            o = row[g]
            c = count[g, o]
            count[g, o] = c + 1
            if not (rules.must_hit and o == rules.win):
                value[g] += rules.bound[c + 1] - rules.bound[c]
    best = BIG
    first = rules.columns[s[0]]
    for g in range(e):
        o = first[g]
        if count[g, o] == n and not (rules.must_hit and o == rules.win):
            continue  # one open part holding everything: tells nothing
        best = min(best, value[g])
    return best


@kernel
def splits(s: NDArray[np.int32], depth: int, rules: Rules) -> bool:  # pragma: no cover - compiled
    """The counting test one experiment deeper: does some experiment leave every open part of S within
    caps[depth - 1] (and tell something)? If not, S cannot be finished within depth."""
    member = np.zeros(rules.table.shape[0] if rules.must_hit else 1, dtype=np.bool_)
    if rules.must_hit:
        for x in s:
            member[x] = True
    count = np.zeros(rules.outcomes, dtype=np.int64)
    cap = rules.caps[depth - 1]
    for g in range(rules.table.shape[0]):
        count[:] = 0
        over = False
        for x in s:  # stops at the first open part over the capacity
            o = rules.table[g, x]
            count[o] += 1
            if count[o] > cap and not (rules.must_hit and o == rules.win):
                over = True
                break
        if not over and ((rules.must_hit and member[g]) or np.count_nonzero(count) > 1):
            return True
    return False

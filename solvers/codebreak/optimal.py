"""Optimal code-breaking strategies proved by exhaustive branch-and-bound, compiled with Numba.

Average case: the cost of a set S of secrets still possible is the total number of experiments, summed over the
secrets of S, from here to the finish. For an experiment g the cost is |S| plus the cost of every part of S that g
leaves open (in guess-the-secret games the part "g is the secret" is finished). The search tries every
experiment, except that experiments making the same partition of S (whatever the outcome names) are tried once,
and one experiment per class under the game's symmetries that fix S: at the start all colour and position
permutations (they map the whole game to itself), below it those that also fix every experiment made so far (so
they map S onto itself; `symmetries`). Black-peg games whose codes are every sequence have more: a colour
permutation of its own at each place keeps every score, so every first guess is alike, and below it one
experiment per class under those that fix the experiments made so far is tried (`_place_classes`; black-peg
Mastermind 4x6's eight guesses are refuted in about a second with them, unsettled after 34 minutes without).
Nothing else is left out; a set's small cases are exact shortcuts (one or
two secrets, a secret that splits the rest into singletons: 2n - 1; three secrets otherwise: 6).

Bounds, all admissible:
* by counting: a tree in which every experiment has at most b outcomes that leave the game open can finish at
  most one secret at its first experiment, b at the second, b*b at the third, and so on (guess-the-secret), or
  holds at most K**d leaves at depth d (know-the-secret); filling those places in order gives the least cost for
  n secrets (for n <= b + 1 it is 2n - 1: "a part of k secrets costs at least 2k - 1");
* one level further: an experiment's cost is at least |S| plus its parts' counting bounds (or the bounds already
  proved for those parts), so experiments are tried in order of that bound and the search stops at the first
  whose bound reaches the best cost found;
* the same one level further for each part an experiment leaves open (`_lookahead`: the least, over every
  experiment, of the part's size plus its own parts' counting bounds), taken for every open part before any of
  them is searched, so that the first part searched already has a tight budget (Bulls and Cows' part of 1,260
  secrets: 3 minutes with it, unfinished after 79 without);
* a part is searched with the budget left by the best cost found, the exact costs of the parts searched and the
  bounds of the rest; a search that exceeds its budget returns a proved lower bound instead.

Proved costs and lower bounds are kept per set of secrets, keyed by two independent 64-bit sums of random
numbers (a set's 128-bit fingerprint), so a set reached by several paths is searched once; partitions are compared
under the same kind of fingerprint. Worst case: the same
search asks "can S be finished within d experiments?" with the counting bound, and the depth rises from the
counting bound until the answer is yes: every smaller depth was refuted by the complete search, so the depth found
is the fewest. Experiments are tried smallest largest part first, then most even split (least sum of squared part
sizes); an experiment's parts largest first, but before any is searched every other part too large to split
trivially must pass the counting test one experiment deeper (`_splits`: some experiment leaves each of its parts
within the capacity of the depth after), so that a small part that cannot be split refutes the experiment before
a large part is searched (black-peg Mastermind's parts of secrets with no peg right are the tight ones).

The tree built from the search is then played against every secret by `verify` before it is reported.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import permutations
from typing import Any, cast

import numpy as np
from numba import njit
from numpy.typing import NDArray

from solvers.errors import LimitError

from .game import Game

CACHE_BITS = 22  # 4 million cached sets (about 120 MB)
LARGE_CACHE_BITS = 24  # games of more than LARGE_GAME secrets (Bulls and Cows): 16 million (about 480 MB)
LARGE_GAME = 2000
NODE_LIMIT = 400_000_000  # work (the secrets of every set searched) before the search gives up (LimitError)
BIG = np.int64(1) << 40
SPREAD_SHIFT = 50  # worst case: a candidate's score keeps its sum of squared part sizes in bits 24-49 ...
SPREAD_MAX = 1 << 13  # ... for sets of fewer secrets than this (the largest part then fits in bits 50-62)


# ---------------------------------------------------------------- bounds by counting


def counting_bounds(n: int, branches: int, must_hit: bool) -> NDArray[np.int64]:
    """bound[k]: the least cost any tree can have for k secrets (see the module's note)."""
    out = np.zeros(n + 1, dtype=np.int64)
    if must_hit:
        depth, room, used, total = 1, 1, 0, 0
        for k in range(1, n + 1):
            while used == room:
                depth, room, used = depth + 1, room * max(branches, 1), 0
            used += 1
            total += depth
            out[k] = total
        return out
    for k in range(2, n + 1):
        d, cap = 0, 1
        while cap < k:
            d, cap = d + 1, cap * branches
        spare = (cap - k) // (branches - 1) if branches > 1 else 0  # leaves that can sit one level higher
        out[k] = k * d - spare
    return out


def capacity(depth: int, branches: int, must_hit: bool) -> int:
    """The most secrets any tree finishes within `depth` experiments."""
    most = 1 << 60
    if must_hit:
        return int(min(most, sum(branches**i for i in range(depth))))
    return int(min(most, branches**depth))


# ---------------------------------------------------------------- the compiled search


@njit(cache=True)
def _mix(x: np.uint64) -> np.uint64:  # pragma: no cover - compiled
    """SplitMix64's finaliser: spreads a part's fingerprint before parts are added together."""
    x ^= x >> np.uint64(30)
    x *= np.uint64(0xBF58476D1CE4E5B9)
    x ^= x >> np.uint64(27)
    x *= np.uint64(0x94D049BB133111EB)
    x ^= x >> np.uint64(31)
    return x


@njit(cache=True)
def _slot(h1: np.uint64, h2: np.uint64, k1: NDArray[np.uint64], k2: NDArray[np.uint64]) -> Any:  # pragma: no cover
    """The cache slot holding a set, or the empty slot where it goes (or a slot to replace when crowded)."""
    mask = k1.shape[0] - 1
    start = np.int64(h1 & np.uint64(mask))
    slot = start
    for _ in range(32):
        if (k1[slot] == h1 and k2[slot] == h2) or (k1[slot] == 0 and k2[slot] == 0):
            return slot
        slot = (slot + 1) & mask
    return start


@njit(cache=True)
def _fingerprint(
    s: NDArray[np.int32], r1: NDArray[np.uint64], r2: NDArray[np.uint64]
) -> tuple[np.uint64, np.uint64]:  # pragma: no cover - compiled
    """Two order-free 64-bit fingerprints of a set."""
    h1 = np.uint64(0x9E3779B97F4A7C15)
    h2 = np.uint64(0xC2B2AE3D27D4EB4F)
    for x in s:
        h1 += r1[x]
        h2 += r2[x]
    return h1, h2


@njit(cache=True)
def _split(
    s: NDArray[np.int32], g: int, t: NDArray[np.uint8], k: int
) -> tuple[NDArray[np.int32], NDArray[np.int64]]:  # pragma: no cover - compiled
    """S sorted by the outcome of experiment g: the members and each outcome's start (k + 1 offsets)."""
    start = np.zeros(k + 1, dtype=np.int64)
    for x in s:
        start[t[g, x] + 1] += 1
    for o in range(k):
        start[o + 1] += start[o]
    fill = start.copy()
    out = np.empty(s.shape[0], dtype=np.int32)
    for x in s:
        o = t[g, x]
        out[fill[o]] = x
        fill[o] += 1
    return out, start


@njit(cache=True)
def _place_classes(places: NDArray[np.int8], hist: NDArray[np.int64]) -> NDArray[np.bool_]:  # pragma: no cover
    """Black-peg games whose codes are every sequence: the first experiment of each class under the permutations
    that fix every experiment made so far (hist) and are built from a permutation of the places and a colour
    permutation of its own at each place (each keeps every black-peg score: a place matches or not whatever its
    colours are called). Such a permutation maps a code g to g' exactly when the places can be matched so that
    each place's history column, extended by g's colour, is partitioned as the matched column extended by g''s:
    a place is described by (the first place whose history column is partitioned as its own, the first
    experiment made there with g's colour, or none), and g's class is the sorted list of its places'
    descriptions. With no history every code is in one class. Where the descriptions do not fit in 63 bits,
    every experiment is kept (no reduction, still sound)."""
    e, pegs = places.shape
    n = hist.shape[0]
    ok = np.ones(e, dtype=np.bool_)
    bits_first = 1
    while (1 << bits_first) <= n:
        bits_first += 1
    bits_place = 1
    while (1 << bits_place) < pegs:
        bits_place += 1
    width = bits_first + bits_place
    if width * pegs > 63:
        return ok
    colours = 0
    for g in range(e):
        for i in range(pegs):
            colours = max(colours, int(places[g, i]) + 1)
    # the partition of each place's history column: each experiment's first predecessor with the same colour there
    column = np.empty((pegs, n), dtype=np.int64)
    for i in range(pegs):
        for a in range(n):
            column[i, a] = a
            for b in range(a):
                if places[hist[b], i] == places[hist[a], i]:
                    column[i, a] = b
                    break
    same = np.empty(pegs, dtype=np.int64)  # the first place whose column is partitioned alike
    for i in range(pegs):
        same[i] = i
        for j in range(i):
            if (column[i] == column[j]).all():
                same[i] = same[j]
                break
    first = np.full((pegs, colours), n, dtype=np.int64)  # the first experiment made with a colour at a place
    for i in range(pegs):
        for a in range(n - 1, -1, -1):
            first[i, places[hist[a], i]] = a
    keys = np.empty(e, dtype=np.int64)
    describe = np.empty(pegs, dtype=np.int64)
    for g in range(e):
        for i in range(pegs):
            describe[i] = (same[i] << bits_first) | first[i, places[g, i]]
        describe.sort()
        key = np.int64(0)
        for i in range(pegs):
            key = (key << width) | describe[i]
        keys[g] = key
    order = np.argsort(keys, kind="mergesort")  # stable: the first experiment of each class is kept
    ok[:] = False
    for a in range(e):
        if a == 0 or keys[order[a]] != keys[order[a - 1]]:
            ok[order[a]] = True
    return ok


@njit(cache=True)
def _extend(hist: NDArray[np.int64], g: int) -> NDArray[np.int64]:  # pragma: no cover - compiled
    """The history with experiment g made next."""
    out = np.empty(hist.shape[0] + 1, dtype=np.int64)
    out[: hist.shape[0]] = hist
    out[hist.shape[0]] = g
    return out


@njit(cache=True)
def _candidates(
    s: NDArray[np.int32],
    allowed: NDArray[np.bool_],
    t: NDArray[np.uint8],
    k: int,
    must_hit: bool,
    win: int,
    r1: NDArray[np.uint64],
    r2: NDArray[np.uint64],
    bound: NDArray[np.int64],
    worst: bool,
    perm: NDArray[np.int32],
    stab: NDArray[np.int64],
    places: NDArray[np.int8],
    hist: NDArray[np.int64],
) -> NDArray[np.int64]:  # pragma: no cover - compiled
    """The experiments worth trying at S, one per partition, best bound first: rows (bound, experiment), where
    the bound is |S| + the parts' counting bounds (average) or the largest open part (worst). With symmetries
    (stab: rows of perm, permutations of the experiments that fix every experiment made so far, and so S), only
    the first experiment of each class under them is tried; likewise under the place-by-place symmetries of a
    black-peg game (places: its codes; hist: the experiments made so far; see `_place_classes`)."""
    e = t.shape[0]
    ok = allowed.copy()
    if places.shape[0] > 0:
        ok &= _place_classes(places, hist)
    if stab.shape[0] > 1:
        for g in range(e):
            if ok[g]:
                for j in stab:
                    if perm[j, g] < g:
                        ok[g] = False
                        break
    n = s.shape[0]
    # score: bound << shift | tie-breaks; the sum of squared parts (< 2^26) only where the bound fits above it
    shift = SPREAD_SHIFT if worst and n < SPREAD_MAX else 24
    member = np.zeros(e if must_hit else 1, dtype=np.bool_)
    if must_hit:
        for x in s:
            member[x] = True
    count = np.zeros(k, dtype=np.int64)
    part = np.zeros(k, dtype=np.uint64)
    part2 = np.zeros(k, dtype=np.uint64)
    keys = np.empty(e, dtype=np.uint64)
    keys2 = np.empty(e, dtype=np.uint64)
    score = np.empty(e, dtype=np.int64)
    which = np.empty(e, dtype=np.int64)
    m = 0
    for g in range(e):
        if not ok[g]:
            continue
        count[:] = 0
        part[:] = 0
        part2[:] = 0
        for x in s:
            o = t[g, x]
            count[o] += 1
            part[o] += r1[x]
            part2[o] += r2[x]
        hit = must_hit and member[g]
        parts = 0
        key = np.uint64(0)
        key2 = np.uint64(0)
        value = n
        largest = 0
        spread = 0
        for o in range(k):
            c = count[o]
            if c == 0:
                continue
            parts += 1
            if must_hit and o == win:
                key += _mix(part[o] ^ np.uint64(0x5555))
                key2 += _mix(part2[o] ^ np.uint64(0x5555))
                continue
            key += _mix(part[o])
            key2 += _mix(part2[o])
            value += bound[c]
            spread += c * c
            if c > largest:
                largest = c
        if parts == 1 and not hit:
            continue  # tells nothing
        keys[m] = key
        keys2[m] = key2
        which[m] = g
        # worst case: the largest part, then the most even split (least sum of squared part sizes); ties: an
        # experiment that may be the secret first, then the game's order
        primary = largest if worst else value
        second = spread if shift == SPREAD_SHIFT else 0
        score[m] = (primary << shift) | (second << 24) | ((0 if hit else 1) << 23) | g
        m += 1
    # one experiment per partition (the same 128-bit fingerprint of its parts): the best scored one
    order = np.argsort(keys[:m])
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
    chosen = score[:m][keep]
    chosen.sort()
    out = np.empty((chosen.shape[0], 2), dtype=np.int64)
    for i in range(chosen.shape[0]):
        out[i, 0] = chosen[i] >> shift
        out[i, 1] = chosen[i] & ((1 << 23) - 1)
    return out


@njit(cache=True)
def _lookahead(
    s: NDArray[np.int32], t: NDArray[np.uint8], k: int, must_hit: bool, win: int, bound: NDArray[np.int64]
) -> Any:  # pragma: no cover - compiled
    """A lower bound on S's average-case cost one experiment deep: the least, over every experiment, of |S| plus
    the counting bounds of the parts it leaves open (each part costs at least its counting bound)."""
    n = s.shape[0]
    count = np.zeros(k, dtype=np.int64)
    best = BIG
    for g in range(t.shape[0]):
        count[:] = 0
        for x in s:
            count[t[g, x]] += 1
        value = np.int64(n)
        for o in range(k):
            c = count[o]
            if c == n and not (must_hit and o == win):
                value = BIG  # one open part holding everything: tells nothing
                break
            if not (must_hit and o == win):
                value += bound[c]
        if value < best:
            best = value
    return best


@njit(cache=True)
def _fixing(perm: NDArray[np.int32], stab: NDArray[np.int64], g: int) -> NDArray[np.int64]:  # pragma: no cover
    """The symmetries among stab that also fix experiment g."""
    out = np.empty(stab.shape[0], dtype=np.int64)
    m = 0
    for j in stab:
        if perm[j, g] == g:
            out[m] = j
            m += 1
    return out[:m]


@njit(cache=True)
def _perfect_member(s: NDArray[np.int32], t: NDArray[np.uint8], k: int) -> int:  # pragma: no cover - compiled
    """A member of S whose outcomes on the other members are all different, or -1."""
    seen = np.zeros(k, dtype=np.int64)
    for i in range(s.shape[0]):
        g = s[i]
        seen[:] = 0
        ok = True
        for x in s:
            o = t[g, x]
            seen[o] += 1
            if seen[o] > 1:
                ok = False
                break
        if ok:
            return int(g)
    return -1


@njit(cache=False)  # not cached on disk: Numba's cache does not follow mutual recursion safely
def _average(
    s: NDArray[np.int32],
    beta: np.int64,
    allowed: NDArray[np.bool_],
    everything: NDArray[np.bool_],
    t: NDArray[np.uint8],
    k: int,
    must_hit: bool,
    win: int,
    r1: NDArray[np.uint64],
    r2: NDArray[np.uint64],
    bound: NDArray[np.int64],
    k1: NDArray[np.uint64],
    k2: NDArray[np.uint64],
    value: NDArray[np.int64],
    exact: NDArray[np.bool_],
    choice: NDArray[np.int32],
    stats: NDArray[np.int64],
    perm: NDArray[np.int32],
    stab: NDArray[np.int64],
    places: NDArray[np.int8],
    hist: NDArray[np.int64],
) -> Any:  # pragma: no cover - compiled
    """The least total cost of S if it is below beta, else a proved lower bound that is at least beta."""
    n = s.shape[0]
    if n == 0:
        return np.int64(0)
    if n == 1:
        return np.int64(1) if must_hit else np.int64(0)
    lb = np.int64(bound[n])
    if lb >= beta or stats[2] != 0:
        return max(lb, beta) if stats[2] != 0 else lb
    h1, h2 = _fingerprint(s, r1, r2)
    slot = _slot(h1, h2, k1, k2)
    if k1[slot] == h1 and k2[slot] == h2:
        if exact[slot] or value[slot] >= beta:
            return value[slot]
        lb = max(lb, value[slot])
    if must_hit and n <= k:
        perfect = _perfect_member(s, t, k)
        if perfect >= 0:  # a secret that splits the others into singletons meets the counting bound 2n - 1
            return np.int64(2 * n - 1)
        if n == 3:
            return np.int64(6)  # guess one, then the other two in turn; no experiment can do better
    stats[0] += n  # work: the secrets of every set searched (each costs a scan of every experiment)
    if stats[0] > stats[1]:
        stats[2] = 1
        return beta
    cands = _candidates(s, allowed, t, k, must_hit, win, r1, r2, bound, False, perm, stab, places, hist)
    best = beta
    best_g = -1
    floor = BIG
    for c in range(cands.shape[0]):
        if cands[c, 0] >= best:
            floor = min(floor, cands[c, 0])
            break
        g = int(cands[c, 1])
        total = _experiment(
            s,
            g,
            best,
            everything,
            t,
            k,
            must_hit,
            win,
            r1,
            r2,
            bound,
            k1,
            k2,
            value,
            exact,
            choice,
            stats,
            perm,
            stab,
            places,
            hist,
        )
        if total < best:
            best = total
            best_g = g
        else:
            floor = min(floor, total)
    if stats[2] != 0:
        return max(lb, beta)
    slot = _slot(h1, h2, k1, k2)
    k1[slot] = h1
    k2[slot] = h2
    if best_g >= 0:
        value[slot] = best
        exact[slot] = True
        choice[slot] = best_g
        return best
    floor = max(floor, lb)
    value[slot] = floor
    exact[slot] = False
    choice[slot] = -1
    return floor


@njit(cache=False)  # not cached on disk: Numba's cache does not follow mutual recursion safely
def _experiment(
    s: NDArray[np.int32],
    g: int,
    beta: np.int64,
    everything: NDArray[np.bool_],
    t: NDArray[np.uint8],
    k: int,
    must_hit: bool,
    win: int,
    r1: NDArray[np.uint64],
    r2: NDArray[np.uint64],
    bound: NDArray[np.int64],
    k1: NDArray[np.uint64],
    k2: NDArray[np.uint64],
    value: NDArray[np.int64],
    exact: NDArray[np.bool_],
    choice: NDArray[np.int32],
    stats: NDArray[np.int64],
    perm: NDArray[np.int32],
    stab: NDArray[np.int64],
    places: NDArray[np.int8],
    hist: NDArray[np.int64],
) -> Any:  # pragma: no cover - compiled
    """The cost of S when experiment g comes next, if below beta; else a lower bound that is at least beta."""
    members, start = _split(s, g, t, k)
    child = _fixing(perm, stab, g)
    after = _extend(hist, g)
    small = 2 if must_hit else 1  # parts this small are exact by the shortcuts (see below)
    lows = np.zeros(k, dtype=np.int64)
    known = np.zeros(k, dtype=np.bool_)  # the cache holds a proof or a bound above counting for the part
    hs1 = np.zeros(k, dtype=np.uint64)
    hs2 = np.zeros(k, dtype=np.uint64)
    total = np.int64(s.shape[0])
    for o in range(k):
        size = start[o + 1] - start[o]
        if size == 0 or (must_hit and o == win):
            continue
        lo = bound[size]
        if size > small:
            h1, h2 = _fingerprint(members[start[o] : start[o + 1]], r1, r2)
            hs1[o], hs2[o] = h1, h2
            slot = _slot(h1, h2, k1, k2)
            if k1[slot] == h1 and k2[slot] == h2:
                lo = max(lo, value[slot])
                known[o] = exact[slot] or value[slot] > bound[size]
        lows[o] = lo
        total += lo
    if total >= beta:
        return total
    # each open part's bound one experiment deeper (kept in the cache), before any part is searched: a weak bound
    # on the other parts would leave the first part searched with a loose budget (stats[3] = 0: skipped, to measure)
    for o in range(k if stats[3] != 0 else 0):
        size = start[o + 1] - start[o]
        if size <= small or known[o] or (must_hit and o == win):
            continue
        h1, h2 = hs1[o], hs2[o]
        slot = _slot(h1, h2, k1, k2)
        lo = _lookahead(members[start[o] : start[o + 1]], t, k, must_hit, win, bound)
        if lo > lows[o]:
            total += lo - lows[o]
            lows[o] = lo
            if (k1[slot] == 0 and k2[slot] == 0) or (k1[slot] == h1 and k2[slot] == h2):  # never crowd out a proof
                k1[slot] = h1
                k2[slot] = h2
                value[slot] = lo
                exact[slot] = False
                choice[slot] = -1
            if total >= beta:
                return total
    # largest parts first: they carry the most cost and refute an experiment soonest
    order = np.argsort(-(start[1:] - start[:-1]))
    for i in range(k):
        o = order[i]
        size = start[o + 1] - start[o]
        if size <= small or (must_hit and o == win):
            continue  # exact already: one secret, or two (guess one, then the other) when guesses may hit
        budget = beta - (total - lows[o])
        v = _average(
            members[start[o] : start[o + 1]],
            budget,
            everything,
            everything,
            t,
            k,
            must_hit,
            win,
            r1,
            r2,
            bound,
            k1,
            k2,
            value,
            exact,
            choice,
            stats,
            perm,
            child,
            places,
            after,
        )
        total += v - lows[o]
        lows[o] = v
        if total >= beta:
            return total
    return total


@njit(cache=True)
def _splits(
    s: NDArray[np.int32], depth: int, t: NDArray[np.uint8], k: int, must_hit: bool, win: int, caps: NDArray[np.int64]
) -> bool:  # pragma: no cover - compiled
    """The counting test one experiment deeper: does some experiment leave every open part of S within
    caps[depth - 1] (and tell something)? If not, S cannot be finished within depth."""
    member = np.zeros(t.shape[0] if must_hit else 1, dtype=np.bool_)
    if must_hit:
        for x in s:
            member[x] = True
    count = np.zeros(k, dtype=np.int64)
    cap = caps[depth - 1]
    for g in range(t.shape[0]):
        count[:] = 0
        over = False
        for x in s:  # stops at the first open part over the capacity
            o = t[g, x]
            count[o] += 1
            if count[o] > cap and not (must_hit and o == win):
                over = True
                break
        if not over and ((must_hit and member[g]) or np.count_nonzero(count) > 1):
            return True
    return False


@njit(cache=False)  # not cached on disk: Numba's cache does not follow mutual recursion safely
def _fits(
    s: NDArray[np.int32],
    depth: int,
    allowed: NDArray[np.bool_],
    everything: NDArray[np.bool_],
    t: NDArray[np.uint8],
    k: int,
    must_hit: bool,
    win: int,
    r1: NDArray[np.uint64],
    r2: NDArray[np.uint64],
    caps: NDArray[np.int64],
    k1: NDArray[np.uint64],
    k2: NDArray[np.uint64],
    value: NDArray[np.int64],
    exact: NDArray[np.bool_],
    choice: NDArray[np.int32],
    stats: NDArray[np.int64],
    perm: NDArray[np.int32],
    stab: NDArray[np.int64],
    places: NDArray[np.int8],
    hist: NDArray[np.int64],
) -> bool:  # pragma: no cover - compiled
    """Can S be finished within `depth` experiments? The cache holds, per set, the least depth known to fit
    (value, with exact=True) or the greatest depth known not to (value, exact=False)."""
    n = s.shape[0]
    if n == 0 or (n == 1 and not must_hit):
        return True
    if depth <= 0 or n > caps[depth]:
        return False
    if n == 1:
        return True
    if stats[2] != 0:
        return False
    h1, h2 = _fingerprint(s, r1, r2)
    slot = _slot(h1, h2, k1, k2)
    if k1[slot] == h1 and k2[slot] == h2:
        if exact[slot] and value[slot] <= depth:
            return True
        if not exact[slot] and value[slot] >= depth:
            return False
    stats[0] += n  # work: the secrets of every set searched (each costs a scan of every experiment)
    if stats[0] > stats[1]:
        stats[2] = 1
        return False
    cands = _candidates(s, allowed, t, k, must_hit, win, r1, r2, caps, True, perm, stab, places, hist)
    found = -1
    for c in range(cands.shape[0]):
        if cands[c, 0] > caps[depth - 1]:
            break
        g = int(cands[c, 1])
        members, start = _split(s, g, t, k)
        child = _fixing(perm, stab, g)
        after = _extend(hist, g)
        sizes = start[1:] - start[:-1]
        order = np.argsort(-sizes)
        ok = True
        # before any part is searched, every part too large to split trivially gets the counting test one
        # experiment deeper: a small part that cannot be split refutes g before a large one is searched
        if depth >= 3 and stats[3] != 0:
            for o in order[1:]:  # the largest part is searched first anyway
                if sizes[o] > caps[depth - 2] and not (must_hit and o == win):
                    ok = _splits(members[start[o] : start[o + 1]], depth - 1, t, k, must_hit, win, caps)
                    if not ok:
                        break
        for i in range(k if ok else 0):
            o = order[i]
            if sizes[o] == 0 or (must_hit and o == win):
                continue
            if not _fits(
                members[start[o] : start[o + 1]],
                depth - 1,
                everything,
                everything,
                t,
                k,
                must_hit,
                win,
                r1,
                r2,
                caps,
                k1,
                k2,
                value,
                exact,
                choice,
                stats,
                perm,
                child,
                places,
                after,
            ):
                ok = False
                break
        if ok:
            found = g
            break
    if stats[2] != 0:
        return False
    slot = _slot(h1, h2, k1, k2)
    k1[slot] = h1
    k2[slot] = h2
    value[slot] = depth
    exact[slot] = found >= 0
    choice[slot] = found
    return found >= 0


# ---------------------------------------------------------------- symmetries


MAX_SYMMETRIES = 20_000  # Bulls and Cows' first guess has 17,280 (a 348 MB table); more: search without them


def symmetries(game: Game, g: int) -> NDArray[np.int32]:
    """The colour-and-position permutations of a guess-the-secret sequence game that fix experiment g, each as the
    image of every code (rows; the identity included). Such a permutation keeps every score, so it maps the set of
    secrets left after g and any outcome onto itself. Other games: none (no rows)."""
    e = len(game.experiments)
    if game.spec.secrets[0] != "sequences" or not game.must_hit or game.experiments != game.secrets:
        return np.zeros((0, e), dtype=np.int32)
    codes = np.array([[ord(ch) - ord("A") for ch in label] for label in game.experiments], dtype=np.int64)
    pegs, colours = codes.shape[1], int(codes.max()) + 1
    weights = colours ** np.arange(pegs - 1, -1, -1, dtype=np.int64)
    where = np.full(colours**pegs, -1, dtype=np.int64)
    where[codes @ weights] = np.arange(e)
    target = [int(c) for c in codes[g]]
    rows = []
    for places in permutations(range(pegs)):
        # the image of a code c is colour[c[places[i]]] at each place i; it fixes g when colour[g[places[i]]] = g[i]
        colour: dict[int, int] = {}
        if any(colour.setdefault(target[places[i]], target[i]) != target[i] for i in range(pegs)):
            continue
        if len(set(colour.values())) != len(colour):
            continue
        spare_from = [c for c in range(colours) if c not in colour]
        spare_to = [c for c in range(colours) if c not in colour.values()]
        for image in permutations(spare_to):
            full = np.empty(colours, dtype=np.int64)
            for a, b in [*colour.items(), *zip(spare_from, image, strict=True)]:
                full[a] = b
            rows.append(where[full[codes[:, list(places)]] @ weights])
            if len(rows) > MAX_SYMMETRIES:
                return np.zeros((0, e), dtype=np.int32)
    return np.array(rows, dtype=np.int32).reshape(len(rows), e)


# ---------------------------------------------------------------- driving the search from Python


@dataclass(frozen=True)
class Optimum:
    """What the search proved: the optimal cost (total experiments, or the worst case), and its work (the
    secrets of every set searched)."""

    cost: int
    work: int


class Search:
    """One optimal search over a game, with its cache (kept so that the tree can be read back)."""

    def __init__(
        self,
        game: Game,
        worst: bool,
        node_limit: int = NODE_LIMIT,
        cache_bits: int = CACHE_BITS,
        lookahead: bool = True,
        places: bool = True,
    ) -> None:
        self.game = game
        self.worst = worst
        self.t = np.ascontiguousarray(game.dense())
        self.k = int(self.t.max()) + 1
        self.win = game.win_outcome if game.must_hit else -1
        present = np.unique(self.t)
        self.branches = len(present) - (1 if game.must_hit and self.win in present else 0)
        rng = np.random.default_rng(20261122)
        n = len(game.secrets)
        self.r1 = rng.integers(1, 2**63, size=n, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
        self.r2 = rng.integers(1, 2**63, size=n, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
        if n > LARGE_GAME:
            cache_bits = max(cache_bits, LARGE_CACHE_BITS)
        size = 1 << (min(cache_bits, 16) if n <= 256 else cache_bits)  # small games: a small table is quicker
        self.k1 = np.zeros(size, dtype=np.uint64)
        self.k2 = np.zeros(size, dtype=np.uint64)
        self.value = np.zeros(size, dtype=np.int64)
        self.exact = np.zeros(size, dtype=np.bool_)
        self.choice = np.full(size, -1, dtype=np.int32)
        # work done, its limit, stopped at the limit, parts bounded one experiment deeper (see `_experiment`)
        self.stats = np.array([0, node_limit, 0, int(lookahead)], dtype=np.int64)
        self.bound = counting_bounds(n, self.branches, game.must_hit)
        top = 1
        while capacity(top, self.branches, game.must_hit) < n:
            top += 1
        self.caps = np.array([capacity(d, self.branches, game.must_hit) for d in range(top + 40)], dtype=np.int64)
        self.everything = np.ones(self.t.shape[0], dtype=np.bool_)
        self.lowest_depth = top
        self.no_perm = np.zeros((1, self.t.shape[0]), dtype=np.int32)
        self.no_stab = np.zeros(0, dtype=np.int64)
        self.no_places = np.zeros((0, 1), dtype=np.int8)
        self.no_hist = np.zeros(0, dtype=np.int64)
        # black-peg games: the codes, for the place-by-place symmetries (`_place_classes`; places=False: not used)
        self.places = (
            np.array([[ord(c) - ord("A") for c in label] for label in game.experiments], dtype=np.int8)
            if game.place_symmetric and places
            else self.no_places
        )
        self.root_choice = -1
        self._root_rows: NDArray[np.int64] | None = None  # the worst case's first experiments (fits_from_start)
        self._symmetries: dict[int, tuple[NDArray[np.int32], NDArray[np.int64]]] = {}

    def _check(self) -> None:
        if self.stats[2]:
            raise LimitError(
                f"too large to search here: past the search's budget ({int(self.stats[1]):,} secrets in the sets "
                "searched)"
            )

    def _root_allowed(self) -> NDArray[np.bool_]:
        """One experiment per symmetry class at the start."""
        if self.places.shape[0]:
            return _place_classes(self.places, self.no_hist)
        allowed = np.zeros(self.t.shape[0], dtype=np.bool_)
        seen: set[int] = set()
        for e, cls in enumerate(self.game.orbit or range(self.t.shape[0])):
            if cls not in seen:
                seen.add(cls)
                allowed[e] = True
        return allowed

    def _fixing(self, g: int) -> tuple[NDArray[np.int32], NDArray[np.int64], NDArray[np.int64]]:
        """The symmetries that fix experiment g (`symmetries`, built once per experiment), their rows, and g as
        the history (black-peg games: their place-by-place symmetries, which include the others, instead)."""
        if self.places.shape[0]:
            return self.no_perm, self.no_stab, np.array([g], dtype=np.int64)
        if g not in self._symmetries:
            perm = symmetries(self.game, g)
            self._symmetries[g] = perm, np.arange(len(perm), dtype=np.int64)
        return (*self._symmetries[g], self.no_hist)

    def _args(self) -> tuple[Any, ...]:
        return (self.t, self.k, self.game.must_hit, self.win, self.r1, self.r2)

    def _store(
        self,
        perm: NDArray[np.int32] | None = None,
        stab: NDArray[np.int64] | None = None,
        hist: NDArray[np.int64] | None = None,
    ) -> tuple[Any, ...]:
        """The cache and counters, then the symmetries in force (none unless given; a history given, the
        place-by-place symmetries of a black-peg game that fix it)."""
        perm = self.no_perm if perm is None else perm
        stab = self.no_stab if stab is None else stab
        places = self.places if hist is not None and len(hist) else self.no_places
        hist = self.no_hist if hist is None else hist
        return (self.k1, self.k2, self.value, self.exact, self.choice, self.stats, perm, stab, places, hist)

    def average(
        self, s: NDArray[np.int32], beta: int, allowed: NDArray[np.bool_] | None = None, after: int | None = None
    ) -> int:
        """The least total cost of s (below beta), else a lower bound at least beta (after: the one experiment
        made so far, whose symmetries the search may use)."""
        a = self.everything if allowed is None else allowed
        store = self._store() if after is None else self._store(*self._fixing(after))
        v = cast(Any, _average)(s, np.int64(beta), a, self.everything, *self._args(), self.bound, *store)
        self._check()
        return int(v)

    def fits(self, s: NDArray[np.int32], depth: int, allowed: NDArray[np.bool_] | None = None) -> bool:
        """Whether s can be finished within depth experiments."""
        a = self.everything if allowed is None else allowed
        ok = cast(Any, _fits)(s, depth, a, self.everything, *self._args(), self.caps, *self._store())
        self._check()
        return bool(ok)

    def _root_candidates(self, s: NDArray[np.int32], allowed: NDArray[Any]) -> Any:
        """The first experiments to try, each with its bound (worst case: its largest part), best first."""
        limits = self.caps if self.worst else self.bound
        args = (self.t, self.k, self.game.must_hit, self.win, self.r1, self.r2, limits, self.worst)
        return _candidates(s, allowed, *args, *self._store()[-4:])

    def solve(self, tick: Callable[[int, int], None] | None = None) -> Optimum:
        """The optimal cost from the start, proved."""
        s = np.arange(len(self.game.secrets), dtype=np.int32)
        allowed = self._root_allowed()
        if self.worst:
            depth = self.lowest_depth
            try:
                while not self.fits_from_start(depth, tick):
                    depth += 1
            except LimitError as stopped:  # what was proved before the budget ran out
                raise LimitError(f"{stopped}; proved so far: at least {depth} experiments") from stopped
            return Optimum(depth, int(self.stats[0]))
        cands = self._root_candidates(s, allowed)
        best = int(BIG)
        for i, (low, g) in enumerate(cands):
            if low >= best:
                break

            def told(done: int, i: int = i) -> None:
                if tick:
                    tick(i * len(s) + done, len(cands) * len(s))

            total = self._first_total(s, int(g), best, told)
            if total < best:
                best, self.root_choice = total, int(g)
        return Optimum(best, int(self.stats[0]))

    def fits_from_start(self, depth: int, tick: Callable[[int, int], None] | None = None) -> bool:
        """Whether the whole game can be finished within depth experiments (worst case; False is a proof that it
        cannot: every first experiment, one per symmetry class, was refuted by the complete search)."""
        s = np.arange(len(self.game.secrets), dtype=np.int32)
        if self._root_rows is None:  # the same for every depth tried
            self._root_rows = self._root_candidates(s, self._root_allowed())
        cands = self._root_rows
        for i, (largest, g) in enumerate(cands):
            if tick:
                tick(i, len(cands))
            if largest > self.caps[depth - 1]:
                break
            if self._first_fits(s, int(g), depth):
                self.root_choice = int(g)
                return True
        return False

    def _first_total(self, s: NDArray[np.int32], g: int, best: int, told: Callable[[int], None]) -> int:
        """The total cost of s with experiment g first if below best, else a lower bound at least best: as
        `_experiment` (every open part bounded first, then searched largest first with the budget left, under the
        symmetries that fix g), with the parts searched one by one from here so that progress is told after each
        (secrets whose part is settled)."""
        store = self._store(*self._fixing(g))
        outcomes = self.t[g, s]
        done = int((outcomes == self.win).sum()) if self.game.must_hit else 0
        parts = sorted(
            (s[outcomes == o] for o in np.unique(outcomes) if not (self.game.must_hit and o == self.win)),
            key=len,
            reverse=True,
        )
        exact = 2 if self.game.must_hit else 1  # parts this small cost their counting bound
        lows = [
            int(self.bound[len(p)])
            if len(p) <= exact or not self.stats[3]
            else max(int(self.bound[len(p)]), int(cast(Any, _lookahead)(p, *self._args()[:4], self.bound)))
            for p in parts
        ]
        total = len(s) + sum(lows)
        for p, low in zip(parts, lows, strict=True):
            if total >= best:
                return total
            told(done)
            v = cast(Any, _average)(
                p, np.int64(best - (total - low)), self.everything, self.everything, *self._args(), self.bound, *store
            )
            self._check()
            total += int(v) - low
            done += len(p)
        told(done)
        return total

    def _first_fits(self, s: NDArray[np.int32], g: int, depth: int) -> bool:
        """Whether experiment g first, then every part within depth - 1, finishes s within depth (the parts
        searched with the symmetries that fix g)."""
        store = self._store(*self._fixing(g))
        outcomes = self.t[g, s]
        for o in sorted(set(outcomes.tolist()), key=lambda o: -int((outcomes == o).sum())):
            if self.game.must_hit and o == self.win:
                continue
            part = s[outcomes == o]
            ok = cast(Any, _fits)(part, depth - 1, self.everything, self.everything, *self._args(), self.caps, *store)
            self._check()
            if not ok:
                return False
        return True

    def best_of(self, s: NDArray[np.int32], budget: int) -> tuple[int, int]:
        """(cost, experiment) on the optimal tree for a set whose cost (or depth) is at most budget: read back
        from the cache, or searched again if it was crowded out."""
        if self.game.must_hit and len(s) <= 2:
            return (len(s) if self.worst else 2 * len(s) - 1), int(s[0])
        if self.game.must_hit and not self.worst and len(s) <= self.k:  # the shortcuts `_average` takes
            perfect = _perfect_member(s, self.t, self.k)
            if perfect >= 0:
                return 2 * len(s) - 1, perfect
            if len(s) == 3:
                return 6, int(s[0])
        for again in (False, True):
            if again:
                if self.worst:
                    self.fits(s, budget)
                else:
                    self.average(s, budget + 1)
            h1, h2 = (np.uint64(h) for h in _fingerprint(s, self.r1, self.r2))
            slot = _slot(h1, h2, self.k1, self.k2)
            known = self.k1[slot] == h1 and self.k2[slot] == h2 and self.exact[slot] and self.choice[slot] >= 0
            if known and (not self.worst or self.value[slot] <= budget):
                return int(self.value[slot]), int(self.choice[slot])
        raise AssertionError("a set on the optimal tree has no proved experiment on a second search")

"""Compiled operations on sets of secrets (sorted arrays of secret numbers): fingerprints, the table of proved
costs, splitting by an experiment's outcomes, and the shortcuts for small sets.

A set's fingerprint is two independent 64-bit sums of random numbers, one per member (128 bits, order-free), so a
set reached by several paths is searched once; partitions are compared under the same kind of fingerprint.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from solvers.jit import kernel

from . import rules
from .rules import BETA, UNCAPPED, Handed, Memo, Rules, Symmetry
from .symmetry import in_force

PROBES = 32  # slots tried before a crowded table replaces the home slot


@kernel
def mix(x: np.uint64) -> np.uint64:  # pragma: no cover - compiled
    """SplitMix64's finaliser: spreads a part's fingerprint before parts are added together."""
    x ^= x >> np.uint64(30)
    x *= np.uint64(0xBF58476D1CE4E5B9)
    x ^= x >> np.uint64(27)
    x *= np.uint64(0x94D049BB133111EB)
    x ^= x >> np.uint64(31)
    return x


@kernel
def fingerprint(s: NDArray[np.int32], rules: Rules) -> tuple[np.uint64, np.uint64]:  # pragma: no cover - compiled
    """Two order-free 64-bit fingerprints of a set."""
    h1 = np.uint64(0x9E3779B97F4A7C15)
    h2 = np.uint64(0xC2B2AE3D27D4EB4F)
    for x in s:
        h1 += rules.r1[x]
        h2 += rules.r2[x]
    return h1, h2


@kernel
def keyed(h: tuple[np.uint64, np.uint64], depth: int) -> tuple[np.uint64, np.uint64]:  # pragma: no cover
    """A set's fingerprints as the table keys it at a depth cap (unchanged when uncapped): the least cost of a set
    within d experiments is another entry than without a cap (and a set free to be guessed any code, above
    UNCAPPED, another than one guessed possible codes only)."""
    if depth == UNCAPPED:
        return h
    salt = mix(np.uint64(depth) + np.uint64(0x9E3779B97F4A7C15))
    return h[0] ^ salt, h[1] ^ mix(salt)


below = kernel(rules.below)  # the depth left to the parts after one experiment, compiled for the kernels
free = kernel(rules.free)  # whether a set at a depth may be guessed any code, compiled for the kernels


@kernel
def feasible(n: int, depth: int, rules: Rules) -> bool:  # pragma: no cover - compiled
    """Whether n secrets could be finished within depth experiments at all (the counting capacity)."""
    return bool(depth >= rules.caps.shape[0] or rules.caps[depth] >= n)  # caps cover every depth that can bind


@kernel
def slot(memo: Memo, h1: np.uint64, h2: np.uint64) -> Any:  # pragma: no cover - compiled
    """The table slot holding a set, or the empty slot where it goes (or a slot to replace when crowded)."""
    mask = memo.k1.shape[0] - 1
    start = np.int64(h1 & np.uint64(mask))
    at = start
    for _ in range(PROBES):
        if (memo.k1[at] == h1 and memo.k2[at] == h2) or (memo.k1[at] == 0 and memo.k2[at] == 0):
            return at
        at = (at + 1) & mask
    return start


@kernel
def seal(h1: np.uint64, h2: np.uint64, value: np.int64, exact: bool, choice: int) -> np.uint64:  # pragma: no cover
    """An entry's check: a hash of all its fields, so that an entry two processes wrote at once (a table shared by a
    proof's workers) reads as a mixture that fails it, and so as absent."""
    x = mix(h1 ^ mix(h2 ^ np.uint64(value)))
    return mix(x ^ (np.uint64(np.uint32(choice)) << np.uint64(1)) ^ np.uint64(1 if exact else 0))


@kernel
def seals(
    k1: NDArray[np.uint64], k2: NDArray[np.uint64], value: NDArray[np.int64], exact: NDArray[np.bool_], choice: Any
) -> NDArray[np.uint64]:  # pragma: no cover - compiled
    """The seals of entries read out of a table (copies of its fields at some slots), to check them by."""
    out = np.empty(k1.shape[0], dtype=np.uint64)
    for i in range(k1.shape[0]):
        out[i] = seal(k1[i], k2[i], value[i], exact[i], choice[i])
    return out


@kernel
def look(memo: Memo, h1: np.uint64, h2: np.uint64) -> Any:  # pragma: no cover - compiled
    """(whether the table holds the set with fingerprint (h1, h2), its value, whether exact, its experiment), each
    field read once and checked against the entry's seal."""
    at = slot(memo, h1, h2)
    k1, k2, value, exact, choice = memo.k1[at], memo.k2[at], memo.value[at], memo.exact[at], memo.choice[at]
    ok = k1 == h1 and k2 == h2 and memo.check[at] == seal(k1, k2, value, exact, choice)
    return ok, value, exact, choice


@kernel
def free_for(memo: Memo, h1: np.uint64, h2: np.uint64) -> bool:  # pragma: no cover - compiled
    """Whether a bound for the set (h1, h2) may be kept: its slot is empty or already the set's (never crowd out
    another set's proof)."""
    at = slot(memo, h1, h2)
    return bool((memo.k1[at] == 0 and memo.k2[at] == 0) or (memo.k1[at] == h1 and memo.k2[at] == h2))


@kernel
def answered(handed: Handed, h1: np.uint64, h2: np.uint64) -> Any:  # pragma: no cover - compiled
    """(whether the schedule answered the set h1, h2 (`Handed.answer_keys`, where no table entry can crowd it out),
    its cost or bound, whether exact)."""
    size = handed.answer_keys.shape[0]
    at = np.int64(h1 % np.uint64(size))
    for _ in range(size):
        k1, k2 = handed.answer_keys[at, 0], handed.answer_keys[at, 1]
        if k1 == h1 and k2 == h2:
            return True, handed.answers[at, 0], handed.answers[at, 1] != 0
        if k1 == 0 and k2 == 0:
            break
        at = (at + 1) % size
    return False, np.int64(0), False


def pin(handed: Handed, key: tuple[int, int], value: int, exact: bool) -> None:
    """Write an answer where the searches from the start read it first (`answered`), if there is room."""
    at, size = key[0] % handed.answer_keys.shape[0], handed.answer_keys.shape[0]
    for _ in range(size):
        k1, k2 = (int(k) for k in handed.answer_keys[at])
        if (k1, k2) in ((0, 0), key):
            handed.answer_keys[at], handed.answers[at] = key, (value, int(exact))
            return
        at = (at + 1) % size


@kernel
def lowered(
    memo: Memo, level: int, beta: np.int64, best: np.int64, best_g: int, floor: np.int64
) -> Any:  # pragma: no cover
    """S (the level-th set) under its budget now: (its budget, best total and experiment, least refuted bound), as
    they were unless S is the start of a subproblem whose schedule has since needed it below less than beta (its
    slot's `Memo.ceilings`, which `optimal.prove` lowers as results come in): then below that, a total found at or
    above it refuted, and S's frame says the budget (a resume under a larger one searches S afresh)."""
    at = memo.counters[0].slot
    if level == 0 and at >= 0 and memo.ceilings[at] < beta:
        beta = memo.ceilings[at]
        memo.frames.state[0, BETA] = beta
        if best >= beta:
            floor = min(floor, best) if best_g >= 0 else floor
            best, best_g = beta, -1
    return beta, best, best_g, floor


@kernel
def record(
    memo: Memo, h1: np.uint64, h2: np.uint64, value: np.int64, exact: bool, choice: int
) -> None:  # pragma: no cover - compiled
    """Keep a set's cost (or bound) and its experiment, sealed last."""
    at = slot(memo, h1, h2)
    memo.k1[at] = h1
    memo.k2[at] = h2
    memo.value[at] = value
    memo.exact[at] = exact
    memo.choice[at] = choice
    memo.check[at] = seal(h1, h2, value, exact, choice)


@kernel
def note(memo: Memo, s: NDArray[np.int32], value: np.int64, sym: Symmetry) -> None:  # pragma: no cover
    """Log a set's proved cost or lower bound with the experiments made before it, whose symmetries the search
    used there (`Memo.log`; -1 experiments: it used none); overflow once the log is full."""
    counters = memo.counters[0]
    at = counters.logged
    used = in_force(sym)
    hist = sym.hist if used else sym.hist[:0]
    end = at + 3 + s.shape[0] + hist.shape[0]
    if end > memo.log.shape[0]:
        counters.overflow = True
        return
    memo.log[at] = s.shape[0]
    memo.log[at + 1] = value
    memo.log[at + 2] = hist.shape[0] if used else -1
    memo.log[at + 3 : at + 3 + s.shape[0]] = s
    memo.log[at + 3 + s.shape[0] : end] = hist
    counters.logged = end


@kernel
def spend(memo: Memo, n: int) -> bool:  # pragma: no cover - compiled
    """Count the work of searching a set of n secrets; False (and stopped, the set not counted: a resumed search
    counts it when it searches it) once past the limit, or once halted."""
    counters = memo.counters[0]
    if counters.work + n > counters.limit or memo.halt[0]:
        counters.stopped = True
        return False
    counters.work += n
    return True


@kernel
def split(
    s: NDArray[np.int32], g: int, rules: Rules
) -> tuple[NDArray[np.int32], NDArray[np.int64]]:  # pragma: no cover - compiled
    """S sorted by the outcome of experiment g: the members and each outcome's start (outcomes + 1 offsets)."""
    k = rules.outcomes
    start = np.zeros(k + 1, dtype=np.int64)
    for x in s:
        start[rules.table[g, x] + 1] += 1
    for o in range(k):
        start[o + 1] += start[o]
    fill = start.copy()
    out = np.empty(s.shape[0], dtype=np.int32)
    for x in s:
        o = rules.table[g, x]
        out[fill[o]] = x
        fill[o] += 1
    return out, start


@kernel
def open_by_size(start: NDArray[np.int64], smallest: int, rules: Rules) -> NDArray[np.int64]:  # pragma: no cover
    """The outcomes whose parts (of a split) leave the game open and hold more than `smallest` secrets, largest
    first: they carry the most cost and refute an experiment soonest."""
    sizes = start[1:] - start[:-1]
    order = np.argsort(-sizes)
    out = np.empty(order.shape[0], dtype=np.int64)
    m = 0
    for o in order:
        if sizes[o] > smallest and not (rules.must_hit and o == rules.win):
            out[m] = o
            m += 1
    return out[:m]


@kernel
def perfect_member(s: NDArray[np.int32], rules: Rules) -> int:  # pragma: no cover - compiled
    """A member of S whose outcomes on the other members are all different, or -1."""
    seen = np.zeros(rules.outcomes, dtype=np.int64)
    for i in range(s.shape[0]):
        g = s[i]
        seen[:] = 0
        ok = True
        for x in s:
            o = rules.table[g, x]
            seen[o] += 1
            if seen[o] > 1:
                ok = False
                break
        if ok:
            return int(g)
    return -1


@kernel
def shortcut(s: NDArray[np.int32], rules: Rules) -> Any:  # pragma: no cover - compiled
    """The exact total cost of a small set of a guess-the-secret game, or -1: a member that splits the others into
    singletons meets the counting bound 2n - 1; three secrets otherwise cost 6 (guess one, then the other two in
    turn; no experiment does better)."""
    n = s.shape[0]
    if not rules.must_hit or n > rules.outcomes:
        return np.int64(-1)
    if perfect_member(s, rules) >= 0:
        return np.int64(2 * n - 1)
    return np.int64(6) if n == 3 else np.int64(-1)

"""The Devil's blindfold game (Norvig, "The Devil and the Coin Flip Game", with John Lamping's proof).

N coins (or dials with m positions) sit around a table. Each move names positions to flip (or amounts to
turn); before acting the Devil may rotate the table (and, in a variant, turn it over). A configuration is
an integer whose base-m digits are the positions, 0 (heads) at 12 o'clock first, clockwise. The belief is the
set of configurations still possible; since the Devil can always rotate, it is closed under the table's
symmetries, so the search works on rotation classes (necklaces) as bits of an integer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from solvers.errors import InputError, LimitError

Goal = Literal["all-heads", "all-equal"]
GOALS: tuple[Goal, ...] = ("all-heads", "all-equal")
MAX_COINS = 16
MAX_STATES = 6
SEARCH_MAX_CONFIGS = 1024  # coins: beliefs are searched exhaustively up to this many configurations
SEARCH_MAX_DIAL_CONFIGS = 100  # dials: the same, kept smaller so that a request stays quick
VERIFY_MAX_CONFIGS = 1 << 16  # exact verification up to this many configurations
MAX_BELIEFS = 50_000
EXHAUST_MAX_CONFIGS = 1 << 15  # coins: whole-table search for "no strategy" up to 15 coins


@dataclass(frozen=True)
class Variant:
    """Which game: number of coins, goal, whether the Devil may also turn the table over, states per coin."""

    n: int
    goal: Goal = "all-heads"
    reflections: bool = False
    states: int = 2

    def __post_init__(self) -> None:
        """Reject sizes out of range."""
        if not 1 <= self.n <= MAX_COINS:
            raise InputError(f"the number of coins must be 1 to {MAX_COINS}")
        if not 2 <= self.states <= MAX_STATES:
            raise InputError(f"states per coin must be 2 to {MAX_STATES}")
        if self.goal not in GOALS:
            raise InputError("goal must be all-heads or all-equal")
        if self.states**self.n > VERIFY_MAX_CONFIGS:
            raise LimitError(f"{self.states}^{self.n} configurations is more than this tool handles")

    @property
    def configs(self) -> int:
        """Number of configurations."""
        return int(self.states**self.n)


# ---------------------------------------------------------------- configurations and symmetries


def digits(v: Variant, c: int) -> tuple[int, ...]:
    """A configuration's positions, 12 o'clock first."""
    return tuple((c // v.states**i) % v.states for i in range(v.n))


def encode(v: Variant, ds: Sequence[int]) -> int:
    """The configuration with these positions."""
    return sum(d * v.states**i for i, d in enumerate(ds))


def symmetries(v: Variant) -> list[tuple[int, ...]]:
    """The Devil's table moves as position permutations: rotations, and reflections if allowed."""
    perms = [tuple((i + k) % v.n for i in range(v.n)) for k in range(v.n)]
    if v.reflections:
        perms += [tuple((k - i) % v.n for i in range(v.n)) for k in range(v.n)]
    return sorted(set(perms))


@lru_cache(maxsize=64)
def tables(v: Variant) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """Digits of every configuration, each symmetry as a map on configurations, and place values."""
    idx = np.arange(v.configs, dtype=np.int64)
    place = np.array([v.states**i for i in range(v.n)], dtype=np.int64)
    ds = (idx[:, None] // place[None, :]) % v.states
    maps = np.stack([(ds[:, list(p)] * place).sum(axis=1) for p in symmetries(v)])
    return ds, maps, place


def goal_configs(v: Variant) -> list[int]:
    """Configurations that win."""
    if v.goal == "all-heads":
        return [0]
    return [encode(v, [d] * v.n) for d in range(v.states)]


def add(v: Variant, c: int, a: int) -> int:
    """Turn each position of c by the amounts in a."""
    return encode(v, [(x + y) % v.states for x, y in zip(digits(v, c), digits(v, a), strict=True)])


# ---------------------------------------------------------------- rotation classes and the search


@lru_cache(maxsize=64)
def classes(v: Variant) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Canonical representative of each class (smallest member), and each configuration's class number."""
    _, maps, _ = tables(v)
    canon = maps.min(axis=0)
    reps = tuple(sorted({int(x) for x in canon}))
    number = {r: i for i, r in enumerate(reps)}
    return reps, tuple(number[int(x)] for x in canon)


def _transitions(v: Variant) -> list[list[int]]:
    """For each canonical move and class: the classes it can become (as bits), goal classes dropped."""
    reps, cls = classes(v)
    _, maps, _ = tables(v)
    won = {cls[g] for g in goal_configs(v)}
    out = []
    for a in reps:
        images = {int(x) for x in maps[:, a]}
        row = []
        for c in reps:
            bits = 0
            for ga in images:
                k = cls[add(v, c, ga)]
                if k not in won:
                    bits |= 1 << k
            row.append(bits)
        out.append(row)
    return out


def _step(rows: list[int], belief: int) -> int:
    """The belief after a move, from its per-class transitions."""
    out = 0
    while belief:
        low = belief & -belief
        out |= rows[low.bit_length() - 1]
        belief ^= low
    return out


@dataclass(frozen=True)
class SearchResult:
    """Shortest strategy found by breadth-first search over beliefs, or proof that none exists."""

    moves: tuple[int, ...] | None
    beliefs_explored: int
    exhausted: bool


def searchable(v: Variant) -> bool:
    """True when the belief search is run for this variant."""
    return v.configs <= (SEARCH_MAX_CONFIGS if v.states == 2 else SEARCH_MAX_DIAL_CONFIGS)


@lru_cache(maxsize=64)
def search(v: Variant) -> SearchResult:
    """Breadth-first search over beliefs (sets of classes) for the shortest sure win."""
    if not searchable(v):
        raise LimitError(f"search is limited to {SEARCH_MAX_CONFIGS} configurations")
    reps, cls = classes(v)
    rows = _transitions(v)
    won = {cls[g] for g in goal_configs(v)}
    start = sum(1 << k for k in range(len(reps)) if k not in won)
    if start == 0:
        return SearchResult((), 1, True)  # already won: every configuration is a goal
    parent: dict[int, tuple[int, int]] = {start: (-1, -1)}
    frontier = [start]
    while frontier and len(parent) <= MAX_BELIEFS:
        nxt = []
        for belief in frontier:
            for mi, row in enumerate(rows):
                after = _step(row, belief)
                if after in parent:
                    continue
                parent[after] = (belief, mi)
                if after == 0:
                    return SearchResult(_path(parent, reps), len(parent), True)
                nxt.append(after)
        frontier = nxt
    return SearchResult(None, len(parent), not frontier)


def _path(parent: dict[int, tuple[int, int]], reps: tuple[int, ...]) -> tuple[int, ...]:
    """The moves leading to the empty belief."""
    moves = []
    node = 0
    while parent[node][0] != -1:
        node, mi = parent[node]
        moves.append(reps[mi])
    return tuple(reversed(moves))


def exhaust_configs(v: Variant) -> SearchResult:
    """The same breadth-first search on whole configuration sets (NumPy), for coins beyond the class search.

    Beliefs are boolean arrays over all 2^N tables, closed under the Devil's symmetries; a move a maps B to
    the union of B + g(a) over the symmetries g. Used to show exhaustively that no strategy exists for N up to
    15 (reachable beliefs are few: the Devil keeps almost everything alive).
    """
    if v.states != 2:
        raise InputError("the configuration-set search is for coins")
    _, maps, _ = tables(v)
    reps, _ = classes(v)
    idx = np.arange(v.configs, dtype=np.int64)
    images = [sorted({int(x) for x in maps[:, a]}) for a in reps]
    start = np.ones(v.configs, dtype=bool)
    start[goal_configs(v)] = False
    seen = {start.tobytes()}
    frontier = [start]
    while frontier and len(seen) <= MAX_BELIEFS:
        nxt = []
        for belief in frontier:
            for shifts in images:
                after = np.zeros(v.configs, dtype=bool)
                for ga in shifts:
                    after |= belief[idx ^ ga]
                after[goal_configs(v)] = False
                if not after.any():
                    return SearchResult(None, len(seen), False)  # a win exists; use the class search for it
                key = after.tobytes()
                if key not in seen:
                    seen.add(key)
                    nxt.append(after)
        frontier = nxt
    return SearchResult(None, len(seen), not frontier)


# ---------------------------------------------------------------- Lamping's construction


def lamping(n: int) -> list[int]:
    """Lamping's sequence for n a power of two: 2^n - 1 moves, each a bitmask of positions to flip."""
    if n == 1:
        return [1]
    if n % 2:
        raise InputError("Lamping's construction needs a power of two")
    half = n // 2
    o = lamping(half)
    d = [x | (x << half) for x in o]
    out = list(d)
    for s in o:
        out += [s, *d]
    return out


def lamping_move(n: int, i: int) -> int:
    """The i-th (0-based) move of Lamping's sequence, computed without building the sequence."""
    if n == 1:
        return 1
    half = n // 2
    length = 2**half - 1
    block, offset = divmod(i, length + 1)
    if offset < length:
        o = lamping_move(half, offset)
        return o | (o << half)
    return lamping_move(half, block)


def is_power_of_two(n: int) -> bool:
    """True for 1, 2, 4, 8, 16, ..."""
    return n & (n - 1) == 0


# ---------------------------------------------------------------- exact verification


@dataclass(frozen=True)
class Verification:
    """A strategy replayed on every start and every choice of the Devil, at once."""

    ok: bool
    sizes: tuple[int, ...]  # configurations still possible after each move


def verify(v: Variant, moves: Sequence[int]) -> Verification:
    """Propagate the whole belief through the moves; the strategy wins iff nothing is left at the end."""
    ds, maps, place = tables(v)
    belief = np.ones(v.configs, dtype=bool)
    belief[goal_configs(v)] = False
    sizes = []
    binary = v.states == 2
    idx = np.arange(v.configs, dtype=np.int64)
    for a in moves:
        out = np.zeros(v.configs, dtype=bool)
        for ga in {int(x) for x in maps[:, a]}:
            if binary:
                out |= belief[idx ^ ga]
            else:  # out[x] is set when x - g(a) was possible
                back = (((ds - ds[ga]) % v.states) * place).sum(axis=1)
                out |= belief[back]
        out[goal_configs(v)] = False
        belief = out
        sizes.append(int(belief.sum()))
    return Verification(not belief.any(), tuple(sizes))


def brute_force_wins(v: Variant, moves: Sequence[int]) -> bool:
    """Play every start against every sequence of Devil choices, one path at a time (small cases only)."""
    perms = symmetries(v)

    @cache
    def play(c: int, i: int) -> bool:
        """True when every Devil choice from here loses for the Devil."""
        if c in goal_configs(v):
            return True
        if i == len(moves):
            return False
        a = digits(v, moves[i])
        for p in perms:
            ds = digits(v, c)
            turned = [ds[p[k]] for k in range(v.n)]
            if not play(encode(v, [(x + y) % v.states for x, y in zip(turned, a, strict=True)]), i + 1):
                return False
        return True

    return all(play(c, 0) for c in range(v.configs))


# ---------------------------------------------------------------- why there is no strategy


def odd_prime_factor(n: int) -> int | None:
    """The smallest odd prime dividing n, if any."""
    k = n
    while k % 2 == 0 and k > 1:
        k //= 2
    p = 3
    while p * p <= k:
        if k % p == 0:
            return p
        p += 2
    return k if k > 1 else None


def devil_keeps_unequal(p: int) -> bool:
    """Exhaustive check of the Devil's argument on p coins: unequal coins can always be kept unequal.

    The Devil loses a pattern c to a move a only if every rotation of c, flipped by a, is constant, i.e. every
    rotation of c is a or its complement. So only patterns with at most two distinct rotations need the inner
    check; all patterns are examined.
    """
    full = (1 << p) - 1
    for c in range(1, full):  # every not-all-equal pattern
        turns = {((c << k) | (c >> (p - k))) & full for k in range(p)}
        if len(turns) > 2:
            continue
        for a in turns | {t ^ full for t in turns}:
            if all(t ^ a in (0, full) for t in turns):
                return False
    return True


def no_strategy_reason(v: Variant) -> str | None:
    """Lamping's argument for this N when it applies (coins, any goal), checked exhaustively on p coins."""
    p = odd_prime_factor(v.n)
    if v.states != 2 or p is None:
        return None
    if not devil_keeps_unequal(p):
        return None
    step = v.n // p
    spots = ", ".join(str(i * step) for i in range(p))
    return (
        f"{v.n} has the odd prime factor {p}. If the {p} coins at positions {spots} start not all equal, the "
        f"Devil keeps them not all equal for ever: whatever you flip among them, one of the {p} rotations by "
        f"multiples of {step} leaves them unequal (checked for all {2**p - 2} unequal patterns and "
        f"{2**p} moves). So no sequence of moves is sure to win."
    )


# ---------------------------------------------------------------- the answer for a variant


@dataclass(frozen=True)
class Solution:
    """The shortest sure win (or a construction), or why there is none."""

    variant: Variant
    solvable: bool | None
    moves: tuple[int, ...] | None
    method: str | None
    verified: bool
    reason: str | None
    sizes: tuple[int, ...] = ()

    @property
    def length(self) -> int | None:
        """Number of moves."""
        return None if self.moves is None else len(self.moves)


@lru_cache(maxsize=64)
def solve(v: Variant) -> Solution:
    """Search when small, Lamping's construction for large powers of two, the Devil's argument otherwise."""
    if searchable(v):
        r = search(v)
        if r.moves is not None:
            check = verify(v, r.moves)
            return Solution(v, True, r.moves, "search", check.ok, None, check.sizes)
        if r.exhausted:
            reason = no_strategy_reason(v) or (
                f"exhaustive search over all {r.beliefs_explored:,} reachable beliefs found no sure win"
            )
            return Solution(v, False, None, "search", True, reason)
    if v.states == 2 and v.goal == "all-heads" and is_power_of_two(v.n):
        moves = tuple(lamping(v.n))
        check = verify(v, moves)
        return Solution(
            v,
            True if check.ok else None,
            moves if check.ok else None,
            "construction",
            check.ok,
            None if check.ok else "Lamping's construction did not verify for this variant",
            check.sizes,
        )
    argument = no_strategy_reason(v)
    if v.states == 2 and v.configs <= EXHAUST_MAX_CONFIGS:
        full = exhaust_configs(v)
        if full.exhausted:
            found = (
                f"Exhaustive search over all {v.configs:,} tables: {full.beliefs_explored} reachable beliefs, "
                "none empty."
            )
            return Solution(v, False, None, "search", True, f"{argument} {found}" if argument else found)
    if argument:
        return Solution(v, False, None, "argument", True, argument)
    return Solution(v, None, None, None, False, "too large to search, and no construction or argument applies")


def positions(v: Variant, move: int) -> list[int]:
    """The positions a move touches (coins: those flipped)."""
    return [i for i, d in enumerate(digits(v, move)) if d]


def belief_classes(v: Variant, moves: Sequence[int]) -> list[list[int]]:
    """The classes (as canonical configurations) still possible before and after each move (small N only)."""
    reps, cls = classes(v)
    rows = _transitions(v)
    won = {cls[g] for g in goal_configs(v)}
    belief = sum(1 << k for k in range(len(reps)) if k not in won)
    index = {r: i for i, r in enumerate(reps)}
    out = [[reps[k] for k in range(len(reps)) if belief >> k & 1]]
    for a in moves:
        belief = _step(rows[index[int(tables(v)[1][:, a].min())]], belief)
        out.append([reps[k] for k in range(len(reps)) if belief >> k & 1])
    return out

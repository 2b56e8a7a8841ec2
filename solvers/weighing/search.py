"""Exact search over abstract beliefs: fewest weighings (worst case) and fewest on average.

Two engines live here and tests hold them to each other:

* ``solvable_by_search`` enumerates every abstract weighing (no shortcuts beyond the
  information-theoretic bound) - the general search of the seed, on counts instead of coin names.
* ``solvable`` / ``worst_split`` use proved counting rules on "rich" beliefs (two or more coins known
  genuine) and a few constructive families of weighings on large beliefs; small beliefs still go
  through the full enumeration.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, lru_cache

from solvers.errors import LimitError

from .problem import Belief, Problem, Split, children, pow3

MAX_EXACT = 18  # beliefs with at most this many candidate coins are searched exhaustively
MEMO = 1 << 18  # memo entries kept per function: bounded, so a long-running server cannot grow without limit


def is_pure(b: Belief) -> bool:
    """True for the reachable shapes: only unknown coins, or only coins of known direction."""
    return b.u == 0 or (b.l == 0 and b.h == 0)


def find_capacity(w: int) -> int:
    """Most unknown coins (plus the none case) whose counterfeit can be found in w weighings."""
    return (pow3(w) + 1) // 2


def count_feasible(b: Belief, w: int, find: bool) -> bool:
    """Necessary counting conditions for solving b within w weighings."""
    if b.is_leaf(find):
        return True
    if w <= 0 or b.answers(find) > pow3(w):
        return False
    return not (find and b.l == 0 and b.h == 0 and b.u + int(b.z) > find_capacity(w))


def is_rich(b: Belief) -> bool:
    """True when counting alone decides solvability (pure belief, two or more genuine coins)."""
    return b.g >= 2 and is_pure(b)


def _ordered(b: Belief, splits: list[Split]) -> list[Split]:
    """Splits ordered most-balanced first, ties broken by fewer coins used."""
    return sorted(splits, key=lambda s: (max(c.cases for c in children(b, s)), s.left + s.right, s))


@lru_cache(maxsize=4096)
def all_splits(b: Belief) -> tuple[Split, ...]:
    """Every weighing of b up to swapping the pans, most balanced first."""
    found: list[Split] = []
    for u1 in range(b.u + 1):
        for u2 in range(b.u - u1 + 1):
            for l1 in range(b.l + 1):
                for l2 in range(b.l - l1 + 1):
                    for h1 in range(b.h + 1):
                        for h2 in range(b.h - h1 + 1):
                            s = Split(u1, l1, h1, u2, l2, h2)
                            if (u1, l1, h1) >= (u2, l2, h2) and s.fits(b):
                                found.append(s)
    return tuple(_ordered(b, found))


@lru_cache(maxsize=MEMO)
def solvable_by_search(b: Belief, w: int, find: bool) -> bool:
    """Exhaustive search: can b be solved within w weighings?"""
    if b.is_leaf(find):
        return True
    if w <= 0 or b.answers(find) > pow3(w):
        return False
    return any(all(solvable_by_search(c, w - 1, find) for c in children(b, s)) for s in all_splits(b))


@lru_cache(maxsize=MEMO)
def solvable(b: Belief, w: int, find: bool) -> bool:
    """Can b be solved within w weighings? Counting rules where proved, search elsewhere."""
    if b.is_leaf(find):
        return True
    if not count_feasible(b, w, find):
        return False
    if is_rich(b):
        return True
    return worst_split(b, w, find) is not None


@lru_cache(maxsize=MEMO)
def worst_split(b: Belief, w: int, find: bool) -> Split | None:
    """A weighing after which every outcome is solvable within w - 1 weighings, if there is one."""
    if b.is_leaf(find) or not count_feasible(b, w, find):
        return None
    for s in candidate_splits(b, w, find):
        if all(solvable(c, w - 1, find) for c in children(b, s)):
            return s
    if b.candidates > MAX_EXACT and is_rich(b):
        raise LimitError(f"no construction found for rich belief {b.to_token()} in {w}")
    return None


def candidate_splits(b: Belief, w: int, find: bool) -> Iterator[Split]:
    """Weighings worth trying: all of them for small beliefs, constructions for large ones."""
    if b.candidates <= MAX_EXACT:
        yield from all_splits(b)
    elif b.u > 0 and b.l == 0 and b.h == 0:
        yield from _unknown_family(b, w, find)
    elif b.u == 0:
        yield from _directed_family(b, w)
    else:
        raise LimitError(f"mixed belief {b.to_token()} is too large to search")


def _unknown_family(b: Belief, w: int, find: bool) -> Iterator[Split]:
    """Weighings of m unknown coins split evenly, for the m that the counting rules allow."""
    t = pow3(w - 1)
    if find:
        m_lo = b.u + int(b.z) - find_capacity(w - 1)
    else:
        m_lo = -((t - 2 * b.u - int(b.z)) // 2)  # ceil((2u + z - t) / 2)
    m_lo, m_hi = max(1, m_lo), min(b.u, t)
    even = min(m_hi, max(m_lo, (2 * b.u + 1) // 3))  # outcomes about equally likely
    near = (even, even + 1, even - 1)
    tried = [m for m in (*near, m_lo, m_lo + 1, m_lo + 2, m_lo + 3, m_hi - 1, m_hi) if m_lo <= m <= m_hi]
    for m in dict.fromkeys(tried):
        u1, u2 = (m + 1) // 2, m // 2
        if u1 - u2 <= b.g:
            yield Split(u1, 0, 0, u2, 0, 0)


def _directed_family(b: Belief, w: int) -> Iterator[Split]:
    """Weighings of coins of known direction, three groups of sizes the counting rules allow."""
    c, t = b.candidates, pow3(w - 1)
    d_lo, d_hi = max(0, c - 2 * t), min(c - 1, t - int(b.z))
    if d_lo > d_hi:
        return
    target = min(d_hi, max(d_lo, c // 3))
    for d in dict.fromkeys(x for x in (target, target - 1, target + 1, d_lo, d_hi) if d_lo <= x <= d_hi):
        s = c - d
        yield from _compositions(b, (s + 1) // 2, s // 2)
        if s % 2 == 0 and s // 2 + 1 <= t and s >= 2:
            yield from _compositions(b, s // 2 + 1, s // 2 - 1)


def _compositions(b: Belief, a: int, bb: int) -> Iterator[Split]:
    """Splits whose left-heavier outcome keeps a coins and right-heavier keeps bb, pans within b.g."""
    s = a + bb
    lo, hi = max(0, s - b.l), min(s, b.h)
    if lo > hi:
        return
    p = (b.h * s) // max(1, b.candidates)
    for hs in dict.fromkeys(min(hi, max(lo, p + k)) for k in (0, 1, -1, 2, -2)):
        x_lo, x_hi = max(0, hs - bb), min(hs, a)
        centre = (a - bb + 2 * hs) // 4
        for x in dict.fromkeys(min(x_hi, max(x_lo, centre + k)) for k in (0, 1, -1, 2)):
            h_a, h_b, l_b = x, hs - x, a - x
            l_a = bb - h_b
            split = Split(0, l_a, h_a, 0, l_b, h_b)
            if split.fits(b):
                yield split


# ---------------------------------------------------------------- fewest weighings for a problem


@dataclass(frozen=True)
class MinResult:
    """The fewest weighings that guarantee success, or why no number does."""

    solvable: bool
    weighings: int | None
    lower_bound: int
    reason: str | None


def lower_bound(p: Problem) -> int:
    """The information-theoretic bound: ceil(log3(number of distinct answers))."""
    w = 0
    while pow3(w) < p.answers:
        w += 1
    return w


def fewest(b: Belief, find: bool) -> int | None:
    """The fewest weighings that solve a belief, or None if no number of weighings does."""
    if b.is_leaf(find):
        return 0
    lb = 0
    while pow3(lb) < b.answers(find):
        lb += 1
    for w in range(lb, lb + 3):
        if solvable(b, w, find):
            return w
    if b.candidates > MAX_EXACT:
        raise LimitError(f"{b.to_token()} not settled within {lb + 2} weighings")
    # an optimal plan never repeats an uninformative weighing, so cases - 1 weighings always suffice
    return next((w for w in range(lb + 3, b.cases) if solvable(b, w, find)), None)


def min_weighings(p: Problem) -> MinResult:
    """The fewest weighings that guarantee the goal, with the lower bound, or 'impossible' and why."""
    w = fewest(p.root(), p.find)
    if w is None:
        return MinResult(False, None, lower_bound(p), impossible_reason(p))
    return MinResult(True, w, lower_bound(p), None)


def impossible_reason(p: Problem) -> str:
    """A plain-words reason why no plan exists (only tiny problems without genuine coins)."""
    if p.coins == 1 and p.maybe_none:
        return (
            "there is only one coin and no coin known to be genuine to weigh it against, so "
            "'coin 1 is counterfeit' and 'all coins are genuine' can never be told apart"
        )
    if p.coins == 1:
        return (
            "there is only one coin and no coin known to be genuine to weigh it against, so "
            "whether it is heavier or lighter can never be told"
        )
    if p.coins == 2 and p.weight == "unknown":
        return (
            "with two coins, weight unknown and no extra genuine coin, the only weighing is coin 1 "
            "against coin 2; it tips the same way for 'coin 1 heavier' as for 'coin 2 lighter', "
            "so those cases are never separated"
        )
    return "no sequence of weighings separates all the cases (exhaustive search)"


# ---------------------------------------------------------------- fewest weighings on average


@cache
def relaxed_directed_cost(c: int, z: bool) -> int:
    """Lower bound on total depth for c coins of known direction: best of all three-way partitions."""
    if c + int(z) <= 1:
        return 0
    best = min(
        relaxed_directed_cost(a, False) + relaxed_directed_cost(bb, False) + relaxed_directed_cost(c - a - bb, z)
        for a in range(c + 1)
        for bb in range(min(a, c - a) + 1)
        if max(a, bb, c - a - bb + int(z)) < c + int(z)
    )
    return c + int(z) + best


@cache
def balanced_directed(c: int, z: bool) -> tuple[int, int, int]:
    """Total depth and the (a, b) group sizes, |a - b| <= 1, of the best balanced partition."""
    if c + int(z) <= 1:
        return 0, 0, 0
    best: tuple[int, int, int] | None = None
    for s in range(1, c + 1):
        a, bb = (s + 1) // 2, s // 2
        d = c - s
        if max(a, d + int(z)) >= c + int(z):
            continue
        cost = balanced_directed(a, False)[0] + balanced_directed(bb, False)[0] + balanced_directed(d, z)[0]
        if best is None or cost < best[0]:
            best = (cost, a, bb)
    assert best is not None
    return c + int(z) + best[0], best[1], best[2]


@cache
def rich_unknown(u: int, z: bool, find: bool) -> tuple[int, int]:
    """Total depth and coins weighed (m) of the best first weighing for u unknown coins, rich."""
    b = Belief.make(u, 0, 0, 2, z)
    if b.is_leaf(find):
        return 0, 0
    best: tuple[int, int] | None = None
    for m in range(1, u + 1):
        cost = 2 * balanced_directed(m, False)[0] + rich_unknown(u - m, z, find)[0]
        if best is None or cost < best[0]:
            best = (cost, m)
    assert best is not None
    return b.cases + best[0], best[1]


def rich_cost(b: Belief, find: bool) -> int:
    """Total depth of the average-optimal plan for a rich belief."""
    if b.u > 0:
        return rich_unknown(b.u, b.z, find)[0]
    return balanced_directed(b.candidates, b.z)[0]


def relaxed_cost(b: Belief, find: bool) -> int:
    """A lower bound on the total depth of any plan for b (exact when b is rich)."""
    if b.is_leaf(find):
        return 0
    if b.u > 0 and is_pure(b):
        return rich_unknown(b.u, b.z, find)[0]
    if b.u == 0:
        return relaxed_directed_cost(b.candidates, b.z)
    return b.cases  # mixed beliefs are never reached; any plan needs at least one weighing per case


def _rich_split(b: Belief, find: bool) -> Split:
    """The weighing that achieves the rich average-optimal cost."""
    if b.u > 0:
        m = rich_unknown(b.u, b.z, find)[1]
        return Split((m + 1) // 2, 0, 0, m // 2, 0, 0)
    _, a, bb = balanced_directed(b.candidates, b.z)
    for s in _compositions(b, a, bb):
        return s
    raise LimitError(f"no composition for {b.to_token()} with groups {a}, {bb}")


def _average_splits(b: Belief) -> Iterator[Split]:
    """Every weighing that can matter for the average on a non-rich belief."""
    if b.candidates <= MAX_EXACT or not is_pure(b):
        yield from all_splits(b)
    elif b.u > 0:
        for m in range(1, b.u + 1):
            for u1 in range((m + 1) // 2, m + 1):
                if u1 - (m - u1) <= b.g:
                    yield Split(u1, 0, 0, m - u1, 0, 0)
    elif b.h == 0 or b.l == 0:
        heavy = b.h > 0
        for x in range(b.candidates + 1):
            for y in range(min(x, b.candidates - x) + 1):
                if x + y and x - y <= b.g:
                    yield Split(0, 0, x, 0, 0, y) if heavy else Split(0, x, 0, 0, y, 0)
    else:
        yield from all_splits(b)


@lru_cache(maxsize=MEMO)
def average_choice(b: Belief, find: bool) -> tuple[int, Split | None]:
    """Least total depth (sum over cases of weighings used) and a weighing that achieves it."""
    if b.is_leaf(find):
        return 0, None
    if is_rich(b):
        return rich_cost(b, find), _rich_split(b, find)
    best: tuple[int, Split | None] = (-1, None)
    scored = []
    for s in _average_splits(b):
        kids = children(b, s)
        if max(k.cases for k in kids) >= b.cases:
            continue
        scored.append((sum(relaxed_cost(k, find) for k in kids), s, kids))
    scored.sort(key=lambda item: item[0])
    for bound, s, kids in scored:
        if best[1] is not None and bound >= best[0]:
            break
        costs = [average_choice(k, find)[0] for k in kids]
        if min(costs) < 0:
            continue  # some outcome leads to a belief that can never be solved
        if best[1] is None or sum(costs) < best[0]:
            best = (sum(costs), s)
    if best[1] is None:
        return -1, None  # no informative weighing: this belief cannot be solved
    return b.cases + best[0], best[1]

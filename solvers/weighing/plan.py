"""Concrete plans: abstract weighings mapped to numbered coins, node by node, and their verification."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Literal

from solvers.errors import InputError

from .case import Case
from .problem import OUTCOMES, Belief, Outcome, Problem, Split, children
from .search import MinResult, average_choice, min_weighings, worst_split

Objective = Literal["worst", "average"]
OBJECTIVES: tuple[Objective, ...] = ("worst", "average")
MAX_TREE_COINS = 1000  # full trees (every node expanded) only up to this many coins
MAX_AVERAGE_COINS = 100  # the average-optimal plan is offered up to this many coins
MAX_PATH = 64

Ranges = tuple[tuple[int, int], ...]  # sorted, disjoint, half-open [start, stop) ranges of coin numbers
Coin = int | str  # a numbered coin 1..N, or an extra genuine coin "G1", "G2", ...


# ---------------------------------------------------------------- ranges of coin numbers


def size(r: Ranges) -> int:
    """How many coins the ranges hold."""
    return sum(stop - start for start, stop in r)


def take(r: Ranges, k: int) -> tuple[Ranges, Ranges]:
    """The lowest k coins of r, and the rest."""
    taken: list[tuple[int, int]] = []
    rest: list[tuple[int, int]] = []
    for start, stop in r:
        if k <= 0:
            rest.append((start, stop))
        elif stop - start <= k:
            taken.append((start, stop))
            k -= stop - start
        else:
            taken.append((start, start + k))
            rest.append((start + k, stop))
            k = 0
    return tuple(taken), tuple(rest)


def union(*parts: Ranges) -> Ranges:
    """The union of ranges, merged and sorted."""
    merged: list[tuple[int, int]] = []
    for start, stop in sorted(x for part in parts for x in part if x[0] < x[1]):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(stop, merged[-1][1]))
        else:
            merged.append((start, stop))
    return tuple(merged)


def contains(r: Ranges, coin: int) -> bool:
    """True when the coin number lies in r."""
    return any(start <= coin < stop for start, stop in r)


def complement(r: Ranges, n: int) -> Ranges:
    """Coins 1..n that are not in r."""
    out: list[tuple[int, int]] = []
    at = 1
    for start, stop in union(r):
        if at < start:
            out.append((at, start))
        at = max(at, stop)
    if at <= n:
        out.append((at, n + 1))
    return tuple(out)


def numbers(r: Ranges) -> list[int]:
    """The coin numbers in r, in order."""
    return [c for start, stop in r for c in range(start, stop)]


def describe(r: Ranges) -> str:
    """Ranges in words, e.g. '1-4, 9'."""
    return ", ".join(f"{a:,}" if b == a + 1 else f"{a:,}\u2013{b - 1:,}" for a, b in r) or "none"


# ---------------------------------------------------------------- concrete beliefs and weighings


@dataclass(frozen=True)
class Coins:
    """Which numbered coins are still unknown, maybe light or maybe heavy; the rest are genuine."""

    n: int
    extra: int
    unknown: Ranges
    light: Ranges
    heavy: Ranges
    none_possible: bool

    def abstract(self) -> Belief:
        """The counts that the search works on."""
        u, lt, hv = size(self.unknown), size(self.light), size(self.heavy)
        return Belief.make(u, lt, hv, self.n + self.extra - u - lt - hv, self.none_possible)

    def genuine(self) -> Ranges:
        """Numbered coins known to be genuine."""
        return complement(union(self.unknown, self.light, self.heavy), self.n)

    def status(self, coin: int) -> str:
        """'unknown', 'maybe-light', 'maybe-heavy' or 'genuine' for a numbered coin."""
        if contains(self.unknown, coin):
            return "unknown"
        if contains(self.light, coin):
            return "maybe-light"
        return "maybe-heavy" if contains(self.heavy, coin) else "genuine"

    def settled(self) -> bool:
        """True when one case is left: a single coin, light or heavy (the counterfeit, known)."""
        return not self.unknown and not self.none_possible and size(self.light) + size(self.heavy) == 1

    def badge(self, coin: int) -> str:
        """A coin's status as its badge shows it: 'light' or 'heavy' for the counterfeit once it is the only case
        left, else its status."""
        found = self.status(coin)
        return found.removeprefix("maybe-") if self.settled() and found != "genuine" else found


def start(p: Problem) -> Coins:
    """The concrete belief before any weighing."""
    every: Ranges = ((1, p.coins + 1),)
    unknown, light, heavy = {"unknown": (every, (), ()), "lighter": ((), every, ()), "heavier": ((), (), every)}[
        p.weight
    ]
    return Coins(p.coins, p.extra, unknown, light, heavy, p.maybe_none)


@dataclass(frozen=True)
class Pan:
    """Coins on one pan: numbered coins (as ranges) and extra genuine coins G{first}..G{last}."""

    coins: Ranges
    extras: tuple[int, int] = (0, 0)

    def __len__(self) -> int:
        """Number of coins on the pan."""
        return size(self.coins) + self.extras[1] - self.extras[0]

    def labels(self) -> list[Coin]:
        """Every coin on the pan, numbered coins first."""
        return [*numbers(self.coins), *(f"G{i}" for i in range(*self.extras))]

    def describe(self) -> str:
        """The pan in words, e.g. '1-4' or '1, 2, G1'."""
        parts = [describe(self.coins)] if self.coins else []
        if self.extras[1] > self.extras[0]:
            first, last = self.extras[0], self.extras[1] - 1
            parts.append(f"G{first}" if first == last else f"G{first}\u2013G{last}")
        return ", ".join(parts) or "nothing"


@dataclass(frozen=True)
class Weighing:
    """A concrete weighing and, for each outcome, the concrete belief it leads to."""

    left: Pan
    right: Pan
    after: tuple[Coins, Coins, Coins]  # left-heavier, balance, right-heavier

    def result(self, coin: int | None, heavier: bool) -> Outcome:
        """What the scale shows when coin (or none) is counterfeit and heavier or lighter."""
        if coin is None:
            return Outcome.BALANCE
        if contains(self.left.coins, coin):
            return Outcome.LEFT if heavier else Outcome.RIGHT
        if contains(self.right.coins, coin):
            return Outcome.RIGHT if heavier else Outcome.LEFT
        return Outcome.BALANCE


def _pads(c: Coins, k_left: int, k_right: int) -> tuple[Pan, Pan]:
    """Genuine coins to add to each pan: lowest numbered known-genuine coins, then extra ones."""
    real, _ = take(c.genuine(), k_left + k_right)
    got = size(real)
    left_real, right_real = take(real, k_left)
    extras_needed = k_left + k_right - got
    if extras_needed > c.extra:
        raise InputError("not enough genuine coins for this weighing")
    left_x = max(0, k_left - size(left_real))
    return Pan(left_real, (1, 1 + left_x)), Pan(right_real, (1 + left_x, 1 + extras_needed))


def realise(c: Coins, s: Split) -> Weighing:
    """Map an abstract weighing onto the lowest-numbered coins of each class."""
    u_l, u_rest = take(c.unknown, s.u1)
    u_r, u_off = take(u_rest, s.u2)
    l_l, l_rest = take(c.light, s.l1)
    l_r, l_off = take(l_rest, s.l2)
    h_l, h_rest = take(c.heavy, s.h1)
    h_r, h_off = take(h_rest, s.h2)
    pad_l, pad_r = _pads(c, s.pad_left, s.pad_right)
    left = Pan(union(u_l, l_l, h_l, pad_l.coins), pad_l.extras)
    right = Pan(union(u_r, l_r, h_r, pad_r.coins), pad_r.extras)
    n, x = c.n, c.extra
    after = (
        Coins(n, x, (), union(u_r, l_r), union(u_l, h_l), False),
        Coins(n, x, u_off, l_off, h_off, c.none_possible),
        Coins(n, x, (), union(u_l, l_l), union(u_r, h_r), False),
    )
    return Weighing(left, right, after)


# ---------------------------------------------------------------- answers at leaves


def conclude(c: Coins) -> Case | None:
    """The answer at a leaf belief (None: no case fits, which a plan never reaches)."""
    for ranges, heavier in ((c.unknown, None), (c.light, False), (c.heavy, True)):
        if ranges:
            return Case(ranges[0][0], heavier)
    return Case(None) if c.none_possible else None


# ---------------------------------------------------------------- plans and their nodes


@dataclass(frozen=True)
class WeighingNode:
    """One node of a plan: the belief there, and its weighing or its answer."""

    path: str
    coins: Coins
    budget: int  # weighings left in the worst case
    weighing: Weighing | None
    answer: Case | None  # at a leaf: the conclusion

    @property
    def depth(self) -> int:
        """Weighings done to reach this node."""
        return len(self.path)

    def outcome_cases(self) -> dict[Outcome, int]:
        """How many cases each outcome of this node's weighing leaves."""
        assert self.weighing is not None
        return {o: after.abstract().cases for o, after in zip(OUTCOMES, self.weighing.after, strict=True)}


@dataclass(frozen=True)
class Plan:
    """An optimal plan for a problem: worst-case optimal, or average-optimal (N <= 100)."""

    problem: Problem
    objective: Objective
    minimum: MinResult

    @property
    def weighings(self) -> int:
        """Weighings this plan needs in the worst case."""
        return plan_depth(self.problem, self.objective)

    def split(self, b: Belief, depth: int) -> Split | None:
        """The abstract weighing the plan makes at a belief reached after depth weighings."""
        if b.is_leaf(self.problem.find):
            return None
        if self.objective == "average":
            return average_choice(b, self.problem.find)[1]
        assert self.minimum.weighings is not None
        return worst_split(b, self.minimum.weighings - depth, self.problem.find)

    def step(self, c: Coins, depth: int) -> Weighing | None:
        """The concrete weighing at a belief, or None at a leaf."""
        s = self.split(c.abstract(), depth)
        return None if s is None else realise(c, s)

    def node(self, path: str = "") -> WeighingNode:
        """The node reached by a path of outcome letters (L, B, R); InputError if there is none."""
        if len(path) > MAX_PATH or any(ch not in "LBR" for ch in path):
            raise InputError("a plan path is a string of the letters L, B and R")
        c, budget = start(self.problem), self.weighings
        for depth, letter in enumerate(path):
            w = self.step(c, depth)
            if w is None:
                raise InputError(f"the plan ends after {depth} weighings; the path {path!r} goes further")
            after = w.after[OUTCOMES.index(Outcome.from_letter(letter))]
            if after.abstract().cases == 0:
                raise InputError(f"outcome {letter} after {depth + 1} weighings cannot happen in this plan")
            c = after
        w = self.step(c, len(path))
        return WeighingNode(path, c, budget - len(path), w, None if w else conclude(c))

    def tree(self, path: str = "") -> dict[str, object]:
        """The plan below a node as nested JSON-ready dicts (N up to MAX_TREE_COINS)."""
        if self.problem.coins > MAX_TREE_COINS:
            raise InputError(f"full trees are only built for up to {MAX_TREE_COINS:,} coins")
        return _tree(self, self.node(path))


def _tree(plan: Plan, node: WeighingNode) -> dict[str, object]:
    """A node and everything below it, as JSON-ready dicts."""
    if node.weighing is None:
        return node.answer.to_json() if node.answer else {"impossible": True}
    outcomes: dict[str, object] = {}
    for o, after in zip(OUTCOMES, node.weighing.after, strict=True):
        if after.abstract().cases:
            outcomes[o.value] = _tree(plan, plan.node(node.path + o.letter))
        else:
            outcomes[o.value] = {"impossible": True}
    return {"left": node.weighing.left.labels(), "right": node.weighing.right.labels(), "outcomes": outcomes}


@lru_cache(maxsize=1024)
def make_plan(p: Problem, objective: Objective = "worst") -> Plan:
    """The optimal plan for a problem; InputError if it has none or the objective is out of range."""
    if objective not in OBJECTIVES:
        raise InputError("objective must be 'worst' or 'average'")
    if objective == "average" and p.coins > MAX_AVERAGE_COINS:
        raise InputError(f"the average-optimal plan is offered for up to {MAX_AVERAGE_COINS} coins")
    m = min_weighings(p)
    if not m.solvable:
        raise InputError(f"no plan exists: {m.reason}")
    return Plan(p, objective, m)


# ---------------------------------------------------------------- abstract depth and average


@lru_cache(maxsize=1 << 16)
def _abstract_stats(p: Problem, objective: Objective, b: Belief, depth: int) -> tuple[int, int]:
    """(worst depth below, total depth over cases below) for the plan at an abstract belief."""
    plan = make_plan(p, objective)
    s = plan.split(b, depth)
    if s is None:
        return 0, 0
    worst, total = 0, b.cases
    for kid in children(b, s):
        if kid.cases:
            w, t = _abstract_stats(p, objective, kid, depth + 1)
            worst, total = max(worst, w + 1), total + t
    return worst, total


def plan_depth(p: Problem, objective: Objective) -> int:
    """Worst-case number of weighings of the plan."""
    return _abstract_stats(p, objective, p.root(), 0)[0]


def plan_average(p: Problem, objective: Objective) -> Fraction:
    """Expected number of weighings of the plan over all equally likely cases."""
    return Fraction(_abstract_stats(p, objective, p.root(), 0)[1], p.cases)

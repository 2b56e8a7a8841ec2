"""Counterfeit-coin benchmarks: figures and ratios against simple baselines, measured in one run.

Run with `make bench` (or `python benchmarks/coins.py`). Not part of `make test`.
"""

from __future__ import annotations

import itertools
import statistics
import sys
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.record import Record  # noqa: E402
from solvers.weighing import (  # noqa: E402
    Belief,
    Outcome,
    Problem,
    make_plan,
    min_weighings,
    search,  # noqa: E402
    verify,
)
from solvers.weighing import plan as plan_module  # noqa: E402
from solvers.weighing.plan import plan_average  # noqa: E402
from solvers.weighing.problem import child  # noqa: E402

Case = tuple[int, int]  # (coin, +1 heavier / -1 lighter)


def clear_caches() -> None:
    """Forget everything the solver memoised, so each timing starts cold."""
    for module in (search, plan_module):
        for obj in vars(module).values():
            if callable(obj) and hasattr(obj, "cache_clear"):
                obj.cache_clear()


def timed(fn: Callable[[], object], repeat: int = 5) -> tuple[float, object]:
    """Median wall time in seconds of fn() from cold caches, and its last result."""
    times, result = [], None
    for _ in range(repeat):
        clear_caches()
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), result


# ------------------------------------------ baseline: the concrete search of Wang's "Solving the 12 Coins
# Problem Using Search" (2008)


def concrete_solvable(n: int, w: int) -> bool:
    """Seed-style search: beliefs are sets of (coin, sign) cases, weighings any k coins against k others."""
    coins = tuple(range(1, n + 1))

    @cache
    def solve(cases: frozenset[Case], genuine: frozenset[int], w: int) -> bool:
        """Can these cases be separated within w weighings?"""
        if len(cases) <= 1:
            return True
        if w == 0 or len(cases) > 3**w:
            return False
        cand = sorted({c for c, _ in cases})
        others = sorted(genuine)
        for k in range(1, len(cand) + 1):
            for left in itertools.combinations(cand, k):
                rest = [c for c in cand if c not in left]
                for right_count in range(0, k + 1):
                    pad = k - right_count
                    if pad > len(others):
                        continue
                    for right in itertools.combinations(rest, right_count):
                        if right_count == k and left > right:
                            continue
                        lset, rset = set(left), set(right)
                        parts: dict[int, set[Case]] = {1: set(), 0: set(), -1: set()}
                        for c, s in cases:
                            parts[s if c in lset else -s if c in rset else 0].add((c, s))
                        if max(len(p) for p in parts.values()) == len(cases):
                            continue
                        if all(
                            solve(frozenset(p), genuine | (frozenset(coins) - {c for c, _ in p}), w - 1)
                            for p in parts.values()
                        ):
                            return True
        return False

    all_cases = frozenset((c, s) for c in coins for s in (1, -1))
    return solve(all_cases, frozenset(), w)


def naive_million_walk() -> int:
    """Baseline for N = 1,000,000: the same walk, but each node keeps a per-coin status list."""
    n = 1_000_000
    plan = make_plan(Problem(n))
    status = ["u"] * (n + 1)
    status[0] = "g"
    depth = 0
    while True:
        by_class: dict[str, list[int]] = {"u": [], "l": [], "h": [], "g": []}
        for coin in range(1, n + 1):
            by_class[status[coin]].append(coin)
        b = Belief.make(len(by_class["u"]), len(by_class["l"]), len(by_class["h"]), len(by_class["g"]), False)
        s = plan.split(b, depth)
        if s is None:
            return depth
        u, lt, hv = by_class["u"], by_class["l"], by_class["h"]
        off = set(u[s.u1 + s.u2 :]) | set(lt[s.l1 + s.l2 :]) | set(hv[s.h1 + s.h2 :])
        balance = any(child(b, s, o).cases for o in (Outcome.BALANCE,))
        for coin in range(1, n + 1):
            if status[coin] != "g" and (coin in off) != balance:
                status[coin] = "g"
        if not balance:  # left heavier: left unknowns become maybe-heavy, right ones maybe-light
            for coin in u[: s.u1]:
                status[coin] = "h"
            for coin in u[s.u1 : s.u1 + s.u2]:
                status[coin] = "l"
        depth += 1


# ---------------------------------------------------------------- the figures


RECORD = Record("coins")


def twelve() -> None:
    """Build and verify the 12-coin plan."""
    ours, v = timed(lambda: verify(make_plan(Problem(12))))
    base, ok = timed(lambda: concrete_solvable(12, 3), repeat=1)
    assert ok and getattr(v, "ok", False)
    RECORD.row(
        "12 coins: build the plan and verify all 24 cases",
        f"{ours * 1e3:.1f} ms",
        f"{base * 1e3:,.0f} ms: a search over sets of concrete cases (Wang's took 1 min 20 s in Lisp)",
        f"{base / ours:,.0f}x",
        "< 10 ms",
    )


def thirteen() -> None:
    """Prove that 13 coins need 4 weighings."""
    ours, m = timed(lambda: min_weighings(Problem(13)))
    abstract, _ = timed(lambda: search.solvable_by_search(Problem(13).root(), 3, False), repeat=3)
    assert getattr(m, "weighings", None) == 4
    RECORD.row(
        "13 coins: prove 3 weighings are not enough",
        f"{ours * 1e3:.2f} ms",
        f"{abstract * 1e3:.2f} ms: exhaustive search over abstract weighings",
        f"{abstract / ours:,.0f}x",
    )


def tables() -> None:
    """Worst-case and average-optimal figures for N = 3..100 in every variant."""

    def run() -> int:
        rows = 0
        for weight in ("unknown", "lighter", "heavier"):
            for goal in ("identify", "find"):
                for extra in (0, 1):
                    for z in (False, True):
                        for n in range(3, 101):
                            p = Problem(n, weight, goal, extra, z)  # type: ignore[arg-type]
                            if min_weighings(p).solvable:
                                plan_average(p, "worst")
                                plan_average(p, "average")
                                rows += 1
        return rows

    ours, rows = timed(run, repeat=3)
    RECORD.row(
        f"worst-case and average-optimal tables, N = 3..100, 24 variants ({rows:,} rows)",
        f"{ours:.2f} s",
        target="< 5 s",
    )

    def unknown_only() -> None:
        for n in range(3, 101):
            plan_average(Problem(n), "average")

    one, _ = timed(unknown_only, repeat=3)

    def baseline() -> None:
        for n in range(3, 13):
            search.solvable_by_search(Problem(n).root(), min_weighings(Problem(n)).weighings or 0, False)

    base, _ = timed(baseline, repeat=1)
    small, _ = timed(lambda: [min_weighings(Problem(n)) for n in range(3, 13)], repeat=3)
    RECORD.row("average-optimal table, weight unknown, identify the coin, N = 3..100", f"{one:.3f} s")
    RECORD.row(
        "fewest weighings, N = 3..12 (weight unknown)",
        f"{small * 1e3:.2f} ms",
        f"{base:.3f} s: exhaustive search",
        f"{base / small:,.0f}x",
    )


def million() -> None:
    """First weighing and one root-to-leaf walk for N = 1,000,000."""

    def walk() -> int:
        plan = make_plan(Problem(1_000_000))
        path = ""
        while (node := plan.node(path)).weighing is not None:
            cases = node.outcome_cases()
            path += "B" if cases[Outcome.BALANCE] else "L"
        return len(path)

    first, _ = timed(lambda: make_plan(Problem(1_000_000)).node(""))
    ours, depth = timed(walk)
    base, base_depth = timed(naive_million_walk, repeat=1)
    RECORD.row("1,000,000 coins: the first weighing, cold", f"{first * 1e3:.1f} ms")
    RECORD.row(
        f"1,000,000 coins: the first weighing and a root-to-leaf walk ({depth} weighings)",
        f"{ours * 1e3:.1f} ms",
        f"{base * 1e3:,.0f} ms: the same walk keeping a status per coin ({base_depth} weighings)",
        f"{base / ours:.0f}x",
        "< 100 ms",
    )


def main() -> None:
    """Print every figure."""
    twelve()
    thirteen()
    tables()
    million()
    RECORD.save()


if __name__ == "__main__":
    main()

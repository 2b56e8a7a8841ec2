"""The fast paths (counting rules, constructions, the average DP) agree with exhaustive search."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

import pytest

import solvers.weighing.search as search
from solvers.weighing import Belief, Problem, min_weighings
from solvers.weighing.problem import children

INF = 10**9


def small_beliefs(max_candidates: int) -> Iterator[Belief]:
    """Every reachable-shape belief with at most max_candidates candidates, all genuine counts."""
    for u in range(max_candidates + 1):
        for lt in range(max_candidates + 1):
            for hv in range(max_candidates + 1):
                cand = u + lt + hv
                if cand > max_candidates or (u and (lt or hv)):
                    continue
                for g in range(cand + 1):
                    for z in (False, True):
                        yield Belief.make(u, lt, hv, g, z)


@pytest.mark.slow
def test_counting_rules_agree_with_search() -> None:
    """solvable() (rules + search) equals the exhaustive search on every belief up to 12 candidates."""
    for b in small_beliefs(12):
        for find in (False, True):
            for w in range(4):
                assert search.solvable(b, w, find) == search.solvable_by_search(b, w, find), (b, w, find)


@pytest.mark.slow
def test_constructions_agree_with_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the exhaustive fallback switched off, the constructions alone still match the search."""
    monkeypatch.setattr(search, "MAX_EXACT", 0)
    search.solvable.cache_clear()
    search.worst_split.cache_clear()
    try:
        for b in small_beliefs(13):
            for find in (False, True):
                for w in range(4):
                    assert search.solvable(b, w, find) == search.solvable_by_search(b, w, find), (b, w, find)
    finally:
        search.solvable.cache_clear()
        search.worst_split.cache_clear()


def test_exhaustive_min_weighings_matches_for_small_problems() -> None:
    """min_weighings equals the least w found by exhaustive search, N = 1..14, all variants."""
    for n in range(1, 15):
        for weight in ("unknown", "lighter", "heavier"):
            for goal in ("identify", "find"):
                for extra in (0, 1, 2):
                    for z in (False, True):
                        p = Problem(n, weight, goal, extra, z)  # type: ignore[arg-type]
                        m = min_weighings(p)
                        found = next(
                            (w for w in range(2 * n + 2) if search.solvable_by_search(p.root(), w, p.find)), None
                        )
                        assert m.weighings == found, p


@cache
def average_by_search(b: Belief, find: bool) -> int:
    """Least total depth by trying every weighing (no shortcuts)."""
    if b.is_leaf(find):
        return 0
    best = INF
    for s in search.all_splits(b):
        kids = children(b, s)
        if max(k.cases for k in kids) < b.cases:
            best = min(best, sum(average_by_search(k, find) for k in kids))
    return b.cases + best if best < INF else INF


def test_average_dp_matches_exhaustive_search() -> None:
    """The average-optimal DP equals exhaustive search for N = 1..9 in every variant."""
    for n in range(1, 10):
        for weight in ("unknown", "lighter"):
            for goal in ("identify", "find"):
                for extra in (0, 1, 2):
                    for z in (False, True):
                        p = Problem(n, weight, goal, extra, z)  # type: ignore[arg-type]
                        exhaustive = average_by_search(p.root(), p.find)
                        dp = search.average_choice(p.root(), p.find)[0]
                        assert dp == (exhaustive if exhaustive < INF else -1), p


def test_balanced_partitions_are_as_good_as_any() -> None:
    """The step that makes the rich average DP exact: balanced groups lose nothing (c <= 150)."""
    for c in range(151):
        for z in (False, True):
            assert search.relaxed_directed_cost(c, z) == search.balanced_directed(c, z)[0]


def test_twelve_coins_average_is_three() -> None:
    """12 coins: the best average is 72/24 = 3 weighings (no case can finish in 2)."""
    assert search.average_choice(Problem(12).root(), False)[0] == 72

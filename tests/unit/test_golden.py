"""Golden values from the literature for the fewest weighings.

Sources: Dyson, "The problem of the pennies", Math. Gazette 30 (1946) 231-234 (unknown weight, identify:
3 <= N <= (3^w - 3)/2; with one extra genuine coin N <= (3^w - 1)/2); Guy & Nowakowski, "Coin-weighing
problems", Amer. Math. Monthly 102 (1995) 164-167 (find only: (3^w - 1)/2, with an extra coin (3^w + 1)/2);
known weight: ternary search, N <= 3^w (Klimos 2014, Problem 1).
"""

from __future__ import annotations

import pytest

from solvers.weighing import Problem, lower_bound, min_weighings


def largest(weight: str, goal: str, extra: int, maybe_none: bool, w: int) -> int:
    """The largest N solvable in at most w weighings (scanning N = 1 .. 3^w + 2)."""
    ok = []
    for n in range(1, 3**w + 3):
        m = min_weighings(Problem(n, weight, goal, extra, maybe_none))  # type: ignore[arg-type]
        if m.solvable and m.weighings is not None and m.weighings <= w:
            ok.append(n)
    assert set(range(3, ok[-1] + 1)) <= set(ok), "every size from 3 up to the largest is solvable"
    return ok[-1]


@pytest.mark.parametrize("w", [2, 3, 4, 5])
def test_dyson_unknown_identify_max_is_3w_minus_3_over_2(w: int) -> None:
    """Dyson 1946: the largest N for unknown weight, identify, is (3^w - 3)/2."""
    assert largest("unknown", "identify", 0, False, w) == (3**w - 3) // 2


@pytest.mark.parametrize("w", [1, 2, 3, 4, 5])
def test_dyson_with_one_extra_coin_max_is_3w_minus_1_over_2(w: int) -> None:
    """Dyson 1946: one extra genuine coin raises the maximum to (3^w - 1)/2."""
    assert largest("unknown", "identify", 1, False, w) == (3**w - 1) // 2


@pytest.mark.parametrize("w", [2, 3, 4, 5])
def test_find_only_max_is_3w_minus_1_over_2(w: int) -> None:
    """Guy & Nowakowski 1995: finding (not classifying) the coin allows (3^w - 1)/2 coins."""
    assert largest("unknown", "find", 0, False, w) == (3**w - 1) // 2


@pytest.mark.parametrize("w", [1, 2, 3, 4, 5])
def test_find_with_extra_coin_max_is_3w_plus_1_over_2(w: int) -> None:
    """Guy & Nowakowski 1995: find only, with an extra genuine coin: (3^w + 1)/2."""
    assert largest("unknown", "find", 1, False, w) == (3**w + 1) // 2


@pytest.mark.parametrize("weight", ["lighter", "heavier"])
@pytest.mark.parametrize("w", [1, 2, 3, 4, 5])
def test_known_weight_max_is_3w(weight: str, w: int) -> None:
    """Ternary search: a known-lighter (or heavier) coin among 3^w coins in w weighings."""
    assert largest(weight, "identify", 0, False, w) == 3**w


@pytest.mark.parametrize("w", [1, 2, 3, 4, 5])
def test_known_weight_maybe_none_max_is_3w_minus_1(w: int) -> None:
    """With 'none' as one more answer, 3^w answers allow 3^w - 1 coins."""
    assert largest("lighter", "identify", 0, True, w) == 3**w - 1


@pytest.mark.parametrize("w", [2, 3, 4, 5])
def test_unknown_maybe_none_max_matches_dyson(w: int) -> None:
    """The classic 12 coins in 3 weighings still works when no coin may be counterfeit."""
    assert largest("unknown", "identify", 0, True, w) == (3**w - 3) // 2


def test_twelve_coins_need_three() -> None:
    """Grossman 1945: 12 coins, 3 weighings."""
    m = min_weighings(Problem(12))
    assert (m.solvable, m.weighings, m.lower_bound) == (True, 3, 3)


def test_thirteen_coins_need_four_but_three_with_an_extra_coin() -> None:
    """Dyson 1946: 13 coins need 4 weighings, but 3 with one extra genuine coin."""
    assert min_weighings(Problem(13)).weighings == 4
    assert min_weighings(Problem(13)).lower_bound == 3
    assert min_weighings(Problem(13, extra=1)).weighings == 3


def test_impossible_problems_say_why() -> None:
    """Two coins of unknown weight and no extra coin can never be resolved."""
    for p in (Problem(2), Problem(1), Problem(2, goal="find"), Problem(1, goal="find", maybe_none=True)):
        m = min_weighings(p)
        assert not m.solvable and m.weighings is None and m.reason
    assert "two coins" in (min_weighings(Problem(2)).reason or "")
    assert min_weighings(Problem(2, extra=1)).weighings == 2
    assert min_weighings(Problem(1, goal="find")).weighings == 0


def test_million_coins() -> None:
    """N = 1,000,000: 2,000,000 cases; 3^14 = 4,782,969 > 2e6 > 3^13, so 14 weighings."""
    m = min_weighings(Problem(1_000_000))
    assert (m.weighings, m.lower_bound) == (14, 14)
    assert lower_bound(Problem(1_000_000, "lighter")) == 13
    assert min_weighings(Problem(1_000_000, "lighter")).weighings == 13

"""Dyson's non-adaptive schemes: built, checked by decoding every case, and the checker can fail."""

from __future__ import annotations

import dataclasses

import pytest

from solvers.weighing import Problem, build_scheme, check_scheme, min_weighings, no_scheme_reason
from solvers.weighing.dyson import clockwise, clockwise_cycles, sigma


def test_clockwise_labels_cycle() -> None:
    """Dyson's clockwise labels are closed under adding 1 to every digit: (3^w - 3)/2 of them."""
    for w in (2, 3, 4):
        labels = [v for cyc in clockwise_cycles(w) for v in cyc]
        assert len(labels) == (3**w - 3) // 2
        assert all(clockwise(sigma(v)) for v in labels)


def test_twelve_coin_scheme() -> None:
    """12 coins in 3 fixed weighings of 4 against 4 (Dyson 1946)."""
    s = build_scheme(Problem(12), 3)
    assert s is not None and not check_scheme(s)
    assert all(len(left) == len(right) == 4 for left, right in s.weighings)
    assert len(s.decode()) == 24


@pytest.mark.slow
@pytest.mark.parametrize("extra", [0, 1])
@pytest.mark.parametrize("z", [False, True])
def test_unknown_identify_schemes_exist_for_every_n(extra: int, z: bool) -> None:
    """Born, Hurkens & Woeginger (2003): non-adaptive matches adaptive; found for N = 3..120."""
    for n in range(3, 121):
        p = Problem(n, extra=extra, maybe_none=z)
        w = min_weighings(p).weighings
        assert w is not None
        s = build_scheme(p, w)
        assert s is not None and not check_scheme(s), p


@pytest.mark.slow
@pytest.mark.parametrize("weight", ["lighter", "heavier"])
@pytest.mark.parametrize("goal", ["identify", "find"])
def test_known_weight_schemes(weight: str, goal: str) -> None:
    """Known weight: a scheme with the adaptive minimum exists for N = 1..90 except the proved gap."""
    for z in (False, True):
        for n in range(1, 91):
            p = Problem(n, weight, goal, 0, z)  # type: ignore[arg-type]
            m = min_weighings(p)
            if not m.solvable or not m.weighings:
                continue
            s = build_scheme(p, m.weighings)
            if z and n == 3**m.weighings - 2:
                assert s is None and "never add up" in no_scheme_reason(p, m.weighings)
            else:
                assert s is not None and not check_scheme(s), p


def test_checker_catches_a_collision() -> None:
    """Giving two coins the same label must be reported."""
    s = build_scheme(Problem(12), 3)
    assert s is not None
    broken = dataclasses.replace(s, labels=(s.labels[1], *s.labels[1:]))
    assert any("fits" in problem for problem in check_scheme(broken))

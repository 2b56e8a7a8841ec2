"""Problems, beliefs and their canonical forms."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solvers.errors import InputError
from solvers.weighing import Belief, Outcome, Problem
from solvers.weighing.problem import Split, child


@pytest.mark.parametrize(
    "kwargs",
    [
        {"coins": 0},
        {"coins": -3},
        {"coins": 1_000_001},
        {"coins": 2.5},
        {"coins": True},
        {"coins": 5, "weight": "medium"},
        {"coins": 5, "goal": "guess"},
        {"coins": 5, "extra": -1},
    ],
)
def test_bad_problems_are_refused(kwargs: dict[str, object]) -> None:
    """Out-of-range sizes and unknown variants raise InputError."""
    with pytest.raises(InputError):
        Problem(**kwargs)  # type: ignore[arg-type]


def test_cases_and_answers() -> None:
    """12 coins unknown: 24 cases; find: 12 answers; maybe none adds one."""
    assert Problem(12).cases == 24 and Problem(12, goal="find").answers == 12
    assert Problem(12, maybe_none=True).cases == 25 and Problem(9, "lighter").answers == 9


@given(st.integers(0, 50), st.integers(0, 50), st.integers(0, 50), st.integers(0, 200), st.booleans())
def test_belief_token_and_cap(u: int, lt: int, hv: int, g: int, z: bool) -> None:
    """Beliefs cap genuine coins at the candidate count and have a canonical token."""
    b = Belief.make(u, lt, hv, g, z)
    assert b.g == min(g, u + lt + hv)
    assert b.to_token() == f"u{u}.l{lt}.h{hv}.g{b.g}.z{int(z)}"


@given(st.integers(1, 30), st.integers(0, 10), st.integers(0, 10), st.integers(0, 10))
def test_outcomes_partition_the_cases(u: int, u1: int, u2: int, g: int) -> None:
    """Every case of a belief lands in exactly one outcome of a weighing."""
    b = Belief.make(u, 0, 0, g, True)
    s = Split(u1, 0, 0, u2, 0, 0)
    if not s.fits(b):
        return
    assert sum(child(b, s, o).cases for o in Outcome) == b.cases

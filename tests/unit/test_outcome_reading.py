"""Dyson's reading digits name the outcomes the scale shows: +1 left heavier, 0 balance, -1 right heavier
(`Outcome.from_reading`, which the scheme page's table uses), checked by weighing every case on the scheme's own
pans here."""

from __future__ import annotations

from solvers.weighing import Problem
from solvers.weighing.case import all_cases
from solvers.weighing.problem import Outcome
from solvers.weighing.report import scheme_for


def test_each_reading_digit_is_the_outcome_of_weighing_the_case() -> None:
    """12 and 39 coins, heavier or lighter: each weighing of the scheme, done with the case's coin heavier or
    lighter on its pan, reads as its digit says."""
    for n in (12, 39):
        p = Problem(n, "unknown", "identify", 0, False)
        scheme, _ = scheme_for(p)
        assert scheme is not None
        for case in all_cases(p):
            for (left, right), digit in zip(scheme.weighings, scheme.reading(case), strict=True):
                shift = 0 if case.coin is None else (1 if case.heavier else -1)
                pull = (shift if case.coin in left else 0) - (shift if case.coin in right else 0)
                seen = Outcome.LEFT if pull > 0 else Outcome.RIGHT if pull < 0 else Outcome.BALANCE
                assert Outcome.from_reading(digit) is seen, (n, case, left, right)

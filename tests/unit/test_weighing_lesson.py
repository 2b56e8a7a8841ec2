"""The adversary game's hint: the cases a weighing can leave at worst, against the fewest any weighing can leave,
checked against a brute force over every pair of coin sets written here."""

from __future__ import annotations

import itertools
import random

import pytest

from solvers.weighing import Problem
from solvers.weighing.adversary import cases_of, replay
from solvers.weighing.knowledge import UserWeighing
from solvers.weighing.report import weighing_lesson


def brute_worst(cases: list[tuple[int | None, bool]], left: set[int], right: set[int]) -> int:
    """The largest group of cases one reading of the scale leaves (a heavy coin on the left tips it left)."""
    groups = {"L": 0, "B": 0, "R": 0}
    for coin, heavier in cases:
        if coin in left:
            groups["L" if heavier else "R"] += 1
        elif coin in right:
            groups["R" if heavier else "L"] += 1
        else:
            groups["B"] += 1
    return max(groups.values())


def every_weighing(n: int) -> list[tuple[set[int], set[int]]]:
    """Every pair of disjoint, equally large, non-empty coin sets (each coin left, right or off)."""
    out = []
    for places in itertools.product((0, 1, 2), repeat=n):
        left = {i + 1 for i, p in enumerate(places) if p == 1}
        right = {i + 1 for i, p in enumerate(places) if p == 2}
        if left and len(left) == len(right):
            out.append((left, right))
    return out


@pytest.mark.parametrize(("n", "none"), [(5, False), (6, False), (7, True)])
def test_lesson_matches_every_weighing(n: int, none: bool) -> None:
    """From the start and after random weighings the adversary answered: the player's worst case and the best
    weighing's are those of trying every weighing of concrete coins."""
    rng = random.Random(n)
    weighings = every_weighing(n)
    p = Problem(n, maybe_none=none)
    for _ in range(12):
        made: list[UserWeighing] = []
        for _ in range(2):
            r = replay(p, 4, tuple(made))
            cases = [(c.coin, c.heavier) for c in cases_of(r.coins)]
            left, right = rng.choice(weighings)
            w: UserWeighing = (tuple(sorted(left)), tuple(sorted(right)))
            got = weighing_lesson(r.coins, w)
            assert got.cases_before == len(cases)
            assert got.worst_left == brute_worst(cases, left, right)
            assert got.best_worst_left == min(brute_worst(cases, a, b) for a, b in weighings)
            made.append(w)


def test_twelve_coins() -> None:
    """Twelve coins (Dyson 1946): four against four leaves at most 8 of the 24 cases, the best possible; six against
    six leaves 12."""
    r = replay(Problem(12), 3, ())
    assert weighing_lesson(r.coins, ((1, 2, 3, 4), (5, 6, 7, 8))).worst_left == 8
    six = weighing_lesson(r.coins, ((1, 2, 3, 4, 5, 6), (7, 8, 9, 10, 11, 12)))
    assert (six.cases_before, six.worst_left, six.best_worst_left) == (24, 12, 8)

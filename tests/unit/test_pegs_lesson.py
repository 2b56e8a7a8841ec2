"""The peg board's teaching hint against a brute force written here: the fewest moves still needed when the coin
that just jumped may go on for free, and the last jump's cost in moves against the best jump."""

from __future__ import annotations

import random
from functools import cache

import pytest

from solvers.pegs import PegGame, board, exact, legal_jumps
from solvers.pegs.lesson import IMPOSSIBLE, lesson
from solvers.pegs.rules import apply_jump, jumps_to_moves

INF = 10**9


def brute(name: str, finish: int | None):  # type: ignore[no-untyped-def]
    """fewest(pos, last): the fewest more moves by trying every jump (a jump by the coin on last is free)."""
    b = board(name)

    @cache
    def fewest(pos: int, last: int | None) -> int:
        if pos.bit_count() == 1:
            return 0 if finish is None or pos == 1 << finish else INF
        best = INF
        for f, o, t in legal_jumps(b, pos):
            best = min(best, (0 if f == last else 1) + fewest(apply_jump(pos, (f, o, t)), t))
        return best

    return fewest


def exact_fewest(name: str, finish: int | None):  # type: ignore[no-untyped-def]
    """The product's fewest moves with a fresh move (the exact analysis), as the play page gives the lesson."""
    ex = exact(name)

    def fewest(pos: int) -> int:
        finals = ex.finals(pos)
        if finish is not None:
            finals = {finish: finals[finish]} if finish in finals else {}
        return min(finals.values()) if finals else IMPOSSIBLE

    return fewest


@pytest.mark.parametrize(
    ("name", "hole", "finish"), [("triangle-4", "2", None), ("triangle-5", "1", None), ("triangle-5", "1", "1")]
)
def test_lesson_matches_the_brute_force_along_random_games(name: str, hole: str, finish: str | None) -> None:
    """Along 40 random games: the fewest moves from here, and the cost of each jump (the rise of moves made plus
    fewest still needed; -1 when the jump made a solvable game unsolvable)."""
    b = board(name)
    f = b.index(finish) if finish else None
    truth, product = brute(name, f), exact_fewest(name, f)
    rng = random.Random(7)
    costs = set()
    for _ in range(40):
        g = PegGame(b, hole, (), finish or "")
        while True:
            legal = list(legal_jumps(b, g.position()))
            if not legal:
                break
            before = g
            g = g.then(rng.choice(legal))
            lesson_now = lesson(g, product)
            last = g.jumps[-1][2]
            here = truth(g.position(), last)
            assert lesson_now.fewest_here == (IMPOSSIBLE if here >= INF else here)
            was = truth(before.position(), before.jumps[-1][2] if before.jumps else None)
            made, made_before = len(jumps_to_moves(g.jumps)), len(jumps_to_moves(before.jumps))
            if was >= INF:
                expected = 0
            elif here >= INF:
                expected = IMPOSSIBLE
            else:
                expected = (made + here) - (made_before + was)
            assert lesson_now.last_cost == expected
            costs.add(expected)
    assert {0, IMPOSSIBLE} <= costs and any(c > 0 for c in costs)  # the games met every kind of jump


def test_no_jump_yet_has_no_cost() -> None:
    """At the start the lesson has the fewest moves and no cost."""
    b = board("triangle-4")
    l0 = lesson(PegGame(b, "2"), exact_fewest("triangle-4", None))
    assert l0.last_cost is None and l0.fewest_here == brute("triangle-4", None)(b.start("2"), None) == 5

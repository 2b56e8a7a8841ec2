"""A proved classic problem's solution served for every start and finish it stands for up to symmetry, replayed by
the rules here; finishing anywhere only once every finish the start allows is proved."""

from __future__ import annotations

from functools import cache

import pytest

from solvers.pegs import analyse, board, replay
from solvers.pegs.report import PegReport, labels, problem_solution, proved_start

pytestmark = pytest.mark.slow  # depth-first searches of seconds each on the English board


@cache  # a search of seconds, the same for several tests
def _report(hole: str, finish: str, proved: bool = True) -> PegReport:
    """A report for the English problem hole -> finish holding a solution found by the depth-first search (marked
    proved so that the mapping can be checked on it; whether it is shortest is not what these tests check)."""
    b = board("english")
    a = analyse(b, b.start(hole), finish=b.index(finish))
    assert a.solution
    return PegReport(
        board="english",
        hole=hole,
        position="",
        finish=finish,
        solvable=True,
        min_moves=len(a.solution),
        min_jumps=31,
        finals={finish: len(a.solution)},
        solution=tuple(labels(b, m) for m in a.solution),
        method="bidirectional",
        proved=proved,
        class_finals=(),
    )


@pytest.mark.parametrize("finish", ["d1", "a4", "g4", "d7"])
def test_a_listed_problem_is_mapped_onto_each_of_its_images(finish: str) -> None:
    """d4 to d1 (listed) gives d4 to a4, g4 and d7 by the board's symmetries: each mapped solution, replayed move
    by move with the rules, leaves one coin on that finish, in as many moves."""
    b = board("english")
    report = _report("d4", "d1")
    a = problem_solution(b, "d4", finish, report)
    assert a is not None and a.min_moves == len(report.solution) == len(a.solution)
    pos = b.start("d4")
    for move in a.solution:  # each move a chain of legal jumps by one coin
        pos = replay(b, pos, [move])
    assert pos == 1 << b.index(finish)


def test_an_unproved_report_gives_nothing() -> None:
    """A report without a proof of fewest moves is never served as proved."""
    assert problem_solution(board("english"), "d4", "a4", _report("d4", "d1", proved=False)) is None


def test_finishing_anywhere_needs_every_possible_finish() -> None:
    """From d4 the last coin can only be on d4, d1, a4, g4 or d7 (its position class): with all of them proved the
    least is served; with one missing, nothing."""
    b = board("english")
    home, side = _report("d4", "d4"), _report("d4", "d1")
    every = {"d4": home, "d1": side, "a4": side, "g4": side, "d7": side}
    best = proved_start(b, "d4", None, every)
    assert best is not None and best.min_moves == min(len(home.solution), len(side.solution))
    assert proved_start(b, "d4", None, {**every, "g4": None}) is None
    assert proved_start(b, "d4", "d4", {"d4": home}) is not None


def test_the_play_verdict_is_made_without_flask() -> None:
    """The peg page's verdict from the rules alone: a coin to choose, one that cannot jump, one that can jump
    again, a won game, a dead end, and a doomed start with the holes that can be solved."""
    from solvers.pegs import game_from_text
    from solvers.pegs.report import doomed, verdict

    b = board("triangle-4")
    start = game_from_text(b, "2", "")
    assert verdict(start, None, False, None, None).text == "Choose a coin to jump."
    assert verdict(start, b.index("4"), False, None, None).text.startswith("The coin on 4 cannot jump")
    chained = game_from_text(b, "2", "7-2,1-4,9-7")
    assert "can jump again" in verdict(chained, b.index("7"), True, None, None).text
    dead = game_from_text(b, "2", "7-2,1-4,6-1,4-6,9-7,10-3,1-6")
    assert verdict(dead, None, False, None, None).text == "Dead end: no jump is possible and 2 coins remain."
    lost = verdict(start, None, False, "no way", ["1", "3"])
    assert lost.table and lost.text.endswith("from another hole: 1, 3 can be solved")
    assert doomed(chained, lambda pos: False) == "an exhaustive search finds no way to one coin from here"
    assert doomed(chained, lambda pos: None) is None


def test_the_play_page_model_is_made_without_flask() -> None:
    """After 7-2, 1-4 on triangle-4 with 9 selected: its jumps to 7 (it can go on over 4 to 2) and to 2 (it can go
    on over 4 to 7); the coin on 6's only jump, to 1, ends its move; the occupied holes, the moves as labels;
    selecting an empty hole is refused."""
    from solvers.errors import InputError
    from solvers.pegs import game_from_text
    from solvers.pegs.report import play_page

    b = board("triangle-4")
    g = game_from_text(b, "2", "7-2,1-4")
    page = play_page(g, "9", lambda pos: None, None)
    assert {(b.labels[j[2]], again) for j, again in page.targets} == {("7", True), ("2", True)}
    six = play_page(g, "6", lambda pos: None, None)  # 6 over 3 to 1: from 1 nothing is left to jump over
    assert [(b.labels[j[2]], again) for j, again in six.targets] == [("1", False)]
    # 10 holes, one empty at the start, two jumps each take one coin: 7 coins left
    assert page.moves == (("7", "2"), ("1", "4")) and page.coins == 7 and b.index("4") in page.occupied
    assert page.verdict.text == "Coin on 9 selected: choose where it jumps." and not page.ended
    with pytest.raises(InputError, match="there is no coin on 7 to select"):
        play_page(g, "7", lambda pos: None, None)

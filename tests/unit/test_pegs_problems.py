"""The listed peg problems as the site shows them: computed as their background job, then on the board's table."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from webapp.jobs.access import computed
from webapp.results.catalogue import PEGS_REPORT, pegs_problem


@pytest.mark.slow
def test_english_table_gives_proved_fewest_moves_to_finish_in_the_start_hole(client: FlaskClient) -> None:
    """Once the listed problem c3 to c3 is stored (its thorough report, a background job: about 12 s here), the
    English table gives its fewest moves in the 'finish in the start hole' column of c3 and of every start a
    symmetry maps onto it (c5, e3, e5), and not of other starts whose problems are neither stored nor shipped (the
    centre game is); the count is the
    complete search's, checked against its own replayed solution."""
    with client.application.app_context():
        report = computed(PEGS_REPORT, pegs_problem("english", "c3", "c3"))
    assert report.proved and report.min_moves == len(report.solution) and report.min_moves is not None
    html = client.get("/pegs/table?board=english").get_data(as_text=True)
    cells = {}  # start hole -> the moves given in its "finish in the start hole" cell ("" when none)
    for row in re.findall(r"<tr><td>(.*?)</tr>", html):
        hole = re.search(r">([a-g]\d)</a>", row)
        home = re.search(r"yes, (\d+) moves", row.split("<td>")[-1])
        if hole:
            cells[hole[1]] = home[1] if home else ""
    assert len(cells) == 33
    for hole in ("c3", "c5", "e3", "e5"):
        assert cells[hole] == str(report.min_moves), hole
    assert cells["c1"] == ""  # not stored, nor shipped
    assert cells["d4"] == "18"  # the centre game ships proved: 18 moves (Bergholt 1912; proved least by Beasley)
    assert f"Empty c3, finish on c3</a>: {report.min_moves} moves, proved" in html
    # the last column: each start's possible finishes, c3 to c3's images proved and linked to its solution page
    finishes = {}  # start hole -> that column's text
    for row in re.findall(r"<tr><td>(.*?)</tr>", html):
        hole = re.search(r">([a-g]\d)</a>", row)
        if hole:
            finishes[hole[1]] = row.split('<td class="finishes">')[-1]
    link = "/pegs/solution?board=english&amp;hole=c3&amp;finish=c3&amp;fewest=1"
    for hole in ("c3", "c5", "e3", "e5"):
        assert f'<a href="{link}"' in finishes[hole] and f">{hole}: {report.min_moves}</a>" in finishes[hole]
    assert link not in finishes["d4"]


def test_table_proofs_carry_a_proved_problem_to_its_symmetric_starts() -> None:
    """A proved 'c1 to c1' on the English board gives every start that a symmetry maps onto c1 its fewest moves
    home (the eight images of c1 on the cross), nothing else; with nothing settled the table gets nothing."""
    from solvers.pegs import board
    from solvers.pegs.report import table_proofs
    from solvers.pegs.table import PegRow

    b = board("english")
    rows = [PegRow(h, True, None, (h,), True, None) for h in b.labels]
    empty = table_proofs(b, rows, {})
    assert (empty.anywhere, empty.home) == ({}, {}) and not any(c.settled for r in empty.finishes.values() for c in r)
    images = {b.labels[p[b.index("c1")]] for p in b.symmetries}
    got = table_proofs(b, rows, {("c1", "c1"): 16})
    assert got.home == dict.fromkeys(images, 16) and len(images) == 8 and not got.anywhere


def test_each_start_lists_every_possible_finish_with_its_problem() -> None:
    """Per English start, the cells are the finishes its position class allows, each with the listed problem a
    symmetry maps it onto and that problem's fewest moves once settled (None when proved impossible); French d3's
    a5 is its own listed problem, unsettled until its proof is stored; a board without listed problems gets no
    cells."""
    from solvers.pegs import board, class_finals, listed_problem
    from solvers.pegs.report import finish_cells
    from solvers.pegs.table import PegRow

    b = board("english")
    rows = [PegRow(h, True, None, (h,), True, None) for h in b.labels]
    settled = {("c1", "c1"): 16, ("c1", "c4"): None}
    cells = finish_cells(b, rows, settled)
    assert set(cells) == set(b.labels)
    for hole, row in cells.items():
        assert [c.finish for c in row] == [b.labels[f] for f in class_finals(b, b.start(hole))]
        for c in row:
            assert c.problem == listed_problem(b, hole, c.finish) and c.problem is not None
            assert c.settled == (c.problem in settled) and c.moves == settled.get(c.problem)
    e1 = {c.finish: c for c in cells["e1"]}
    assert e1["e1"].moves == 16 and e1["e1"].problem == ("c1", "c1")
    assert sum(c.settled and c.moves is None for row in cells.values() for c in row) == 8  # c1 to c4's images
    french = board("french")
    d3 = {c.finish: c for c in finish_cells(french, [PegRow("d3", True, None, (), False, None)], {})["d3"]}
    assert d3["a5"].problem == ("d3", "a5") and not d3["a5"].settled
    assert finish_cells(board("triangle-5"), [PegRow("1", True, 10, ("1",), True, 10)], {}) == {}

"""The listed peg problems as the site shows them: computed as their background job, then on the board's table."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from webapp.catalogue import PEGS_REPORT, pegs_problem
from webapp.results import computed


@pytest.mark.slow
def test_english_table_gives_proved_fewest_moves_to_finish_in_the_start_hole(client: FlaskClient) -> None:
    """Once the listed problem c3 to c3 is stored (its thorough report, a background job: about 12 s here), the
    English table gives its fewest moves in the 'finish in the start hole' column of c3 and of every start a
    symmetry maps onto it (c5, e3, e5), and not of other starts whose problems are not stored; the count is the
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
    assert cells["d4"] == "" and cells["c1"] == ""
    assert f"Empty c3, finish on c3</a>: {report.min_moves} moves, proved" in html


def test_table_proofs_carry_a_proved_problem_to_its_symmetric_starts() -> None:
    """A proved 'c1 to c1' on the English board gives every start that a symmetry maps onto c1 its fewest moves
    home (the eight images of c1 on the cross), nothing else; with nothing settled the table gets nothing."""
    from solvers.pegs import board
    from solvers.pegs.report import TableProofs, table_proofs
    from solvers.pegs.table import Row

    b = board("english")
    rows = [Row(h, True, None, (h,), True, None) for h in b.labels]
    assert table_proofs(b, rows, {}) == TableProofs({}, {})
    images = {b.labels[p[b.index("c1")]] for p in b.symmetries}
    got = table_proofs(b, rows, {("c1", "c1"): 16})
    assert got.home == dict.fromkeys(images, 16) and len(images) == 8 and not got.anywhere

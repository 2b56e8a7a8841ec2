"""The table of proved Mastermind optima: its sizes, code labels, published values against the engine's proofs
(and a plain exhaustive search written here), and the rows and chart built from them."""

from __future__ import annotations

from fractions import Fraction

import pytest

from solvers.codebreak import build, build_tree, verify
from solvers.codebreak.optima import (
    AUTOMATIC_SECRETS,
    MAX_SECRETS,
    PUBLISHED,
    Published,
    cell,
    code_label,
    report,
    sizes,
)
from solvers.codebreak.strategy import Stats
from tests.unit.test_codebreak import brute_optimal_total, spec


def test_sizes_cover_every_game_up_to_the_limit_smallest_first() -> None:
    """Every pegs x colours (2..6 x 2..9) with at most MAX_SECRETS secrets, in order of size; the automatic
    share is a prefix."""
    table = sizes()
    expected = {(p, c) for p in range(2, 7) for c in range(2, 10) if c**p <= MAX_SECRETS}
    assert set(table) == expected and (4, 9) in expected and (5, 6) in expected and (6, 5) not in expected
    counts = [c**p for p, c in table]
    assert counts == sorted(counts)
    assert sizes(AUTOMATIC_SECRETS) == table[: len(sizes(AUTOMATIC_SECRETS))]


@pytest.mark.parametrize(("pegs", "colours"), [(2, 3), (3, 4), (4, 6)])
def test_code_labels_follow_the_games_own_listing(pegs: int, colours: int) -> None:
    """The label computed from an index is the game's own name of that code."""
    g = build(spec("mastermind"), {"length": pegs, "colours": colours})
    for i in range(0, len(g.experiments), max(1, len(g.experiments) // 50)):
        assert code_label(i, pegs, colours) == g.experiments[i]


@pytest.mark.parametrize(("pegs", "colours"), [(2, 2), (3, 2), (2, 3), (4, 2), (2, 4), (2, 5), (3, 3)])
def test_small_cells_equal_a_plain_exhaustive_search(pegs: int, colours: int) -> None:
    """The proved optimal total of each small size equals the plain search written in test_codebreak (every
    code at every node, memoised, no symmetry)."""
    g = build(spec("mastermind"), {"length": pegs, "colours": colours})
    st = verify(g, build_tree(g, "optimal-average"))
    assert st.verified and st.total == brute_optimal_total(pegs, colours)


@pytest.mark.parametrize("size", [s for s, p in PUBLISHED.items() if s[1] ** s[0] <= 1296 and (p.total or p.average)])
def test_published_values_agree_with_the_proofs(size: tuple[int, int]) -> None:
    """Goddard's averages (to three decimals) and Koyama and Lai's 5,625 for 4x6: the proved total matches,
    and a total one guess off would not match the exact figures."""
    pegs, colours = size
    g = build(spec("mastermind"), {"length": pegs, "colours": colours})
    st = verify(g, build_tree(g, "optimal-average"))
    published = PUBLISHED[size]
    assert st.verified and published.agrees(st.total, len(g.secrets))
    if published.total is not None:
        assert not published.agrees(st.total + 1, len(g.secrets))
    row = cell(pegs, colours, (None, st), None)
    assert row.agrees and not row.new and row.published_value is not None


def test_rounded_averages_decide_the_total() -> None:
    """Goddard's 3.219 for 3x4 (64 secrets) admits 206 and nothing else: a published average is a check, not a
    range wide enough to pass a wrong total."""
    p = Published("test", average="3.219")
    assert [t for t in range(150, 260) if p.agrees(t, 64)] == [206]
    assert Fraction(206, 64) == Fraction("3.21875")


def test_two_peg_formulas_are_listed_but_not_compared() -> None:
    """Two pegs beyond Goddard's printed columns: published as a formula this project does not evaluate, so the
    cell is neither new nor said to agree."""
    row = cell(2, 7, (0, Stats(worst=6, total=198, secrets=49, verified=True)), None)
    assert row.published is not None and row.agrees is None and not row.new and row.published_value == "formula"


def test_rows_and_chart() -> None:
    """A proved cell without a publication is new; a cell that disagrees with its publication is counted as a
    disagreement; pending cells are listed without points on the chart."""
    st = Stats(worst=4, total=999, secrets=625, verified=True)
    wrong = cell(4, 5, (0, st), Stats(worst=4, total=1000, secrets=625, verified=True))
    new = cell(5, 5, (7, Stats(worst=6, total=13496, secrets=3125, verified=True)), None)
    pending = cell(5, 6, None, None, "queued")
    r = report([wrong, new, pending])
    assert wrong.agrees is False and new.new and new.first_guess == "AAABC" and pending.state == "pending"
    assert (r.proved, r.new, r.disagreements) == (2, 1, 1)
    assert [len(s.points) for s in r.chart] == [1, 1] and [s.pegs for s in r.chart] == [4, 5]
    assert "5x5 (3,125 secrets): total 13,496" in r.text() and "5x6 (7,776 secrets): queued" in r.text()

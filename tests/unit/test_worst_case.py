"""The least worst case of Mastermind against published formulas and records: three pegs with any number of colours
(Jäger and Peczarski), and five pegs of six colours (ours, its proof recorded here)."""

from __future__ import annotations

from pathlib import Path

import pytest

from solvers.codebreak import build, build_tree, parse, verify
from solvers.codebreak.optimal.worst_search import WorstSearch

GAME = Path(__file__).resolve().parents[2] / "games" / "mastermind.game"


def mastermind(pegs: int, colours: int):  # type: ignore[no-untyped-def]
    """Mastermind with that many pegs and colours (past the site's ten colours, as a proof builds it)."""
    return build(parse(GAME.read_text()), {"length": pegs, "colours": colours}, colours_up_to=max(colours, 10)).tabled()


@pytest.mark.parametrize(  # 15 and 16 colours: 11 CPU s (make proofs)
    "colours", [*range(5, 15), *(pytest.param(k, marks=pytest.mark.proof) for k in (15, 16))]
)
def test_three_pegs_need_the_published_number_of_guesses(colours: int) -> None:
    """G. Jäger and M. Peczarski, "The number of pessimistic guesses in Generalized Mastermind", Information
    Processing Letters 109 (2009), Theorem 1: with 3 pegs and k >= 5 colours the least worst case is
    floor((k - 1) / 3) + 4 guesses, the last one the secret. The complete search refutes one guess fewer (from
    every class of first guess) and the tree it builds is played against every secret."""
    g = mastermind(3, colours)
    expected = (colours - 1) // 3 + 4
    assert WorstSearch(g).solve().cost == expected  # every smaller depth refuted, this one reached
    stats = verify(g, build_tree(g, "optimal-worst"))
    assert stats.verified and stats.worst == expected


@pytest.mark.proof  # about 20 s on 2 cores: make proofs
def test_five_pegs_of_six_colours_need_six_guesses() -> None:
    """Mastermind 5x6 (7,776 secrets): six guesses always suffice and five do not. Not in the publications we
    checked (docs/results.md); proved by the complete search, every class of first guess refuted at five, and the
    six-guess tree played against every secret."""
    g = mastermind(5, 6)
    assert WorstSearch(g).solve().cost == 6
    stats = verify(g, build_tree(g, "optimal-worst"))
    assert stats.verified and stats.worst == 6

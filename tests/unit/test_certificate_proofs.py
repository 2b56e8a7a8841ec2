"""make proofs: the certificates kept in webapp/data/certificates that take minutes to check, and every kept certificate
made again by the search as it is now and checked (tests/certify/checker.py, which shares no code with the search)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from solvers.codebreak import build
from solvers.codebreak.optimal.certificate import certify
from tests.certify.checker import check, check_file
from tests.unit.test_certificate import same_as_kept
from webapp.results.games import game_spec

KEPT = Path(__file__).resolve().parents[2] / "webapp" / "data" / "certificates"
LONG = {  # (pegs, colours): the total and its source: a publication, or for a value published nowhere we know of
    # ("new") the independent checker itself (tests/certify/checker.py), which is what proves it here
    (4, 7): (11228, "Ville 2013"),
    (4, 8): (20471, "arfst23/Mastermind (GitHub, README); never checked independently before this certificate"),
    (4, 9): (34666, "new"),
    (5, 5): (13496, "new"),
    (5, 6): (36721, "new"),
    (6, 4): (17281, "new"),
    (3, 11): (7361, "new: more colours than the table's sizes"),
    (3, 12): (10076, "new: more colours than the table's sizes"),
    (3, 13): (13438, "new: more colours than the table's sizes"),
    (3, 14): (17544, "new: more colours than the table's sizes"),
    (3, 15): (22540, "new: more colours than the table's sizes (make frontier's first size)"),
    (3, 16): (28479, "new: more colours than the table's sizes (make frontier's second size)"),
}
ALL = sorted(
    tuple(int(n) for n in path.stem.removeprefix("mastermind-").split("x")) for path in KEPT.glob("mastermind-*.npz")
)


@pytest.mark.proof
@pytest.mark.parametrize(("pegs", "colours"), sorted(LONG))
def test_long_certificates(pegs: int, colours: int) -> None:
    """About 40 s (5x5) to ten minutes or more (6x4, 3x13, 4x8; 3x14: 16 minutes of CPU; 3x15: 19 minutes of CPU,
    before the checker's compiled one-deeper loop) each here."""
    claims, cert = check_file(KEPT / f"mastermind-{pegs}x{colours}.npz", jobs=len(os.sched_getaffinity(0)))
    assert claims > 1 and int(cert["total"]) == LONG[pegs, colours][0]


@pytest.mark.proof
@pytest.mark.parametrize(("pegs", "colours"), ALL)
def test_certificates_made_again(pegs: int, colours: int) -> None:
    """The search as it is now makes the kept certificate again, array by array, and it checks."""
    cert = certify(build(game_spec("mastermind"), {"length": pegs, "colours": colours}, colours_up_to=colours))
    assert same_as_kept(cert, pegs, colours)
    assert check(cert._asdict(), jobs=len(os.sched_getaffinity(0))) > 1

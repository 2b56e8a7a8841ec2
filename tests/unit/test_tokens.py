"""Every state's canonical string form round-trips: from_token(to_token(x)) == x, and bad tokens are refused."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solvers.aequitas import Position
from solvers.devil import DevilVariant, moves_from_text, moves_to_text
from solvers.errors import InputError, PuzzleError
from solvers.pegs import BOARDS, board, from_token, game_from_text, to_token
from solvers.weighing import GOALS, WEIGHTS, Belief, Problem
from solvers.weighing.case import Case
from solvers.weighing.knowledge import format_weighings, parse_weighings

problems = st.builds(
    Problem,
    st.integers(1, 1_000_000),
    st.sampled_from(WEIGHTS),
    st.sampled_from(GOALS),
    st.integers(0, 1_000_000),
    st.booleans(),
)


@given(problems)
def test_problem_round_trips(p: Problem) -> None:
    """Problems."""
    assert Problem.from_token(p.to_token()) == p


@given(st.integers(0, 500), st.integers(0, 500), st.integers(0, 500), st.integers(0, 2000), st.booleans())
def test_belief_round_trips(u: int, lt: int, hv: int, g: int, z: bool) -> None:
    """Abstract beliefs (canonical: genuine coins capped at the candidates)."""
    b = Belief.make(u, lt, hv, g, z)
    assert Belief.from_token(b.to_token()) == b


@given(st.integers(0, 40), st.integers(0, 40), st.integers(0, 40), st.integers(0, 80), st.booleans())
def test_aequitas_position_round_trips(u: int, lt: int, hv: int, g: int, fake_unknown: bool) -> None:
    """Æquitas positions."""
    p = Position.make(u, lt, hv, g, fake_unknown)
    assert Position.from_token(p.to_token()) == p


@given(st.one_of(st.just(Case(None)), st.builds(Case, st.integers(1, 9_999_999), st.sampled_from([True, False, None]))))
def test_case_round_trips(case: Case) -> None:
    """Cases, secrets and guesses."""
    assert Case.from_token(case.to_token()) == case


@given(st.sampled_from(sorted(BOARDS)), st.data())
def test_peg_position_round_trips(name: str, data: st.DataObject) -> None:
    """Peg positions, fixed-width per board."""
    b = board(name)
    pos = data.draw(st.integers(0, b.full))
    token = to_token(b, pos)
    assert from_token(b, token) == pos and len(token) == (b.size + 3) // 4


@given(st.integers(1, 16), st.data())
def test_devil_moves_round_trip(n: int, data: st.DataObject) -> None:
    """Devil move lists."""
    v = DevilVariant(n)
    moves = tuple(data.draw(st.lists(st.integers(0, (1 << n) - 1), max_size=20)))
    assert moves_from_text(v, moves_to_text(moves)) == moves


def test_peg_game_text_round_trips() -> None:
    """A peg game's jump text."""
    g = game_from_text(board("triangle-5"), "1", "4-1,6-4,1-6")
    assert game_from_text(g.board, g.hole, g.text()) == g


@pytest.mark.parametrize("text", ["1..4-5..8;9-10", "1-G1", "G1,3-4,5", "1..333,G1-334..666,G2", "5,4,3-1,2,6"])
def test_weighings_round_trip(text: str) -> None:
    """Weighing lists in their compact form."""
    assert format_weighings(parse_weighings(text)) == text


@given(st.lists(st.tuples(st.lists(st.integers(1, 60), max_size=30), st.lists(st.integers(1, 60), max_size=30))))
def test_weighings_parse_their_formatting(ws: list[tuple[list[int], list[int]]]) -> None:
    """Any list of weighings survives formatting and parsing."""
    weighings = tuple((tuple(left), tuple(right)) for left, right in ws)[:60]
    assert parse_weighings(format_weighings(weighings)) == weighings


@pytest.mark.parametrize("text", ["4..1-2", "1..9999999-1", "1..", "..3-1", "1...3-4"])
def test_bad_ranges_are_refused(text: str) -> None:
    """Backwards, enormous or malformed ranges are refused with a message."""
    with pytest.raises(PuzzleError):
        parse_weighings(text)


@pytest.mark.parametrize("text", ["1..999999999999-5", "12345678-1", "G123456789-1"])
def test_a_coin_number_too_long_is_named_as_such(text: str) -> None:
    """A number past 7 digits is refused as one, not as text that is no coin (a visitor's tour)."""
    with pytest.raises(PuzzleError, match="a coin's number has at most 7 digits"):
        parse_weighings(text)


@pytest.mark.parametrize(
    ("parse", "token"),
    [
        (Problem.from_token, "12-unknown-identify-0"),
        (Problem.from_token, "\u00b9\u00b2-unknown-identify-0-0"),
        (Problem.from_token, "0-unknown-identify-0-0"),
        (Belief.from_token, "u1.l0.h0.g5.z0"),
        (Belief.from_token, "u1.l0.h0.g0"),
        (Position.from_token, "u0.l4.h1.g1.fX"),
        (Case.from_token, "7x"),
        (Case.from_token, "\u00b7"),
        (lambda t: from_token(board("triangle-4"), t), "fffff"),
        (lambda t: from_token(board("triangle-4"), t), "\u0661"),
        (lambda t: moves_from_text(DevilVariant(4), t), "10"),
        (lambda t: moves_from_text(DevilVariant(4), t), "\u00b2"),
    ],
)
def test_bad_tokens_are_refused(parse: Callable[[str], object], token: str) -> None:
    """Malformed, non-ASCII or out-of-range tokens are an InputError with a message for people (no Python
    exception text), never another exception."""
    with pytest.raises(InputError) as refused:
        parse(token)
    message = refused.value.message
    assert message and message[0].islower() and "Error" not in message and "Traceback" not in message

"""The Devil's blindfold game: the golden values of Norvig's "The Devil and the Coin Flip Game", Lamping's
construction, exact verification."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.devil import (
    DevilVariant,
    brute_force_wins,
    exhaust_configs,
    lamping,
    lamping_move,
    no_strategy_reason,
    search,
    solve,
    verify,
)
from solvers.devil.lamping import devil_keeps_unequal, odd_prime_factor
from solvers.devil.report import line_from
from solvers.devil.search import searchable
from solvers.devil.solve import Solution


@pytest.mark.parametrize(("n", "length"), [(1, 1), (2, 3), (4, 15), (8, 255)])
def test_seed_lengths_for_powers_of_two(n: int, length: int) -> None:
    """Norvig's notebook: shortest sure wins of 1, 3, 15 and 255 moves for N = 1, 2, 4, 8."""
    sol = solve(DevilVariant(n))
    assert sol.solvable and sol.length == length and sol.method == "search" and sol.verified


@pytest.mark.parametrize("n", [3, 5, 6, 7, 9, 10])
def test_no_strategy_by_exhaustive_search(n: int) -> None:
    """No sure win for N = 3, 5, 6, 7 (Norvig), and 9, 10: the belief search runs out."""
    r = search(DevilVariant(n))
    assert r.moves is None and r.exhausted
    assert solve(DevilVariant(n)).solvable is False


@pytest.mark.parametrize("n", [3, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15])
def test_lampings_argument_for_odd_prime_factors(n: int) -> None:
    """For N with an odd prime factor p, the Devil keeps p equally spaced coins unequal (checked on p coins)."""
    p = odd_prime_factor(n)
    assert p is not None and n % p == 0 and devil_keeps_unequal(p)
    reason = no_strategy_reason(DevilVariant(n))
    assert reason and f"odd prime factor {p}" in reason


@pytest.mark.slow
@pytest.mark.parametrize("n", [11, 12, 13, 14, 15])
def test_no_strategy_by_whole_table_search(n: int) -> None:
    """N = 11 to 15: the breadth-first search over sets of all 2^N tables runs out without a win (the search
    itself for N = 11; the solver, which runs it, for every N)."""
    if n == 11:
        r = exhaust_configs(DevilVariant(n))
        assert r.exhausted and r.moves is None
    sol = solve(DevilVariant(n))
    assert sol.solvable is False and sol.method == "search" and "Exhaustive search over all" in (sol.reason or "")


def test_whole_table_search_sees_a_win() -> None:
    """For N = 4 the same search reaches the empty belief (it does not claim 'no strategy')."""
    assert not exhaust_configs(DevilVariant(4)).exhausted


def test_the_devils_check_can_fail() -> None:
    """On 2 coins (an even 'p') the Devil cannot keep them unequal: the check says so."""
    assert not devil_keeps_unequal(2)


@pytest.mark.parametrize("n", [1, 2, 4, 8])
def test_lamping_construction_is_verified(n: int) -> None:
    """Lamping's construction: 2^N - 1 moves; it verifies, and so does its move-by-index form."""
    moves = lamping(n)
    assert len(moves) == 2**n - 1 and verify(DevilVariant(n), moves).ok
    assert [lamping_move(n, i) for i in range(len(moves))] == moves


@pytest.mark.proof  # half a minute: make proofs (N = 8's construction is verified in make test)
def test_lamping_16_verified_exactly() -> None:
    """N = 16: 65,535 moves, propagated on all 65,536 tables and every turn of the Devil."""
    sol = solve(DevilVariant(16))
    assert sol.solvable and sol.length == 65_535 and sol.method == "construction" and sol.verified
    assert sol.sizes[-1] == 0 and sol.sizes[-2] > 0
    assert lamping_move(16, 40_000) == sol.moves[40_000]  # type: ignore[index]


def test_verifier_rejects_a_short_strategy() -> None:
    """Dropping the last move of a winning strategy leaves tables alive: the verifier says no."""
    moves = solve(DevilVariant(4)).moves
    assert moves is not None
    assert not verify(DevilVariant(4), moves[:-1]).ok
    assert not verify(DevilVariant(4), list(moves[:7]) + list(moves[8:])).ok


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([1, 2, 3, 4]), st.lists(st.integers(0, 15), max_size=16))
def test_verifier_agrees_with_brute_force(n: int, raw: list[int]) -> None:
    """Any move sequence the verifier accepts wins against every start and every Devil (and vice versa)."""
    v = DevilVariant(n)
    moves = [m % (1 << n) for m in raw]
    assert verify(v, moves).ok == brute_force_wins(v, moves)


@pytest.mark.parametrize(
    ("goal", "reflections", "expected"),
    [
        ("all-heads", True, {1: 1, 2: 3, 4: 15, 8: 255}),
        ("all-equal", False, {1: 0, 2: 1, 4: 7, 8: 127}),
        ("all-equal", True, {1: 0, 2: 1, 4: 7, 8: 127}),
    ],
)
def test_variant_golden_values(goal: str, reflections: bool, expected: dict[int, int]) -> None:
    """Computed golden values: turning the table over does not help the Devil (reflections keep opposite
    pairs opposite, so Lamping's argument still works); 'all equal' ignores a global flip, which halves the
    state space: 2^(N-1) - 1 moves."""
    for n, length in expected.items():
        sol = solve(DevilVariant(n, goal, reflections))  # type: ignore[arg-type]
        assert sol.solvable and sol.length == length and sol.verified
    for n in (3, 5, 6, 7):
        assert solve(DevilVariant(n, goal, reflections)).solvable is False  # type: ignore[arg-type]


def test_dials_golden_values() -> None:
    """Dials with m positions: a sure win of m^N - 1 moves when N and m are powers of one prime, else none."""
    assert solve(DevilVariant(1, states=3)).length == 2
    assert solve(DevilVariant(3, states=3)).length == 26
    assert solve(DevilVariant(2, states=4)).length == 15
    assert solve(DevilVariant(1, states=5)).length == 4
    for n, m in ((2, 3), (4, 3), (3, 4), (2, 5), (2, 6)):
        assert solve(DevilVariant(n, states=m)).solvable is False
    assert brute_force_wins(DevilVariant(2, states=4), solve(DevilVariant(2, states=4)).moves or ())


def test_solution_page_model() -> None:
    """The solution page's model for N = 4 (15 moves): every move on one page, the tables possible before the
    first move are all but the goal, each step's 'after' is the next step's 'before', and the last move leaves
    nothing (rings shown: N is small)."""
    from solvers.devil import DevilVariant, solve
    from solvers.devil.report import Line, solution_step

    v = DevilVariant(4)
    sol = solve(v)
    assert sol.moves is not None
    steps = [solution_step(v, Line(sol.moves, sol.sizes), k) for k in range(1, len(sol.moves) + 1)]
    assert [r[0] for r in steps[0].rows] == list(range(1, 16)) and steps[0].size_before == 2**4 - 1
    assert all(a.size_after == b.size_before for a, b in zip(steps, steps[1:], strict=False))
    assert steps[-1].size_after == 0 and steps[-1].rings_after == () and steps[0].rings_before


def test_beyond_the_search_the_construction_is_followed_again() -> None:
    """16 coins are beyond the belief search: from a position in mid-game the solution is Lamping's construction
    again from its first move (it wins from any table), marked as a restart, and the game's start has no restart."""
    v = DevilVariant(16)
    assert not searchable(v)
    moves = tuple(lamping(16))
    sol = Solution(v, True, moves, "construction", True, None, (1,) * len(moves))
    line = line_from(v, sol, (1, 2))
    assert line is not None and line.restart and line.moves == moves and line.first == 1
    start = line_from(v, sol, ())
    assert start is not None and not start.restart


def test_the_play_page_model_is_made_without_flask() -> None:
    """N = 4 after flipping every coin: not won, the tables possible as the verification counts them; after the
    whole solution: won at its last move, nothing possible, no lesson; a move after a win is refused; a move taken
    back is listed by its places."""
    from solvers.devil.report import play_page
    from solvers.errors import InputError

    v = DevilVariant(4)
    sol = solve(v)
    assert sol.moves is not None
    first = play_page(v, (0xF,), sol, (None, None), peek=True)
    assert first.won is None and first.history == ((0, 1, 2, 3),) and first.lesson is not None
    assert first.possible == verify(v, (0xF,)).sizes[-1] and first.rings is not None
    done = play_page(v, sol.moves, sol, (None, None), peek=False, taken_back=(1,))
    assert done.won == len(sol.moves) and done.possible == 0 and done.lesson is None and done.taken_back == ((0,),)
    with pytest.raises(InputError, match="already won"):
        play_page(v, (*sol.moves, 1), sol, (None, None), peek=False)

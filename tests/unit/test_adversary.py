"""The adversarial scale: consistent, beaten by the solver's plan, and unbeatable below the minimum."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.errors import IllegalMoveError
from solvers.weighing import OUTCOMES, Outcome, Problem, min_weighings
from solvers.weighing.adversary import adversary_outcome, as_user, cases_of, hint, judge, replay
from solvers.weighing.case import Case, all_cases
from solvers.weighing.knowledge import apply, format_weighings, honest_outcome, parse_weighings
from solvers.weighing.plan import realise, start
from solvers.weighing.search import all_splits, fewest


@st.composite
def games(draw: st.DrawFn) -> tuple[Problem, list[tuple[tuple[int | str, ...], tuple[int | str, ...]]]]:
    """A random problem and a random sequence of legal weighings."""
    n = draw(st.integers(3, 40))
    extra = draw(st.integers(0, 3))
    weight = draw(st.sampled_from(["unknown", "lighter", "heavier"]))
    p = Problem(n, weight, draw(st.sampled_from(["identify", "find"])), extra, draw(st.booleans()))
    coins: list[int | str] = [*range(1, n + 1), *(f"G{i}" for i in range(1, extra + 1))]
    ws = []
    for _ in range(draw(st.integers(1, 5))):
        order = draw(st.permutations(coins))
        k = draw(st.integers(1, len(coins) // 2))
        ws.append((tuple(order[:k]), tuple(order[k : 2 * k])))
    return p, ws


@settings(max_examples=150, deadline=None)
@given(games())
def test_adversary_stays_consistent(game: tuple[Problem, list]) -> None:  # type: ignore[type-arg]
    """After every answer some case fits all answers, and the observer's count is exactly those cases."""
    p, ws = game
    r = replay(p, 60, ws)
    survivors = []
    for case in all_cases(p):
        if all(honest_outcome(step.weighing, case) is step.outcome for step in r.steps):
            survivors.append(case)
    assert survivors, "the adversary contradicted itself"
    assert sorted(survivors, key=repr) == sorted(cases_of(r.coins), key=repr)
    assert len(survivors) == r.coins.abstract().cases


@pytest.mark.slow
def test_following_hints_always_wins_within_the_minimum() -> None:
    """Against the solver's own plan (its hints), the user wins within the minimum, N = 3..40, all variants."""
    for n in range(3, 41):
        for weight in ("unknown", "lighter"):
            for goal in ("identify", "find"):
                for extra in (0, 1):
                    for z in (False, True):
                        p = Problem(n, weight, goal, extra, z)  # type: ignore[arg-type]
                        m = min_weighings(p).weighings
                        assert m is not None
                        ws: list = []  # type: ignore[type-arg]
                        while (h := hint(replay(p, m, ws))) is not None:
                            ws.append(as_user(h))
                        r = replay(p, m, ws)
                        assert r.used <= m and r.can_finish
                        case = cases_of(r.coins)[0]
                        guess = Case(case.coin, None if p.find else case.heavier)
                        assert judge(r.coins, guess, p) is None, p


@pytest.mark.parametrize("n", [12, 13])
def test_adversary_defeats_every_first_weighing_with_fewer(n: int) -> None:
    """N = 12 and 13: with one weighing fewer than the minimum, every first weighing (by counts) loses."""
    p = Problem(n)
    m = min_weighings(p).weighings
    assert m is not None
    budget = m - 1
    root = start(p)
    for split in all_splits(p.root()):
        w = realise(root, split)
        o = adversary_outcome(root, as_user(w), p.find)
        needed = fewest(w.after[OUTCOMES.index(o)].abstract(), p.find)
        assert needed is None or needed > budget - 1, split


def test_wasteful_weighing_is_flagged() -> None:
    """Weighing 1 against 2 first (12 coins, budget 3) loses the guarantee, and the solver says what to do."""
    r = replay(Problem(12), 3, parse_weighings("1-2"))
    assert not r.can_finish and r.lost_at() == 1
    better = r.better(1)
    assert better is not None and len(better.left) == 4


@pytest.mark.parametrize(
    "text",
    ["1,2-3", "-", "1-1", "13-1", "G1-1", "1,2", "a-b", "0-1"],
)
def test_illegal_weighings_are_refused(text: str) -> None:
    """Unequal pans, empty weighings, repeated coins, and coins not in play are refused."""
    with pytest.raises(IllegalMoveError):
        replay(Problem(12), 3, parse_weighings(text))


def test_weighing_text_round_trips() -> None:
    """Long lists are written compactly as ranges, and parse back to the same weighings."""
    text = "1,2,3,4-5,6,7,G1;9-10"
    ws = parse_weighings(text)
    assert format_weighings(ws) == "1..4-5..7,G1;9-10" and parse_weighings(format_weighings(ws)) == ws


def test_budget_is_enforced() -> None:
    """No weighing beyond the budget."""
    with pytest.raises(IllegalMoveError):
        replay(Problem(12), 1, parse_weighings("1-2;3-4"))


def test_judge_reveals_a_contradicting_case() -> None:
    """Guessing too early: the adversary shows a case that fits every answer but not the guess."""
    r = replay(Problem(12), 3, parse_weighings("1,2,3,4-5,6,7,8"))
    counter = judge(r.coins, Case(9, True), Problem(12))
    assert counter is not None and counter != Case(9, True)
    assert Case.from_token("7h") == Case(7, True) and Case.from_token("none").coin is None


def test_ties_go_to_balance_then_left() -> None:
    """The tie-break in docs/puzzles/adversary.md: when outcomes are equally hard, balance, then left heavier, then
    right heavier."""
    p = Problem(12)
    four = parse_weighings("1,2,3,4-5,6,7,8")[0]  # every outcome leaves 8 cases needing 2 weighings
    after = {o: apply(start(p), four, o) for o in OUTCOMES}
    assert len({(fewest(c.abstract(), False), c.abstract().cases) for c in after.values()}) == 1
    assert adversary_outcome(start(p), four, False) is Outcome.BALANCE
    two = Problem(2)  # 1 against 2: balance cannot happen; left and right leave two cases each
    one_one = parse_weighings("1-2")[0]
    assert apply(start(two), one_one, Outcome.BALANCE).abstract().cases == 0
    assert adversary_outcome(start(two), one_one, False) is Outcome.LEFT


def test_the_play_page_model() -> None:
    """After 1 against 2 (12 coins, budget 3) the page model flags weighing 1 with the solver's 4-against-4
    instead, suggests a weighing at hint level 2 only, lists the 24 minus the cases the scale ruled out, shows the
    last weighing's pans, and once a coin is named says whether it was right."""
    from solvers.weighing.report import adversary_view

    r = replay(Problem(12), 3, parse_weighings("1-2"))
    quiet, helped = adversary_view(r, None, None, 0), adversary_view(r, None, None, 2)
    assert quiet.lost == 1 and quiet.better is not None and len(quiet.better.left) == 4
    assert quiet.hint is None and helped.hint is not None and quiet.verdict is None
    assert set(quiet.cases) == set(cases_of(r.coins)) and 0 < len(quiet.cases) < 24
    assert [p.coins for p in quiet.last_pans] == [(1,), (2,)]
    named = adversary_view(r, quiet.cases[0], None, 0).verdict  # many cases left: the adversary has a counter
    assert named is not None and not named.win and named.counter in quiet.cases and named.counter != quiet.cases[0]
    honest = adversary_view(r, quiet.cases[0], quiet.cases[0], 0).verdict  # the honest scale's secret, named
    assert honest is not None and honest.win and not honest.sure


def test_typed_pans_are_read_as_the_coins_they_name() -> None:
    """Typed pans: numbers, ranges (1-4, 1..4, spaces allowed), G1 in any case, repeats once; a coin the game
    does not have, a backwards range or a coin on both pans is refused with the coin named."""
    from solvers.errors import IllegalMoveError
    from solvers.weighing.knowledge import placements, typed_pan

    names = [str(i) for i in range(1, 13)] + ["G1"]
    assert typed_pan("1-3, 9 10..11 g1 9", names) == ["1", "2", "3", "9", "10", "11", "G1"]
    places = placements(names, {"left": "1 - 4", "right": "5..8", "c9": "left"})
    assert [k for k, v in places.items() if v == "left"] == ["1", "2", "3", "4"]  # typed pans win over controls
    assert [k for k, v in places.items() if v == "right"] == ["5", "6", "7", "8"]
    assert placements(names, {"c2": "right"})["2"] == "right"  # nothing typed: each coin's own control
    for left, right, words in [("13", "", "coin 13"), ("4-2", "", "4-2"), ("1-4", "4", "coin 4 is typed on both")]:
        with pytest.raises(IllegalMoveError, match=words):
            placements(names, {"left": left, "right": right})


def test_the_play_page_model_is_made_without_flask() -> None:
    """12 coins, 1-4 against 5-8: the page's model holds the replay, the lesson (the worst case it can leave, 8 of
    24, beside the most balanced weighing's 8) and, once the coin is named, the verdict."""
    from solvers.weighing.adversary import replay
    from solvers.weighing.case import Case
    from solvers.weighing.knowledge import parse_weighings
    from solvers.weighing.report import adversary_page

    ws = parse_weighings("1..4-5..8")
    r = replay(Problem(12), 3, ws)
    page = adversary_page(r, ws, None, None, 0)
    # 12 coins, heavier or lighter: 24 cases; a balance leaves coins 9-12 either way (8), a tilt one direction
    # for each of the 8 coins weighed (8); no weighing does better, as 24 cases over 3 outcomes need 8 on one
    assert page.lesson is not None and (page.lesson.cases_before, page.lesson.worst_left) == (24, 8)
    assert page.lesson.best_worst_left == 8 and not page.over and page.view.verdict is None
    named = adversary_page(r, ws, Case.from_token(page.view.cases[0].to_token()), None, 0)
    assert named.over and named.view.verdict is not None

"""The code-breaking hint's figures against a plain brute force written here: the optimal total of the codes still
possible, with the player's guess first and with the best guess, and the worst case each leaves."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest

from solvers.codebreak import build, parse
from solvers.codebreak.lesson import alive_after, lesson
from solvers.codebreak.optimal.average_search import AverageSearch

GAMES = Path(__file__).resolve().parents[2] / "games"


def brute(game):  # type: ignore[no-untyped-def]
    """total(S, e): guesses to find every code of S with e first, best play after, by trying every guess."""
    table = game.dense()
    win = game.win_outcome

    def parts(s: frozenset[int], e: int) -> dict[int, frozenset[int]]:
        out: dict[int, set[int]] = {}
        for x in s:
            out.setdefault(int(table[e, x]), set()).add(x)
        return {o: frozenset(p) for o, p in out.items()}

    @cache
    def best(s: frozenset[int]) -> int:
        if len(s) == 1:
            return 1
        return min(with_first(s, e) for e in range(table.shape[0]) if e in s or len(parts(s, e)) > 1)

    def with_first(s: frozenset[int], e: int) -> int:
        return len(s) + sum(best(p) for o, p in parts(s, e).items() if o != win)

    return best, with_first, parts


@pytest.mark.parametrize(
    ("name", "pegs", "colours"),
    [
        ("mastermind", 2, 3),
        ("mastermind", 2, 4),
        ("mastermind", 3, 3),
        ("mastermind-black", 3, 3),  # the place-by-place symmetries of black-peg games
        ("bulls-and-cows", 3, 4),  # codes without repeats
    ],
)
def test_lesson_matches_the_brute_force(name: str, pegs: int, colours: int) -> None:
    """Every first guess (each searched under the symmetries that fix it), 30 random second guesses after random
    first ones and 30 random third guesses (each searched under the symmetries that fix the guesses made, the
    candidates one per class of them): the totals, the best total and the worst cases agree with trying every
    guess at every step."""
    g = build(parse((GAMES / f"{name}.game").read_text()), {"length": pegs, "colours": colours})
    best, with_first, parts = brute(g)
    search = AverageSearch(g)
    n = len(g.secrets)
    rng = random.Random(5)
    histories = [(e,) for e in range(n)] + [(rng.randrange(n), rng.randrange(n)) for _ in range(30)]
    histories += [(rng.randrange(n), rng.randrange(n), rng.randrange(n)) for _ in range(30)]
    losses = set()
    for guesses in histories:
        secret = rng.randrange(n)
        outcomes = tuple(int(g.dense()[e, secret]) for e in guesses)
        s = frozenset(int(x) for x in alive_after(g, guesses[:-1], outcomes[:-1]))
        got = lesson(g, guesses, outcomes, search)
        assert got.secrets == len(s)
        if got.total is None:  # every first guess alike (Bulls and Cows): said without a search, true by the brute
            assert len(guesses) == 1 and with_first(s, guesses[-1]) == best(s) and got.lost == 0
        else:
            assert got.total == with_first(s, guesses[-1])
            assert got.best_total == best(s) == with_first(s, g.experiments.index(got.best_guess))
        assert got.worst_left == max(len(p) for p in parts(s, guesses[-1]).values())
        assert got.best_worst_left == min(max(len(p) for p in parts(s, e).values()) for e in range(n))
        losses.add(got.lost > 0)
    assert losses == {True, False}  # both best guesses and poorer ones were met


@pytest.mark.parametrize(("pegs", "colours"), [(3, 4), pytest.param(3, 5, marks=pytest.mark.proof), (2, 5)])
def test_the_best_after_a_first_guess_comes_from_the_proved_tree(pegs: int, colours: int) -> None:
    """Bulls and Cows, whose first guesses are all alike: for every first guess and every score, the best total
    and best guess read from the proved optimal-average tree (its subtree after its own first guess, relabelled)
    agree with the brute force on the codes that first guess leaves; a lesson given them says what the search
    says."""
    from solvers.codebreak import build_tree
    from solvers.codebreak.lesson import best_after_first, every_first_alike

    g = build(parse((GAMES / "bulls-and-cows.game").read_text()), {"length": pegs, "colours": colours})
    assert every_first_alike(g)
    best, with_first, _ = brute(g)
    root = build_tree(g, "optimal-average")
    table, search = g.dense(), AverageSearch(g)
    for first in range(len(g.experiments)):
        for outcome in sorted({int(table[first, x]) for x in range(len(g.secrets))}):
            if outcome == g.win_outcome:
                continue
            s = frozenset(int(x) for x in alive_after(g, (first,), (outcome,)))
            got = best_after_first(g, first, outcome, root)
            assert got is not None and got[0] == best(s) == with_first(s, got[1]), (first, outcome)
            second = sorted(s)[0]
            told = lesson(g, (first, second), (outcome, 0), search, best=got)
            assert (told.total, told.best_total) == (with_first(s, second), best(s))


@pytest.mark.parametrize(("pegs", "colours"), [(3, 4), (2, 5)])
def test_every_second_guess_is_judged_in_advance(pegs: int, colours: int) -> None:
    """Bulls and Cows: the totals of every second guess, searched once per class of second guesses after the first
    experiment, then read for ANY first guess through its relabelling (`second_worth`), agree with the brute force
    for every first guess, every score and every second guess: its total, the best total and a guess achieving
    it; a lesson given them searches nothing and says the same."""
    from solvers.codebreak.second import class_leaders, second_totals, second_worth

    g = build(parse((GAMES / "bulls-and-cows.game").read_text()), {"length": pegs, "colours": colours})
    best, with_first, parts = brute(g)
    search = AverageSearch(g)
    assert len(set(class_leaders(search, 0).tolist())) < len(g.experiments)  # one search per class, not per guess
    totals = second_totals(search)
    table = g.dense()
    for first in range(len(g.experiments)):
        for outcome in sorted({int(table[first, x]) for x in range(len(g.secrets))}):
            s = frozenset(int(x) for x in alive_after(g, (first,), (outcome,)))
            for second in range(len(g.experiments)):
                worth = second_worth(g, totals, first, outcome, second)
                assert worth is not None
                assert worth.total == with_first(s, second), (first, outcome, second)
                assert worth.best == best(s) == with_first(s, worth.best_guess)
            told = lesson(g, (first, second), (outcome, 0), best=(worth.best, worth.best_guess), total=worth.total)
            assert told.worst_left == max(len(p) for p in parts(s, second).values())
            assert (told.total, told.best_total) == (with_first(s, second), best(s))

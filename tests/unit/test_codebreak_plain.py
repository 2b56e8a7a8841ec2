"""The plain-Python optimal search of small games (`optimal.plain`) against the compiled one and against the
exhaustive searches written in test_codebreak: the same optimal totals and worst cases on every small game, with
and without a cap on the guesses, trees that verify, and the same refusal past its budget."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from solvers.codebreak import Proving, build, build_tree, parse, verify
from solvers.codebreak.game import Game
from solvers.codebreak.optima import sizes
from solvers.codebreak.optimal.plain import PLAIN_MAX, PlainSearch
from solvers.errors import InputError, LimitError
from tests import oracle

GAMES = Path(__file__).resolve().parents[2] / "games"


def game(name: str, **sizes_: int) -> Game:
    """A shipped game at these sizes."""
    return build(parse((GAMES / f"{name}.game").read_text()), sizes_)


SMALL_GAMES = [
    *(("mastermind", {"length": p, "colours": c}) for p, c in sizes(PLAIN_MAX)),
    ("mastermind-black", {"length": 3, "colours": 3}),
    ("mastermind-black", {"length": 2, "colours": 5}),
    ("bulls-and-cows", {"length": 2, "colours": 5}),
    ("bulls-and-cows", {"length": 2, "colours": 8}),
    ("counterfeit-coin", {"count": 4}),
    ("counterfeit-coin", {"count": 6}),
]


@pytest.mark.parametrize(("name", "sizes_"), SMALL_GAMES, ids=lambda v: str(v))
def test_plain_and_compiled_searches_agree(name: str, sizes_: dict[str, int]) -> None:
    """Every small game's optimal total and worst case: the same from both searches, each tree verified on every
    secret, and the average tree's worst case the same (both take the first best experiment in the same order)."""
    g = game(name, **sizes_)
    assert len(g.secrets) <= PLAIN_MAX
    for strategy in ("optimal-average", "optimal-worst"):
        plain = verify(g, build_tree(g, strategy, proving=Proving(compiled=False)))
        compiled = verify(g, build_tree(g, strategy, proving=Proving(compiled=True)))
        assert plain.verified and compiled.verified
        assert (plain.total, plain.worst) == (compiled.total, compiled.worst)


# 3x4 (64 secrets) takes the exhaustive searches 13 s: make proofs
@pytest.mark.parametrize(("pegs", "colours"), [(2, 3), (3, 3), (2, 4), pytest.param(3, 4, marks=pytest.mark.proof)])
def test_plain_search_equals_the_exhaustive_searches(pegs: int, colours: int) -> None:
    """Against the exhaustive searches written in the tests (no bounds, no symmetry): the fewest total guesses and
    the fewest in the worst case."""
    g = game("mastermind", length=pegs, colours=colours)
    total = oracle.optimal_total(pegs, colours)
    assert PlainSearch(g, False, 10**9).solve().cost == total
    codes, _, depth = oracle.plain_costs(pegs, colours)
    assert PlainSearch(g, True, 10**9).solve().cost == depth(frozenset(codes))


@pytest.mark.parametrize(("pegs", "colours", "cap"), [(2, 7, 5), (2, 8, 6), (3, 4, 4), (2, 6, 5)])
def test_a_cap_on_the_guesses_is_kept_by_both(pegs: int, colours: int, cap: int) -> None:
    """Within at most cap guesses: the same optimal total from both searches (above the uncapped one where the cap
    binds), every secret found within the cap; below the least worst case, both refuse."""
    g = game("mastermind", length=pegs, colours=colours)
    trees = [build_tree(g, "optimal-average", max_guesses=cap, proving=Proving(compiled=c)) for c in (False, True)]
    plain, compiled = (verify(g, t) for t in trees)
    assert plain.verified and plain.worst <= cap and compiled.worst <= cap
    assert plain.total == compiled.total >= verify(g, build_tree(g, "optimal-average")).total
    least = verify(g, build_tree(g, "optimal-worst")).worst
    for c in (False, True):
        with pytest.raises(InputError, match="within"):
            build_tree(g, "optimal-average", max_guesses=least - 1, proving=Proving(compiled=c))


def test_capped_costs_of_random_sets_equal_an_exhaustive_search() -> None:
    """On random sets of Mastermind 2x6 secrets and every cap from 1 to 5 guesses, some of them binding: the least total
    within the cap equals an exhaustive search written here (no bounds; a set that cannot be finished costs
    infinity)."""
    from functools import cache
    from itertools import product

    codes = list(product(range(6), repeat=2))
    score = {(g, x): oracle.score(g, x) for g in codes for x in codes}

    @cache
    def capped(alive: frozenset[tuple[int, ...]], d: int) -> float:
        if d == 0:
            return math.inf
        if len(alive) == 1:
            return 1
        best = math.inf
        for g in codes:
            parts: dict[tuple[int, int], set[tuple[int, ...]]] = {}
            for x in alive:
                if x != g:
                    parts.setdefault(score[g, x], set()).add(x)
            if g in alive or len(parts) > 1:
                best = min(best, len(alive) + sum(capped(frozenset(p), d - 1) for p in parts.values()))
        return best

    g = game("mastermind", length=2, colours=6)
    rng = np.random.default_rng(11)
    bound = False
    for _ in range(100):
        chosen = rng.choice(len(codes), size=int(rng.integers(6, 20)), replace=False)
        mask = sum(1 << int(i) for i in chosen)
        alive = frozenset(codes[int(i)] for i in chosen)
        for d in range(1, 6):
            search = PlainSearch(g, False, 10**9)
            got = search.average(mask, 10**6, d)
            want = capped(alive, d)
            assert got == want if want < math.inf else got >= 10**6
            bound |= math.inf > want > capped(alive, 9)
    assert bound  # some cap raised some set's cost


def test_the_plain_search_refuses_past_its_budget() -> None:
    """A budget too small for the proof: the same clear refusal as the compiled search's."""
    g = game("mastermind", length=2, colours=8)
    with pytest.raises(LimitError, match="budget"):
        PlainSearch(g, False, 100).solve()


def test_the_tree_is_read_back_from_any_set() -> None:
    """best_of answers for sets off the search's path too (searched again), with a cost the compiled search
    agrees with."""
    from solvers.codebreak.optimal.average_search import AverageSearch

    g = game("mastermind", length=3, colours=4)
    plain, compiled = PlainSearch(g, False, 10**9), AverageSearch(g)
    rng = np.random.default_rng(3)
    for _ in range(20):
        s = np.sort(rng.choice(len(g.secrets), size=int(rng.integers(3, 20)), replace=False)).astype(np.int32)
        assert plain.best_of(s, 10**6)[0] == compiled.average(s, 10**6)


def test_a_game_needing_more_work_goes_to_the_compiled_search() -> None:
    """Black-peg Mastermind 2x8 would take the plain search many seconds (it lacks the compiled search's place-by-place
    symmetries): past PLAIN_WORK it gives up, and build_tree then takes the compiled search's result, the same as
    asking for it; Mastermind 3x4 stays well within the plain search's work."""
    from solvers.codebreak.optimal.plain import PLAIN_WORK

    black = game("mastermind-black", length=2, colours=8)
    with pytest.raises(LimitError):
        PlainSearch(black, False, PLAIN_WORK).solve()
    auto = verify(black, build_tree(black, "optimal-average"))
    assert (
        auto.verified
        and auto.total == verify(black, build_tree(black, "optimal-average", proving=Proving(compiled=True))).total
    )
    small = game("mastermind", length=3, colours=4)
    assert PlainSearch(small, False, PLAIN_WORK).solve().work < PLAIN_WORK // 10


def possible_only_costs(pegs: int, colours: int):  # type: ignore[no-untyped-def]
    """The fewest total guesses and fewest in the worst case when only codes still possible may be guessed, by an
    exhaustive search written here (no bounds, no symmetry)."""
    from functools import cache
    from itertools import product

    codes = list(product(range(colours), repeat=pegs))

    def parts(g: tuple[int, ...], alive: frozenset[tuple[int, ...]]) -> list[frozenset[tuple[int, ...]]]:
        split: dict[tuple[int, int], set[tuple[int, ...]]] = {}
        for x in alive:
            if x != g:
                split.setdefault(oracle.score(g, x), set()).add(x)
        return [frozenset(p) for p in split.values()]

    @cache
    def total(alive: frozenset[tuple[int, ...]]) -> int:
        return len(alive) + min(sum(total(p) for p in parts(g, alive)) for g in alive)

    @cache
    def depth(alive: frozenset[tuple[int, ...]]) -> int:
        return 1 + min(max((depth(p) for p in parts(g, alive)), default=0) for g in alive)

    everything = frozenset(codes)
    return total(everything), depth(everything)


@pytest.mark.parametrize(("pegs", "colours"), [(2, 3), (3, 3), (2, 4), (2, 5), (3, 4)])
def test_possible_codes_only_equal_an_exhaustive_search(pegs: int, colours: int) -> None:
    """Guessing only codes still possible: the plain and the compiled searches give the exhaustive search's total
    and worst case, their trees verify and guess only possible codes, and neither beats the unrestricted optimum."""
    from solvers.codebreak.strategy import guesses_possible_codes

    g = game("mastermind", length=pegs, colours=colours)
    total, depth = possible_only_costs(pegs, colours)
    for compiled in (False, True):
        average = build_tree(g, "optimal-average", possible_only=True, proving=Proving(compiled=compiled))
        worst = build_tree(g, "optimal-worst", possible_only=True, proving=Proving(compiled=compiled))
        assert guesses_possible_codes(g, average) and guesses_possible_codes(g, worst)
        st, wst = verify(g, average), verify(g, worst)
        assert st.verified and wst.verified and (st.total, wst.worst) == (total, depth)
    assert verify(g, build_tree(g, "optimal-average")).total <= total


def test_possible_codes_only_is_refused_where_it_means_nothing() -> None:
    """A game whose secret is never guessed (the counterfeit coin) and a heuristic are refused; an unrestricted
    optimal tree that guesses an impossible code is told apart."""
    from solvers.codebreak.strategy import guesses_possible_codes

    coins = game("counterfeit-coin", count=4)
    with pytest.raises(InputError, match="possible codes only"):
        build_tree(coins, "optimal-worst", possible_only=True)
    g = game("mastermind", length=3, colours=4)
    with pytest.raises(InputError, match="possible codes only"):
        build_tree(g, "knuth", possible_only=True)
    found = [guesses_possible_codes(g, build_tree(g, s)) for s in ("optimal-average", "optimal-worst", "knuth")]
    assert not all(found)


@pytest.mark.parametrize(("pegs", "colours", "total", "first"), [(3, 5, 455, "ABC"), (4, 6, 5660, "AABC")])
def test_possible_codes_only_agree_with_the_published_optima(pegs: int, colours: int, total: int, first: str) -> None:
    """The optimal totals guessing possible codes only published on supermastermind.github.io
    (playonline/optimal_strategy.html: 3 columns x 5 colours 455 with first code 123, Master Mind 4x6 5,660 with
    1233, both worst case 5 and 6 there): proved here, the tree verified, guessing only possible codes, its first
    guess of the published pattern."""
    g = game("mastermind", length=pegs, colours=colours)
    tree = build_tree(g, "optimal-average", possible_only=True)
    st = verify(g, tree, possible_only=True)
    assert st.verified and st.total == total
    label = g.experiments[tree.experiment or 0]
    assert sorted(Counter(label).values()) == sorted(Counter(first).values())


def test_a_game_scored_on_demand_is_tabled_for_the_search() -> None:
    """A game built without a table (as Super Mastermind is) gets the same table from the compiled scorer, and the
    search guessing possible codes only proves the same total on it as on the tabled game."""

    text = (GAMES / "mastermind.game").read_text()
    tabled = build(parse(text), {"length": 3, "colours": 5})
    on_demand = build(parse(text), {"length": 3, "colours": 5}, untabled=True)
    assert on_demand.table is None and on_demand.tabled().table is not None
    assert (on_demand.tabled().dense() == tabled.dense()).all() and tabled.tabled() is tabled
    st = verify(on_demand, build_tree(on_demand, "optimal-average", possible_only=True, proving=Proving(compiled=True)))
    assert st.verified and st.total == verify(tabled, build_tree(tabled, "optimal-average", possible_only=True)).total


def test_super_mastermind_is_offered_to_the_search_guessing_possible_codes_only() -> None:
    """Super Mastermind's 32,768 secrets are past the unrestricted optimal search's limit (the message names the
    limit guessing possible codes only), within that of the search guessing possible codes only."""
    from solvers.codebreak.strategy import optimal_limit

    g = build(parse((GAMES / "super-mastermind.game").read_text()))
    with pytest.raises(LimitError, match=r"8,000 secrets \(32,768 guessing possible codes only\)"):
        build_tree(g, "optimal-average")
    assert optimal_limit("optimal-average", possible_only=True) >= len(g.secrets) > optimal_limit("optimal-average")


def test_each_game_is_named_in_its_own_terms() -> None:
    """Bulls and Cows: digits 0-9 for the file's A-J, bulls and cows; the colour games: letters, black and white."""
    from solvers.codebreak import build, parse
    from solvers.codebreak.play import terms

    bc = terms(build(parse(Path("games/bulls-and-cows.game").read_text()), {}))
    assert bc.show("ABCJ") == "0129" and bc.symbol == "digit" and bc.place == "place"
    assert [bc.score(s) for s in ("0B1W", "1B0W", "2B2W")] == ["0 bulls, 1 cow", "1 bull, 0 cows", "2 bulls, 2 cows"]
    mm = terms(build(parse(Path("games/mastermind.game").read_text()), {}))
    assert mm.show("ABCD") == "ABCD" and mm.names[:2] == ("red", "blue")
    assert mm.score("1B2W") == "1 black, 2 white"


def test_which_strategies_a_game_page_offers() -> None:
    """Mastermind 4x6 is offered every strategy; Bulls and Cows (5,040 secrets) no optimal average search beyond
    its limit; the generated counterfeit-coin game above 8 coins only the optimal worst case."""
    from solvers.codebreak import build, parse
    from solvers.codebreak.strategy import OPTIMAL_MAX_SECRETS, not_offered

    mm = build(parse(Path("games/mastermind.game").read_text()), {})
    assert all(not_offered(mm, s) is None for s in ("knuth", "optimal-average", "optimal-worst"))
    bc = build(parse(Path("games/bulls-and-cows.game").read_text()), {})
    if len(bc.secrets) > OPTIMAL_MAX_SECRETS:
        assert not_offered(bc, "optimal-average") == (
            f"not offered: this search is for games of up to {OPTIMAL_MAX_SECRETS:,} secrets"
        )
    assert not_offered(bc, "knuth") is None


def test_the_play_page_model_is_made_without_flask() -> None:
    """Mastermind 2x3 against the adversary after AB: one row scored, the codes still possible counted by an
    independent scoring here, three colours offered by name; a refused entry says why; the secret is not shown
    before the game is won."""
    from solvers.codebreak import build, parse
    from solvers.codebreak.play import code_index, play_page, play_round

    g = build(parse(Path("games/mastermind.game").read_text()), {"length": 2, "colours": 3})
    r = play_round(g, (code_index(g, "AB"),))
    page = play_page(g, "adversarial", r, None, 3, "A?")
    (row,) = page.rows
    assert row[0] == "AB" and page.length == 2 and page.colours == (("A", "red"), ("B", "blue"), ("C", "green"))

    def score(guess: str, code: str) -> str:
        black = sum(a == b for a, b in zip(guess, code, strict=True))
        common = sum(min(guess.count(c), code.count(c)) for c in "ABC")
        return f"{black}B{common - black}W"

    codes = ["".join(p) for p in itertools.product("ABC", repeat=2)]
    assert page.alive == sum(1 for c in codes if score("AB", c) == row[1])
    assert page.refused == "choose a colour for each of the 2 pegs first" and page.secret is None

"""The table of proved Mastermind optima: its sizes, code labels, published values against the engine's proofs
(and a plain exhaustive search written here), and the rows and chart built from them."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import product

import pytest

from solvers.codebreak import Game, Node, build, build_tree, verify
from solvers.codebreak.optima import (
    AUTOMATIC_SECRETS,
    OPTIMA_MAX_SECRETS,
    PUBLISHED,
    Published,
    cell,
    code_label,
    report,
    sizes,
)
from solvers.codebreak.strategy import Stats
from tests import oracle
from tests.unit.test_codebreak import spec


def test_sizes_cover_every_game_up_to_the_limit_smallest_first() -> None:
    """Every pegs x colours (2..6 x 2..9) with at most OPTIMA_MAX_SECRETS secrets, in order of size; the automatic
    share is a prefix."""
    table = sizes()
    expected = {(p, c) for p in range(2, 7) for c in range(2, 10) if c**p <= OPTIMA_MAX_SECRETS}
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
    assert st.verified and st.total == oracle.optimal_total(pegs, colours)


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


def brute_capped_total(pegs: int, colours: int, cap: int) -> int | None:
    """The fewest total guesses over all secrets when every secret must be found within cap guesses, by a plain
    exhaustive search written here (every code at every node, memoised on the set and the guesses left), or None
    when no strategy finds every secret within cap."""
    codes = list(product(range(colours), repeat=pegs))
    score = {(g, s): oracle.score(g, s) for g in codes for s in codes}
    none = 10**9

    @cache
    def cost(alive: frozenset[tuple[int, ...]], left: int) -> int:
        if left == 0:
            return none
        if len(alive) == 1:
            return 1
        best = none
        for g in codes:
            parts = oracle.parts(score, alive, g)
            if parts is None:
                continue
            total = len(alive) + sum(cost(frozenset(p), left - 1) for p in parts.values())
            best = min(best, total)
        return best

    found = cost(frozenset(codes), cap)
    return None if found >= none else found


@pytest.mark.parametrize(("pegs", "colours"), [(2, 3), (3, 2), (2, 4), (4, 2), (3, 3)])
def test_the_optimum_within_a_cap_equals_a_plain_search(pegs: int, colours: int) -> None:
    """The optimal total within at most K guesses, K from one below the least worst case up: the engine's tree
    finds every secret within K, its total equals the plain search's, and below the least worst case the
    engine refuses as the plain search finds nothing."""
    from solvers.errors import InputError

    g = build(spec("mastermind"), {"length": pegs, "colours": colours})
    least = verify(g, build_tree(g, "optimal-worst")).worst
    for cap in range(least - 1, least + 3):
        expected = brute_capped_total(pegs, colours, cap)
        if expected is None:
            with pytest.raises(InputError, match=f"within {cap} guesses"):
                build_tree(g, "optimal-average", max_guesses=cap)
            continue
        st = verify(g, build_tree(g, "optimal-average", max_guesses=cap))
        assert st.verified and st.worst <= cap and st.total == expected, cap


def test_koyama_and_lai_within_five_guesses() -> None:
    """Mastermind 4x6: the optimal total is 5,625 with a worst case of 6, and 5,626 within five guesses (Koyama
    and Lai, J. Recreational Math. 25 (1993): 4.340 on average, 4.341 within five)."""
    g = build(spec("mastermind"))
    capped = verify(g, build_tree(g, "optimal-average", max_guesses=5))
    assert capped.verified and capped.worst <= 5 and capped.total == 5626
    assert verify(g, build_tree(g, "optimal-average", max_guesses=6)).total == 5625


def _sequences(g: Game, tree: Node) -> tuple[list[int], list[int]]:
    """Each secret's guesses on a tree, secrets in order."""
    lengths, guesses = [], []
    for secret in range(len(g.secrets)):
        node, made = tree, []
        while node is not None and node.experiment is not None:
            made.append(node.experiment)
            node = node.children[g.outcome(node.experiment, secret)]
        lengths.append(len(made))
        guesses += made
    return lengths, guesses


def test_a_certificates_sequences_read_back_into_the_strategy() -> None:
    """The sequences of guesses of a tree (Knuth's, Mastermind 3x3), read back (`strategy_of`), give a tree that
    verifies at the total of a plain replay; sequences that are not one strategy are refused: two secrets with the
    same answers so far given different guesses, a sequence that stops before its secret, or too few sequences."""
    import numpy as np

    from solvers.codebreak.sequences import strategy_of
    from solvers.errors import InputError

    g = build(spec("mastermind"), {"length": 3, "colours": 3})
    knuth = build_tree(g, "knuth")
    lengths, guesses = _sequences(g, knuth)
    stats = verify(g, strategy_of(g, np.array(lengths), np.array(guesses)))
    assert stats.verified and stats == verify(g, knuth) and stats.total == sum(lengths)
    forked = list(guesses)
    forked[0] = (forked[0] + 1) % len(g.experiments)  # the first secret's first guess differs from the others'
    with pytest.raises(InputError, match="different guesses"):
        strategy_of(g, np.array(lengths), np.array(forked))
    last = len(lengths) - 1
    short = lengths[:last] + [lengths[last] - 1]
    with pytest.raises(InputError, match="ends before"):
        strategy_of(g, np.array(short), np.array(guesses[:-1]))
    with pytest.raises(InputError, match="cover"):
        strategy_of(g, np.array(lengths[:-1]), np.array(guesses[: -lengths[-1]]))

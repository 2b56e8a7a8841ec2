"""The optimal code-breaking searches (average and worst case): bounds and refutations against plain search,
golden optima, the packing of candidates' bounds, symmetries, and the bound one experiment deeper."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from solvers.codebreak import Proving, build, build_tree, verify
from solvers.codebreak.optimal import counting_bounds
from solvers.codebreak.optimal.average_search import AverageSearch
from solvers.codebreak.optimal.candidates import lookahead, splits
from solvers.codebreak.optimal.symmetry import elements
from solvers.codebreak.optimal.table import Tuning
from solvers.codebreak.optimal.worst_search import WorstSearch
from solvers.errors import LimitError
from tests import oracle
from tests.unit.test_codebreak import spec

SMALL = [(2, 3), (3, 3), (2, 4)]


LARGER = [(4, 3)]  # 246 / 81 guesses, 45 s of one core: make proofs (3x4, 206, is checked by benchmarks/codebreak.py)


@pytest.mark.parametrize(("pegs", "colours"), [*SMALL, *(pytest.param(*pc, marks=pytest.mark.proof) for pc in LARGER)])
def test_optimal_average_small_games(pegs: int, colours: int) -> None:
    """Optimal average on small Mastermind games equals an independent exhaustive search, from the compiled search
    and from the plain-Python one, and no heuristic does better."""
    g = build(spec("mastermind"), {"length": pegs, "colours": colours})
    st = verify(g, build_tree(g, "optimal-average", proving=Proving(compiled=True)))
    assert st.verified and st.total == oracle.optimal_total(pegs, colours)
    assert verify(g, build_tree(g, "optimal-average", proving=Proving(compiled=False))).total == st.total
    for h in ("knuth", "expected", "entropy", "parts"):
        assert verify(g, build_tree(g, h)).total >= st.total


def test_first_guess_classes() -> None:
    """Under colour and position permutations Mastermind 4x6 has five kinds of first guess (AAAA, AAAB, AABB,
    AABC, ABCD); the coin game's weighings differ only by pan size."""
    assert len(set(build(spec("mastermind")).orbit)) == 5
    assert len(set(build(spec("counterfeit-coin"), {"count": 6}).orbit)) == 3


def test_optimal_worst_not_above_knuth() -> None:
    """The optimal worst case never exceeds a heuristic's."""
    g = build(spec("mastermind"), {"length": 3, "colours": 3})
    assert verify(g, build_tree(g, "optimal-worst")).worst <= verify(g, build_tree(g, "knuth")).worst


def test_search_bounds_and_refutations_agree_with_plain_search() -> None:
    """On random sets of secrets of Mastermind 2x3 and 3x3: the compiled search returns the exact cost when it is
    below the budget and otherwise a lower bound that is at least the budget and never above the exact cost (the
    refutations the proof rests on); 'fits within d' is exact; neither the counting bound nor the bound one
    experiment deeper exceeds the cost, and the worst case's counting test one experiment deeper (`splits`) never
    refutes a depth the set fits in."""
    rng = np.random.default_rng(7)
    for game, pegs, colours in (("mastermind", 2, 3), ("mastermind", 3, 3), ("mastermind-black", 3, 3)):
        g = build(spec(game), {"length": pegs, "colours": colours})
        codes, total, depth = oracle.plain_costs(pegs, colours, black_only=game == "mastermind-black")
        average, worst = AverageSearch(g), WorstSearch(g)
        for _ in range(40):
            size = int(rng.integers(1, min(len(codes), 11) + 1))
            chosen = np.sort(rng.choice(len(codes), size=size, replace=False)).astype(np.int32)
            alive = frozenset(codes[i] for i in chosen)
            exact = total(alive)
            assert average.rules.bound[size] <= exact
            deeper = lookahead(chosen, average.rules, average.rules.everything, False)
            assert average.rules.bound[size] <= deeper <= exact  # admissible one deeper
            for beta in (exact - 2, exact, exact + 1, exact + 4):
                v = average.average(chosen, beta)
                assert v == exact if exact < beta else beta <= v <= exact
            for d in range(1, 6):
                assert worst.fits(chosen, d) == (depth(alive) <= d)
                # the one-experiment-deeper counting test never refutes a set that fits
                assert splits(chosen, d, worst.rules) or depth(alive) > d


def test_counting_bound_is_the_2k_minus_1_rule() -> None:
    """With 13 outcomes that leave the game open (Mastermind with 4 pegs) a part of k <= 14 secrets costs at least
    2k - 1 guesses; above that the third guess is needed: 1 + 2 * 13 + 3 * (k - 14)."""
    bound = counting_bounds(200, 13, must_hit=True)
    assert [int(bound[k]) for k in range(1, 15)] == [2 * k - 1 for k in range(1, 15)]
    assert all(int(bound[k]) == 27 + 3 * (k - 14) for k in range(15, 14 + 169 + 1))


@pytest.mark.slow
def test_mastermind_worst_case_is_5_proved() -> None:
    """Knuth (1977): five guesses always suffice and four do not. The search refutes four for every kind of first
    guess (a complete search, no heuristic pruning) and finds a five-guess tree, verified on all 1,296 codes."""
    g = build(spec("mastermind"))
    st = verify(g, build_tree(g, "optimal-worst"))
    assert (st.worst, st.verified) == (5, True)


@pytest.mark.parametrize("worst", [False, True])
def test_candidate_bounds_survive_their_packing(worst: bool) -> None:
    """The first experiments' bounds as the search reads them back from its packed scores equal the bound computed
    plainly (Bulls and Cows: totals above 2^13, where a wider packing would overflow), best first."""
    g = build(spec("bulls-and-cows"))
    search = (WorstSearch if worst else AverageSearch)(g)
    s = np.arange(len(g.secrets), dtype=np.int32)
    rows = search.root_candidates(s, search.root_allowed())
    for bound, e in rows[:: max(1, len(rows) // 20)]:
        sizes = np.bincount(search.rules.table[e], minlength=search.rules.outcomes)
        sizes[search.rules.win] = 0
        plain = sizes.max() if worst else len(s) + int(sum(search.rules.bound[c] for c in sizes if c))
        assert bound == plain
    assert list(rows[:, 0]) == sorted(rows[:, 0])


@pytest.mark.parametrize(
    ("name", "sizes"),
    [
        ("mastermind", {"length": 3, "colours": 4}),
        ("mastermind", {"length": 4, "colours": 3}),
        ("bulls-and-cows", {"length": 2, "colours": 5}),
    ],
)
def test_the_deeper_bound_changes_no_optimum(name: str, sizes: dict[str, int]) -> None:
    """The bound one experiment deeper on each open part (`lookahead`) only prunes: with it and without it the
    optimal total and worst case are the same."""
    g = build(spec(name), sizes)
    for worst in (False, True):
        assert (WorstSearch if worst else AverageSearch)(g).solve().cost == (WorstSearch if worst else AverageSearch)(
            g, Tuning(lookahead=False)
        ).solve().cost


@pytest.mark.slow
def test_mastermind_optimal_average_is_5625_proved() -> None:
    """Koyama and Lai (1993): the least total over the 1,296 codes is 5,625 (average 4.3403), found by the complete
    search and its tree verified on every code. The optimal-average tree needs six guesses for some code (it
    trades the worst case for the average, as Koyama and Lai's does)."""
    g = build(spec("mastermind"))
    st = verify(g, build_tree(g, "optimal-average"))
    assert (st.total, st.verified, st.worst) == (5625, True, 6)


@pytest.mark.proof  # about half a minute on two cores: make proofs
def test_mastermind_4x7_optimal_average_is_11228_proved() -> None:
    """Ville (2013), "An optimal Mastermind (4,7) strategy and more results in the expected case": the least total
    over the 2,401 codes of 4 pegs and 7 colours is 11,228 (average 4.6764). The complete search proves it (its
    first guesses spread over the cores) and the tree is verified on every code."""
    g = build(spec("mastermind"), {"length": 4, "colours": 7})
    st = verify(g, build_tree(g, "optimal-average"))
    assert (st.total, st.verified) == (11228, True)


def test_symmetries_keep_every_score_and_fix_the_guess() -> None:
    """Each colour-and-position permutation the search uses below the start is a permutation of the codes that
    keeps every score (checked on the whole outcome table) and fixes the guess made; the identity is among them."""
    for game, sizes in (("mastermind", {"length": 3, "colours": 3}), ("bulls-and-cows", {"length": 3, "colours": 5})):
        g = build(spec(game), sizes)
        search = AverageSearch(g.tabled())
        for guess in (0, len(g.secrets) // 2, len(g.secrets) - 1):
            rows = elements(search.first_symmetries(guess))
            assert len(rows) >= 1 and any((r == np.arange(len(g.secrets))).all() for r in rows)
            for r in rows:
                assert sorted(r) == list(range(len(g.secrets))) and r[guess] == guess
                assert (g.table[np.ix_(r, r)] == g.table).all()
    assert len(elements(AverageSearch(build(spec("counterfeit-coin"), {"count": 4})).first_symmetries(0))) == 0


def test_the_search_stops_at_its_budget_with_a_clear_refusal() -> None:
    """Past its work budget the search raises LimitError (a 4xx in the app, exit status 2 in the CLI), never a
    wrong answer."""
    g = build(spec("mastermind"), {"length": 3, "colours": 4})
    for worst in (False, True):
        with pytest.raises(LimitError, match="budget"):
            (WorstSearch if worst else AverageSearch)(g, Tuning(node_limit=20)).solve()


@pytest.mark.proof  # half a minute: make proofs
def test_bulls_and_cows_worst_case_is_7_proved() -> None:
    """Bulls and Cows (4 different digits of 10, 5,040 secrets): seven guesses suffice and six do not, as
    published (see Wikipedia's 'Bulls and Cows' and the literature it cites; Tanaka 1996 for the average). The
    complete search refutes five and six (with the 17,280 permutations that fix the first guess) and finds a
    seven-guess tree, verified on every secret."""
    g = build(spec("bulls-and-cows"))
    st = verify(g, build_tree(g, "optimal-worst"))
    assert (st.worst, st.verified) == (7, True)


@pytest.mark.proof
def test_bulls_and_cows_optimal_average_is_26274_proved() -> None:
    """Tanaka (1996): the least total over Bulls and Cows' 5,040 secrets is 26,274 (average 5.2131). The complete
    search (no heuristic pruning; every open part bounded one experiment deeper) proves it and its tree is verified
    on every secret. About 7 minutes on one core: run by `make proofs`, not by `make test`."""
    g = build(spec("bulls-and-cows"))
    st = verify(g, build_tree(g, "optimal-average"))
    assert (st.total, st.verified) == (26274, True)


@pytest.mark.parametrize(("pegs", "colours"), [(4, 4), (3, 5)])
def test_the_bound_one_deeper_tries_one_experiment_per_class(pegs: int, colours: int) -> None:
    """After each first guess, every part it leaves is mapped onto itself by the symmetries fixing the guess: the
    bound one experiment deeper over one experiment per class of those symmetries (`representatives`) equals the
    bound over every experiment, and fewer experiments are tried."""
    from solvers.codebreak.optimal.candidates import representatives

    g = build(spec("mastermind"), {"length": pegs, "colours": colours})
    search = AverageSearch(g)
    everything = search.rules.everything
    secrets = np.arange(len(g.secrets), dtype=np.int32)
    for first in sorted(set(g.orbit)):
        e = g.orbit.index(first)
        reps = representatives(search.first_symmetries(e), everything)
        if len(set(g.experiments[e])) < colours:
            assert reps.sum() < len(everything)
        outcomes = search.rules.table[e]
        for o in np.unique(outcomes):
            part = secrets[outcomes == o]
            if len(part) > 2:
                assert lookahead(part, search.rules, reps, False) == lookahead(part, search.rules, everything, False)


@pytest.mark.parametrize(
    ("name", "sizes"),
    [
        ("mastermind", {"length": 4, "colours": 4}),
        ("bulls-and-cows", {"length": 2, "colours": 6}),
        ("counterfeit-coin", {"count": 4}),  # know the secret: no part is won
    ],
)
def test_the_deeper_bound_read_by_columns_equals_the_bound_read_by_rows(
    name: str, sizes: dict[str, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Games of 1,000 experiments or more count the parts one experiment deeper secret by secret along the table's
    columns (`rules.columns`): on random sets, and on every part of every first experiment, it gives the bound the
    row-by-row loop gives; a proof with it finds the optimum the proof without it finds."""
    from solvers.codebreak.optimal import table as table_module

    g = build(spec(name), sizes)
    rows = AverageSearch(g)
    monkeypatch.setattr(table_module, "COLUMNS_FROM", 1)
    columns = AverageSearch(g)
    assert rows.rules.columns.shape[0] == 0 and columns.rules.columns.shape == rows.rules.table.T.shape
    everything = rows.rules.everything
    n = len(g.secrets)
    rng = np.random.default_rng(3)
    sets = [np.sort(rng.choice(n, size=int(rng.integers(1, n + 1)), replace=False)).astype(np.int32) for _ in range(60)]
    secrets = np.arange(n, dtype=np.int32)
    for e in range(0, rows.rules.table.shape[0], 7):
        outcomes = rows.rules.table[e]
        sets += [secrets[outcomes == o] for o in np.unique(outcomes)]
    for s in sets:
        assert lookahead(s, columns.rules, everything, False) == lookahead(s, rows.rules, everything, False)
    assert columns.solve().cost == rows.solve().cost


@pytest.mark.parametrize("branches", [1, 2, 3, 5, 13])
def test_no_experiment_outside_a_set_beats_apart(branches: int) -> None:
    """`rules.apart[k]`, the least k secrets plus their parts' counting bounds can be when the experiment is not one of
    them, equals the least over every way of splitting k secrets into at most `branches` parts, enumerated."""
    from solvers.codebreak.optimal.rules import apart

    bound = counting_bounds(30, branches, True)

    @cache
    def least(k: int, parts: int) -> int:  # the least sum of bounds of k secrets in at most `parts` parts
        if k == 0:
            return 0
        if parts == 0:
            return 10**9
        return min(int(bound[c]) + least(k - c, parts - 1) for c in range(1, k + 1))

    assert [int(v) for v in apart(bound, branches)] == [k + least(k, branches) for k in range(31)]

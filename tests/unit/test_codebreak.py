"""The code-breaking engine: scoring against a plain reference, golden values, verified trees, parser errors."""

from __future__ import annotations

import copy
import math
import random
import re
from collections import Counter
from itertools import product
from pathlib import Path

import numpy as np
import pytest

from solvers.codebreak import Stats, build, build_tree, parse, to_dot, to_json, verify
from solvers.codebreak.coins import shapes
from solvers.codebreak.game import Game
from solvers.codebreak.strategy import guesses_possible_codes, play
from solvers.codebreak.tree import Node
from solvers.errors import InputError, LimitError
from solvers.weighing import Problem, min_weighings
from tests import oracle

GAMES = Path(__file__).resolve().parents[2] / "games"


def spec(name: str):  # type: ignore[no-untyped-def]
    """A shipped game's spec."""
    return parse((GAMES / f"{name}.game").read_text())


@pytest.mark.slow
@pytest.mark.parametrize(("colours", "every"), [(5, 1), (6, 5)])
def test_scoring_matches_reference_exhaustively(colours: int, every: int) -> None:
    """Every guess against every secret of Mastermind 4x5, and every fifth guess against every secret of 4x6,
    scores as the plain reference says."""
    g = build(spec("mastermind"), {"length": 4, "colours": colours})
    codes = list(product(range(colours), repeat=4))
    for e, guess in list(enumerate(codes))[::every]:
        for s, secret in enumerate(codes):
            b, w = oracle.score(guess, secret)
            assert g.table[e, s] == b * 5 + w


def test_knuth_5801() -> None:
    """Knuth (1976/77), 'The computer as master mind': worst 5, 5801 guesses over the 1,296 codes."""
    g = build(spec("mastermind"))
    st = verify(g, build_tree(g, "knuth"))
    assert (st.worst, st.total, st.verified) == (5, 5801, True)


def reference_heuristic_total(pegs: int, colours: int, strategy: str) -> int:
    """Total guesses of a one-step look-ahead strategy, by a plain implementation written here: at each node
    every code is scored by `oracle.score`; knuth minimises the largest part, expected the sum of squared
    part sizes, parts maximises the number of parts, entropy minimises sum k log2 k (the most information);
    ties go to a code that may be the secret, then to the first in order."""
    codes = list(product(range(colours), repeat=pegs))
    score = [[oracle.score(g, s) for s in codes] for g in codes]

    def key(sizes: list[int]) -> float:
        if strategy == "knuth":
            return max(sizes)
        if strategy == "expected":
            return sum(k * k for k in sizes)
        if strategy == "parts":
            return -len(sizes)
        return sum(k * math.log2(k) for k in sizes)

    def total(alive: list[int], depth: int) -> int:
        if len(alive) == 1:
            return depth + 1
        possible = set(alive)
        best: tuple[float, int, bool] | None = None
        for g in range(len(codes)):
            k = key(list(Counter(score[g][s] for s in alive).values()))
            if best is None or k < best[0] - 1e-9:
                best = (k, g, g in possible)
            elif abs(k - best[0]) <= 1e-9 and not best[2] and g in possible:
                best = (k, g, True)
        assert best is not None
        parts: dict[tuple[int, int], list[int]] = {}
        for s in alive:
            parts.setdefault(score[best[1]][s], []).append(s)
        return sum(depth + 1 if o == (pegs, 0) else total(part, depth + 1) for o, part in parts.items())

    return total(list(range(len(codes))), 0)


@pytest.mark.parametrize("untabled", [False, True])
@pytest.mark.parametrize("strategy", ["knuth", "expected", "entropy", "parts"])
def test_heuristics_match_a_plain_reference_on_4x4(strategy: str, untabled: bool) -> None:
    """Each heuristic's tree for Mastermind 4x4 has the total that the plain reference gives, whether the game
    holds an outcome table or scores on demand as the largest games do."""
    g = build(spec("mastermind"), {"length": 4, "colours": 4}, untabled=untabled)
    assert (g.table is None) == untabled
    st = verify(g, build_tree(g, strategy))  # type: ignore[arg-type]
    assert st.verified and st.total == reference_heuristic_total(4, 4, strategy)


def reference_outcome(game: str, guess: tuple[int, ...], secret: tuple[int, ...]) -> int:
    """A game's outcome number from the plain reference score (black * (pegs + 1) + white, or black alone)."""
    b, w = oracle.score(guess, secret)
    return b if game == "mastermind-black" else b * (len(guess) + 1) + w


@pytest.mark.parametrize(
    ("game", "sizes"),
    [
        ("mastermind", {"length": 3, "colours": 5}),
        ("mastermind-black", {"length": 4, "colours": 3}),
        ("bulls-and-cows", {"length": 3, "colours": 6}),
    ],
)
def test_scoring_on_demand_matches_the_reference_exhaustively(game: str, sizes: dict[str, int]) -> None:
    """A game scored on demand (packed codes, colour-count classes) gives the plain reference's outcome for every
    guess and secret, one row at a time and as per-outcome counts."""
    g = build(spec(game), sizes, untabled=True)
    codes = [tuple("ABCDEFGHIJ".index(ch) for ch in label) for label in g.secrets]
    alive = np.arange(len(codes))
    counts = g.tallies(alive)
    for e, guess in enumerate(codes):
        expected = [reference_outcome(game, guess, secret) for secret in codes]
        assert g.outcomes(e, alive).tolist() == expected
        assert counts[e].tolist() == [expected.count(o) for o in range(len(g.outcome_names))]


def test_super_mastermind_is_scored_on_demand() -> None:
    """Super Mastermind's 32,768 codes get no outcome table (it would be 1 GiB): 3,000 random pairs score as the
    reference says, the optimal searches are refused with a clear limit, and larger games are refused."""
    g = build(spec("super-mastermind"))
    assert len(g.secrets) == 8**5 and g.table is None and g.codes is not None
    rng = np.random.default_rng(5)
    for e, s in rng.integers(0, len(g.secrets), size=(3000, 2)):
        guess, secret = (tuple("ABCDEFGH".index(ch) for ch in g.secrets[x]) for x in (e, s))
        assert g.outcome(int(e), int(s)) == reference_outcome("mastermind", guess, secret)
    with pytest.raises(LimitError):
        g.dense()
    with pytest.raises(LimitError):
        build_tree(g, "optimal-average")
    with pytest.raises(LimitError):
        build(spec("mastermind"), {"length": 6, "colours": 6})


@pytest.mark.proof  # half a minute of plain Python: make proofs
@pytest.mark.parametrize("strategy", ["expected", "entropy", "parts"])
def test_heuristics_match_a_plain_reference_on_4x6(strategy: str) -> None:
    """Mastermind 4x6 with Knuth's tie-break: the totals (5696 expected, 5722 entropy, 5668 parts in
    docs/puzzles/codebreak.md) are what the plain reference gives. Published figures for these heuristics depend
    on the tie-break, so the check is the reference, not a paper; Knuth's 5801 above is the literature check."""
    g = build(spec("mastermind"))
    st = verify(g, build_tree(g, strategy))  # type: ignore[arg-type]
    assert st.verified and st.total == reference_heuristic_total(4, 6, strategy)
    assert st.total == {"expected": 5696, "entropy": 5722, "parts": 5668}[strategy]


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_counterfeit_coin_agrees_with_the_weighing_solver(n: int) -> None:
    """The coin game through this engine needs as many weighings as the dedicated solver says."""
    g = build(spec("counterfeit-coin"), {"count": n})
    st = verify(g, build_tree(g, "optimal-worst"))
    assert st.verified and st.worst == min_weighings(Problem(n)).weighings


def test_black_pegs_and_bulls_and_cows_build() -> None:
    """The other shipped games build and their Knuth trees verify (Bulls and Cows on 3 digits)."""
    g = build(spec("mastermind-black"), {"length": 3, "colours": 4})
    assert verify(g, build_tree(g, "knuth")).verified
    bc = build(spec("bulls-and-cows"), {"length": 3})
    assert len(bc.secrets) == 720 and verify(bc, build_tree(bc, "knuth")).verified


@pytest.mark.parametrize("untabled", [False, True])
def test_verifier_catches_a_broken_tree(untabled: bool) -> None:
    """A tree whose first guess is changed, or whose leaf names another secret, no longer verifies; verification
    agrees with playing each secret alone."""
    g = build(spec("mastermind"), {"length": 2, "colours": 3}, untabled=untabled)
    tree = build_tree(g, "knuth")
    depths = [play(g, tree, s) for s in range(len(g.secrets))]
    assert verify(g, tree) == Stats(max(d or 0 for d in depths), sum(d or 0 for d in depths), 9, True)
    tree.experiment = (tree.experiment or 0) + 1
    assert not verify(g, tree).verified
    k = build(spec("counterfeit-coin"), {"count": 4})
    plan = build_tree(k, "knuth")
    leaf = plan
    while leaf.experiment is not None:
        leaf = next(c for c in leaf.children.values() if c is not None)
    leaf.solved = (leaf.solved or 0) + 1
    assert not verify(k, plan).verified


def _possible_by_paths(g: Game, tree: Node, from_depth: int) -> bool:
    """Whether each experiment from the from_depth-th on is a code still possible, secret by secret: on each
    secret's path, the experiment scores against every earlier guess as the secret does."""
    for secret in range(len(g.secrets)):
        node: Node | None = tree
        path: list[int] = []
        while node is not None and node.experiment is not None:
            e = node.experiment
            if len(path) >= from_depth and any(g.outcome(x, e) != g.outcome(x, secret) for x in path):
                return False
            path.append(e)
            node = node.children.get(g.outcome(e, secret))
    return True


@pytest.mark.parametrize("untabled", [False, True])
@pytest.mark.parametrize(
    "name, sizes", [("mastermind", {"length": 2, "colours": 4}), ("counterfeit-coin", {"count": 4})]
)
def test_verify_agrees_with_each_secret_played_alone_on_broken_trees(
    name: str, sizes: dict[str, int], untabled: bool
) -> None:
    """Trees broken at random (a guess changed, an outcome's branch removed or ended, a leaf renamed): `verify`
    and `guesses_possible_codes` give what playing each secret alone gives (`play`, and a check along each
    secret's path)."""
    g = build(spec(name), sizes, untabled=untabled and name == "mastermind")
    rng = random.Random(7)
    for _ in range(150):
        tree = copy.deepcopy(build_tree(g, rng.choice(["knuth", "entropy", "optimal-average"])))
        nodes, stack = [], [tree]
        while stack:
            nodes.append(stack.pop())
            stack += [c for c in nodes[-1].children.values() if c is not None]
        for node in rng.sample(nodes, rng.randrange(3)):
            way = rng.randrange(4)
            if node.experiment is None:
                node.solved = rng.randrange(len(g.secrets))
            elif way == 0:
                node.experiment = rng.randrange(len(g.experiments))
            elif node.children:
                o = rng.choice(list(node.children))
                del node.children[o]
                if way == 2:
                    node.children[o] = None
        depths = [play(g, tree, s) for s in range(len(g.secrets))]
        stats = verify(g, tree)
        assert stats.verified == (None not in depths)
        if stats.verified:
            assert (stats.worst, stats.total) == (max(d or 0 for d in depths), sum(d or 0 for d in depths))
        if g.must_hit:
            for depth in (0, 1, 2):
                assert guesses_possible_codes(g, tree, depth) == _possible_by_paths(g, tree, depth)
            assert verify(g, tree, True).verified == (stats.verified and _possible_by_paths(g, tree, 0))


def test_tree_exports() -> None:
    """JSON and DOT exports name the experiments and outcomes."""
    g = build(spec("mastermind"), {"length": 2, "colours": 3})
    tree = build_tree(g, "knuth")
    data = to_json(g, tree)
    assert data["experiment"] == "AA" and "outcomes" in data
    assert to_dot(g, tree).startswith("digraph strategy {")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name: x\n", "missing"),
        ("name x\n", "line 1"),
        ("name: a\nname: b\n", "twice"),
        ("name: a\nsecrets: dice\nexperiments: dice\noutcome: black\nfinish: know-the-secret\n", "sequences"),
        ("name: a\nsecrets: sequences length=4\nexperiments: sequences\noutcome: colour\nfinish: x\n", "outcome"),
        ("name: a\nfoo: 1\n", "unknown key"),
    ],
)
def test_parser_errors(text: str, message: str) -> None:
    """Malformed game files give clear errors."""
    with pytest.raises(InputError, match=message):
        parse(text)


def test_out_of_range_parameters() -> None:
    """Sizes out of range are refused."""
    with pytest.raises(InputError):
        build(spec("mastermind"), {"length": 9})
    with pytest.raises(InputError):
        build(spec("mastermind"), {"colours": 1})
    assert np.all(build(spec("mastermind"), {"length": 1, "colours": 2}).table >= 0)


@pytest.mark.parametrize("n", [3, 9, 12, 13, 14, 27, 40])
def test_counterfeit_coin_beyond_listing_agrees_with_the_weighing_solver(n: int) -> None:
    """Above 8 coins the engine generates weighings up to coin permutations: its proved worst case equals the
    dedicated solver's (12 coins: 3, 13: 4, 40: 5; Dyson 1946), and the tree is verified on every secret."""
    g = build(spec("counterfeit-coin"), {"count": n})
    st = verify(g, build_tree(g, "optimal-worst"))
    assert st.verified and st.worst == min_weighings(Problem(n)).weighings
    assert n <= 8 or len(g.experiments) < 3 * n  # the tree's weighings only, never every subset


def test_generated_weighings_are_one_per_class_shape() -> None:
    """At the start of 12 coins all coins are alike: one weighing per pan size (k against k, k = 1..6); with
    classes, counts per class on each pan, mirror images once, genuine coins only to balance."""
    assert sorted(s[0] for s in shapes((12, 0, 0, 0))) == [1, 2, 3, 4, 5, 6]
    for sizes in ((2, 1, 1, 3), (0, 3, 2, 1)):
        seen = set()
        for s in shapes(sizes):
            assert s[0] + s[1] + s[2] + s[3] == s[4] + s[5] + s[6] + s[7] >= 1 and min(s[3], s[7]) == 0
            assert all(s[k] + s[4 + k] <= sizes[k] for k in range(4)) and s[4:] + s[:4] not in seen
            seen.add(s)
    with pytest.raises(InputError):
        build(spec("counterfeit-coin"), {"count": 41})


def test_beyond_listing_only_the_optimal_worst_case() -> None:
    """Heuristics need every weighing listed: above 8 coins they are refused with a clear message."""
    g = build(spec("counterfeit-coin"), {"count": 12})
    with pytest.raises(LimitError, match="coin permutations"):
        build_tree(g, "knuth")


def _small_sizes(spec_kind: str) -> list[dict[str, int]]:
    """Every size of a shipped game the engine accepts, up to 300 secrets (sequences) or 12 coins."""
    if spec_kind == "coins":
        return [{"count": n} for n in range(1, 13)]
    return [{"length": p, "colours": c} for p in range(1, 5) for c in range(2, 11) if c**p <= 300]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["mastermind", "mastermind-black", "bulls-and-cows", "counterfeit-coin"])
def test_every_small_size_has_a_strategy_or_a_reason(name: str) -> None:
    """For every size accepted up to a small bound and every strategy the site offers there (the heuristics
    always, the optimal searches up to 30 secrets), the engine either returns a verified tree or refuses with a
    PuzzleError saying why; no other exception escapes (two coins of unknown weight once died of recursion)."""
    from solvers.codebreak import HEURISTICS
    from solvers.codebreak.strategy import OPTIMAL
    from solvers.errors import PuzzleError

    spec = parse((GAMES / f"{name}.game").read_text())
    outcomes: Counter[str] = Counter()
    for sizes in _small_sizes(spec.secrets[0]):
        try:
            g = build(spec, sizes)
        except PuzzleError as e:
            assert e.message, sizes
            outcomes["refused"] += 1
            continue
        for strategy in (*HEURISTICS, *(OPTIMAL if len(g.secrets) <= 30 else ())):
            try:
                tree = build_tree(g, strategy)
            except PuzzleError as e:
                assert e.message, (sizes, strategy)
                outcomes["refused"] += 1
                continue
            assert verify(g, tree).verified, (sizes, strategy)
            outcomes["solved"] += 1
    assert outcomes["solved"] > 0


@pytest.mark.parametrize(("coins", "pair"), [(1, "1+ and 1-"), (2, "1- and 2+")])
def test_coins_that_cannot_be_told_apart_are_refused(coins: int, pair: str) -> None:
    """One or two coins of unknown weight, no genuine coin: with one coin nothing can be weighed; with two the only
    weighing, 1 against 2, tips the same way for 1 lighter and 2 heavier. The engine refuses, naming the pair."""
    spec = parse((GAMES / "counterfeit-coin.game").read_text())
    tips = {(c, heavy): (1 if heavy else -1) * (1 if c == 1 else -1) for c in (1, 2) for heavy in (True, False)}
    assert coins == 1 or tips[(1, False)] == tips[(2, True)]  # the brute force: the left pan reads the same
    with pytest.raises(InputError, match=f"the secrets {re.escape(pair)} give the same outcome for every weighing"):
        build(spec, {"count": coins})

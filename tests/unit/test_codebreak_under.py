"""A search told to look below a total (`AverageSearch(under=)`): a reachable total plus one, or a published figure plus
one, cuts first experiments off from the start. It proves the optimum when it lies below, the same optimum with a
tree that verifies; and when none lies below it says so (`NoneBelow`) instead of returning a worse tree."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from solvers.codebreak import Proving, build, build_tree, parse, verify
from solvers.codebreak.game import Game
from solvers.codebreak.optimal import average_search as search_module
from solvers.codebreak.optimal.average_search import AverageSearch, NoneBelow
from solvers.codebreak.optimal.readback import read_back
from solvers.codebreak.strategy import guesses_possible_codes
from solvers.parallel import Execution

GAMES = Path(__file__).resolve().parents[2] / "games"


def mastermind(pegs: int, colours: int) -> Game:
    return build(parse((GAMES / "mastermind.game").read_text()), {"length": pegs, "colours": colours})


@pytest.mark.parametrize("jobs", [1, 2])
def test_below_one_more_than_the_optimum_the_search_proves_it(jobs: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Mastermind 4x4: 905 (Goddard 2004). Told to look below 906 the search proves 905, with no more work than
    without the bound on one process, and its tree verifies; below 905 it proves that none exists."""
    monkeypatch.setattr(search_module, "PARALLEL_FROM", 100)  # the forked workers on a small game
    g = mastermind(4, 4)
    free = AverageSearch(g, run=Execution(jobs)).solve()
    bounded = AverageSearch(g, run=Execution(jobs), under=906)
    found = bounded.solve()
    assert found.cost == free.cost == 905
    assert jobs > 1 or found.work <= free.work  # two processes' work depends on when each learns the other's best
    s = np.arange(len(g.secrets), dtype=np.int32)
    st = verify(g, read_back(g, bounded, s, found.cost, False, bounded.root_choice))
    assert st.verified and st.total == 905
    with pytest.raises(NoneBelow, match="fewer than 905"):
        AverageSearch(g, run=Execution(jobs), under=905).solve()


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_published_possible_only_optimum_reproduced_below_itself_plus_one(
    jobs: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Guessing possible codes only, Mastermind 4x6: 5,660 (supermastermind.github.io), as the Super Mastermind
    proof is run below its published figure plus one: proved, and none below 5,660."""
    monkeypatch.setattr(search_module, "PARALLEL_FROM", 100)
    g = mastermind(4, 6)
    bounded = AverageSearch(g, run=Execution(jobs), possible_only=True, under=5661)
    found = bounded.solve()
    assert found.cost == 5660
    s = np.arange(len(g.secrets), dtype=np.int32)
    tree = read_back(g, bounded, s, found.cost, False, bounded.root_choice)
    st = verify(g, tree)
    assert st.verified and st.total == 5660 and guesses_possible_codes(g, tree)
    with pytest.raises(NoneBelow):
        AverageSearch(g, run=Execution(jobs), possible_only=True, under=5660).solve()


def test_the_worst_case_ignores_it() -> None:
    """The bound is on totals: the worst-case tree, verified, is as deep with it as without it."""
    g = mastermind(3, 3)
    free = verify(g, build_tree(g, "optimal-worst", proving=Proving(compiled=True)))
    bounded = verify(g, build_tree(g, "optimal-worst", proving=Proving(compiled=True, under=1)))
    assert free.verified and bounded.verified and bounded.worst == free.worst


def test_build_tree_passes_it_to_the_compiled_search() -> None:
    """build_tree(under=): the tree of 4x4's optimum (905, Goddard 2004) below 906, verified; NoneBelow below 905,
    even for a game the plain-Python search would otherwise take."""
    g = mastermind(4, 4)
    st = verify(g, build_tree(g, "optimal-average", proving=Proving(under=906)))
    assert st.verified and st.total == 905
    with pytest.raises(NoneBelow):
        build_tree(g, "optimal-average", proving=Proving(under=905))


def test_an_operators_long_proof_is_searched_past_the_sites_sizes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The site refuses an optimal search past its sizes; an operator's long proof (`Proving.any_size`, as
    make frontier runs it) searches it, with the same optimum as without the limit (Mastermind 4x4:
    905, Goddard 2004)."""
    from solvers.codebreak import strategy as strategy_module
    from solvers.errors import LimitError

    g = build(parse((GAMES / "mastermind.game").read_text()), {"length": 4, "colours": 4})
    monkeypatch.setattr(strategy_module, "OPTIMAL_MAX_SECRETS", 100)
    with pytest.raises(LimitError, match="limited to games of 100 secrets"):
        build_tree(g, "optimal-average")
    stats = verify(g, build_tree(g, "optimal-average", proving=Proving(any_size=True)))
    assert stats.verified and stats.total == 905

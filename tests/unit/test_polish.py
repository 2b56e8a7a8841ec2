"""Improving a heuristic tree by optimal search below it (`solvers.codebreak.polish`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from solvers.codebreak import build, build_tree, parse, verify
from solvers.codebreak.optimal.average_search import AverageSearch
from solvers.codebreak.polish import from_nested, frontier, graft, improve, nested

GAMES = Path(__file__).resolve().parents[2] / "games"


def polished(pegs: int, colours: int, most: int) -> tuple[int, int, int]:
    """Knuth's tree of Mastermind pegs x colours before and after polishing at most `most` secrets, and the
    frontier's size."""
    g = build(parse((GAMES / "mastermind.game").read_text()), {"length": pegs, "colours": colours})
    tree = build_tree(g, "knuth")
    before = verify(g, tree).total
    search = AverageSearch(g)
    nodes = frontier(g, tree, most)
    for node in nodes:
        assert all(a.path[: len(node.path)] != node.path for a in nodes if a is not node)  # largest nodes only
        total, subtree = improve(g, search, node)
        assert total <= node.cost
        if subtree is not None:
            graft(tree, node.path, from_nested(g, nested(subtree)))
    st = verify(g, tree)
    assert st.verified
    return before, st.total, len(nodes)


@pytest.mark.parametrize(("pegs", "colours"), [(3, 4), (4, 4)])
def test_polishing_below_the_top_lies_between_the_tree_and_the_optimum(pegs: int, colours: int) -> None:
    """Smaller frontiers give a verified tree no worse than the heuristic's and no better than the optimum
    (Goddard 2004: 3x4 206, 4x4 905), a larger frontier no worse than a smaller one, and the root alone (the
    whole game searched) the optimum."""
    optimum = {(3, 4): 206, (4, 4): 905}[(pegs, colours)]
    last = None
    for most in (4, 16, 64, colours**pegs):
        before, after, count = polished(pegs, colours, most)
        assert optimum <= after <= before and count >= 1
        assert last is None or after <= last
        last = after
    assert last == optimum


@pytest.mark.parametrize(("pegs", "colours"), [(3, 4), (4, 4), (4, 5)])
def test_the_bound_two_experiments_deep_is_below_each_first_guesses_optimum(pegs: int, colours: int) -> None:
    """For every first guess, the bound is at most the optimal total with that guess first (the search's own,
    with the symmetries fixing it), and their least at most the game's optimum (Goddard 2004: 206, 905, 2,463)."""
    from solvers.codebreak.polish import bound_two_deep

    g = build(parse((GAMES / "mastermind.game").read_text()), {"length": pegs, "colours": colours})
    search = AverageSearch(g)
    bounds = bound_two_deep(g, search)
    assert len(bounds) == len(set(g.orbit))
    s = np.arange(len(g.secrets), dtype=np.int32)
    for e, low in bounds.items():
        assert len(g.secrets) < low <= search.with_first(s, (), e)
    assert min(bounds.values()) <= {(3, 4): 206, (4, 4): 905, (4, 5): 2463}[(pegs, colours)]

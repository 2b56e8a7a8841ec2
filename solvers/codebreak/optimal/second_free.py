"""The optimal average when every guess must be a code still possible except the second, which may be any code: the
rule under which the supermastermind site gives 179,274 for Super Mastermind 5x8 and 5,636 for Mastermind 4x6 (as
issue 66 quotes it), between the possible-codes-only optimum (179,929; 4x6: 5,660) and the unrestricted one (4x6:
5,625).

Every first guess (one per symmetry class, all codes being possible at the start), each of its parts then settled
by the least over every code as the second guess (one per class of the symmetries fixing the first guess) of the
possible-codes-only search below it: `AverageSearch.least` with the second guesses' candidates drawn from every
code, the one loop over a set's experiments. A first guess stops as soon as its parts' costs and the others'
counting bounds reach the best total found. The tree is read back from the search's table and verified against
every secret, its guesses from the third on checked to be possible codes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from solvers.checkpoint import Checkpoint

from ..game import Game
from ..strategy import Stats, guesses_possible_codes, read_back, verify
from ..tree import Node
from .average_search import AverageSearch
from .candidates import candidates
from .rules import BIG, UNCAPPED, Rules
from .table import Tuning

Settled = Callable[[int, int, int, int], None]  # (first guess, secrets of a part, its cost or bound, its second guess)


class SecondFree(NamedTuple):
    """The optimum under the rule, its first guess, and its tree's statistics (verified)."""

    total: int
    first: int
    stats: Stats
    tree: Node


def second_free(
    game: Game,
    tuning: Tuning | None = None,
    told: Callable[[int, int], None] = lambda i, n: None,
    checkpoint: Checkpoint | None = None,
    settled: Settled = lambda g1, size, cost, g2: None,
) -> SecondFree:
    """The least total over every secret with possible codes only from the third guess on, proved; told(i, n) after
    the i-th of the n first guesses, settled(g1, secrets, cost, g2) after each part of first guess g1 (g2 -1: no
    second guess below the part's budget, cost a bound). checkpoint: where the possible-only sets proved below the
    second guesses are kept, and read back from (the possible-codes-only proof's own: the sets are the same)."""
    search = AverageSearch(game, tuning, possible_only=True, checkpoint=checkpoint)
    free = search.rules._replace(possible_only=False)  # the second guess: any code
    s = search.everyone()
    firsts = search.root_candidates(s, search.root_allowed())
    best, choice = int(BIG), -1
    seconds: dict[int, tuple[int, int]] = {}
    for i, (_, g1) in enumerate(firsts):
        total, chosen = _first(search, free, s, int(g1), best, settled)
        if total < best:
            best, choice, seconds = total, int(g1), chosen
        told(i + 1, len(firsts))
    tree = _tree(game, search, s, choice, seconds)
    stats = verify(game, tree)
    assert stats.verified and stats.total == best, "the tree read back does not reach the proved total"
    assert guesses_possible_codes(game, tree, from_depth=2), "a guess after the second is not a possible code"
    return SecondFree(best, choice, stats, tree)


def _first(
    search: AverageSearch, free: Rules, s: NDArray[np.int32], g1: int, best: int, settled: Settled
) -> tuple[int, dict[int, tuple[int, int]]]:
    """First guess g1's total (or a bound at least best) and, per outcome, (its part's cost, its second guess)."""
    rules = search.rules
    outcomes = rules.table[g1, s]
    parts = [(int(o), s[outcomes == o]) for o in np.unique(outcomes) if not (rules.must_hit and o == rules.win)]
    parts.sort(key=lambda op: -len(op[1]))  # largest first: the bound tightens soonest
    total = len(s) + sum(int(rules.bound[len(p)]) for _, p in parts)
    sym = search.sym_of((g1,))
    chosen: dict[int, tuple[int, int]] = {}
    for o, part in parts:
        if total >= best:
            return total, chosen
        low = int(rules.bound[len(part)])
        cands = candidates(part, rules.everything, free, False, sym)
        cost, g2 = search.least(part, (g1,), cands, best - (total - low), entry=False)  # the table's entry for
        # the part (a possible-only proof's, as a snapshot holds it) is its cost under another rule
        settled(g1, len(part), cost, g2)
        if g2 < 0:
            return max(total - low + cost, best), chosen
        chosen[o] = (cost, g2)
        total += cost - low
    return total, chosen


def _tree(
    game: Game, search: AverageSearch, s: NDArray[np.int32], g1: int, seconds: dict[int, tuple[int, int]]
) -> Node:
    """The tree: g1, then each part's second guess and the possible-codes-only tree below it (`read_back`)."""
    root = Node(g1, len(s))
    outcomes = game.outcomes(g1, s)
    for o in np.unique(outcomes).tolist():
        part = s[outcomes == o]
        if game.must_hit and o == game.win_outcome:
            root.children[o] = None
            continue
        cost, g2 = seconds[o]
        root.children[o] = read_back(game, search, part.astype(np.int32), cost, False, g2, UNCAPPED)
    return root

"""An optimal tree read back from a search's table (`read_back`): what the average, worst-case and plain searches
prove, as a strategy, without searching again (but for a set crowded out of the table); a node's children grown
outcome by outcome (`expand`, the heuristics' trees' too)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
from numpy.typing import NDArray

from ..tree import Node
from .rules import UNCAPPED, below

if TYPE_CHECKING:
    from ..game import Game


class Proved(Protocol):
    """What reading an optimal tree back needs of a search (`AverageSearch`, `WorstSearch`, `PlainSearch`)."""

    def best_of(self, s: NDArray[np.int32], budget: int, depth: int = ...) -> tuple[int, int]:
        """(cost, experiment) on the optimal tree for a set whose cost (or depth) is at most budget."""


def read_back(
    game: Game, search: Proved, s: NDArray[np.int32], cost: int, worst: bool, first: int = -1, depth: int = UNCAPPED
) -> Node:
    """The optimal tree of a set whose optimal cost (worst: depth) `search` proved, read back from its table, with
    at most depth experiments (the average under a cap); first: the top experiment when the search chose it
    itself (`root_choice`)."""

    def grow(s: NDArray[np.int32], budget: int, e: int, depth: int) -> Node:
        if not game.must_hit and len(s) <= 1:
            return Node(None, len(s), solved=int(s[0]) if len(s) else None)
        e = e if e >= 0 else search.best_of(s, budget, depth)[1]
        return expand(game, s, e, lambda part: grow(part, budget - 1 if worst else cost, -1, below(depth)))

    return grow(s, cost, first, depth)


def expand(game: Game, alive: NDArray[Any], e: int, grow: Callable[[NDArray[Any]], Node]) -> Node:
    """A node making experiment e, with children grown by `grow` for each outcome."""
    node = Node(e, len(alive))
    for o, part in outcome_parts(game, alive, e):
        node.children[o] = None if part is None else grow(part)
    return node


def outcome_parts(game: Game, alive: NDArray[Any], e: int) -> Iterator[tuple[int, NDArray[Any] | None]]:
    """Each outcome of experiment e on alive, in order, with the secrets it leaves; None for the guessed secret's
    own outcome where the game ends on hitting it (nothing is left to search)."""
    outcomes = game.outcomes(e, alive)
    for o in np.unique(outcomes):
        yield int(o), None if game.must_hit and int(o) == game.win_outcome else alive[outcomes == o]

"""Improving a strategy tree by optimal search below it, for games too large to prove whole (Super Mastermind).

Every largest node of the tree with at most `most` secrets (the frontier) is searched by the optimal average
search with every guess allowed, bounded by what the tree spends there; where the search finds less, its optimal
subtree replaces the tree's. What comes out is a tree, verified like any other: an upper bound on the optimal total,
and proved optimal at each node searched, not above them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from .game import Game
from .optimal.readback import read_back
from .tree import Node

if TYPE_CHECKING:
    from .optimal.average_search import AverageSearch

Path = tuple[int, ...]  # the outcomes from the root to a node


@dataclass(frozen=True)
class Frontier:
    """A node of the frontier: where it is, the secrets that reach it and what the tree spends on them there."""

    path: Path
    secrets: NDArray[np.int32]
    cost: int


def frontier(game: Game, tree: Node, most: int) -> list[Frontier]:
    """Every largest node with at most `most` secrets that makes an experiment (more than one secret, or a
    guess-the-secret node whose guess may miss), smallest first."""
    out: list[Frontier] = []

    def walk(node: Node, alive: NDArray[np.int64], path: Path, inside: bool) -> int:
        assert node.experiment is not None
        here = not inside and 1 < len(alive) <= most
        outcomes = game.outcomes(node.experiment, alive)
        cost = len(alive)
        for o in np.unique(outcomes):
            child = node.children.get(int(o))
            if child is not None and child.experiment is not None:
                cost += walk(child, alive[outcomes == o], (*path, int(o)), inside or here)
        if here:
            out.append(Frontier(path, alive.astype(np.int32), cost))
        return cost

    walk(tree, np.arange(len(game.secrets), dtype=np.int64), (), False)
    return sorted(out, key=lambda f: (len(f.secrets), f.path))


def improve(game: Game, search: AverageSearch, node: Frontier) -> tuple[int, Node | None]:
    """The least total of the node's secrets (every guess allowed) and its optimal subtree, when below what the
    tree spends there; else (that spend, None)."""
    v = search.average(node.secrets, node.cost)
    if v >= node.cost:
        return node.cost, None
    return v, read_back(game, search, node.secrets, v, False)


def graft(tree: Node, path: Path, subtree: Node) -> None:
    """Put subtree in the tree at path (in place)."""
    node = tree
    for o in path[:-1]:
        child = node.children[o]
        assert child is not None
        node = child
    if path:
        node.children[path[-1]] = subtree
    else:
        tree.experiment, tree.children = subtree.experiment, subtree.children


Nested = list[object]  # [experiment, {outcome: nested child, or None when the guess was the secret}]


def nested(node: Node) -> Nested:
    """A guess-the-secret tree as plain lists and dictionaries (JSON-ready, outcomes as their numbers)."""
    assert node.experiment is not None
    return [node.experiment, {str(o): None if c is None else nested(c) for o, c in sorted(node.children.items())}]


def from_nested(game: Game, data: object) -> Node:
    """A tree from `nested` form, with the secrets reaching each node counted (ValueError on a malformed one)."""

    def grow(item: object, alive: NDArray[np.int64]) -> Node:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], int)):
            raise ValueError("a node is [experiment, {outcome: child}]")
        e, children = item
        if not (0 <= e < len(game.experiments) and isinstance(children, dict)):
            raise ValueError("an experiment out of range, or no outcomes")
        node = Node(e, len(alive))
        outcomes = game.outcomes(e, alive)
        for key, child in children.items():
            o = int(key)
            node.children[o] = None if child is None else grow(child, alive[outcomes == o])
        return node

    return grow(data, np.arange(len(game.secrets), dtype=np.int64))


def bound_two_deep(game: Game, search: AverageSearch) -> dict[int, int]:
    """A lower bound on the optimal total with each first experiment (one per class, as the search tries them):
    the secrets plus, for each part it leaves open, the least over every second experiment of that part plus the
    counting bounds of the parts the second leaves (`optimal.candidates.lookahead`). The least of them bounds the game's
    optimum from below: a proof, if a weak one."""
    from .optimal.candidates import lookahead

    rules = search.rules
    every = np.ones(rules.table.shape[0], dtype=np.bool_)
    s = np.arange(len(game.secrets), dtype=np.int32)
    out: dict[int, int] = {}
    for e in np.flatnonzero(search.root_allowed()).tolist():
        outcomes = rules.table[e, s]
        total = len(s)
        for o in np.unique(outcomes):
            if not (game.must_hit and int(o) == game.win_outcome):
                total += int(lookahead(s[outcomes == o], rules, every, False))
        out[e] = total
    return out

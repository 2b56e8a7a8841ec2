"""A strategy given as each secret's sequence of guesses (a certificate's upper half: `optimal.certificate`) read
back into a tree, so that the game's own `verify` plays it against every secret before it is shown."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from solvers.errors import InputError

from .game import Game
from .tree import Node


def strategy_of(game: Game, lengths: NDArray[np.integer], guesses: NDArray[np.integer]) -> Node:
    """The tree the sequences make (secret i's guesses: the next lengths[i] of guesses, secrets in the game's
    order), each secret's path laid into it in turn, its answers scored all at once (`Game.outcomes_of`);
    InputError when they are not one strategy: two secrets that got the same answers so far get different next
    guesses, or a secret's sequence ends before it is found."""
    n = len(game.secrets)
    if len(lengths) != n or int(np.sum(lengths)) != len(guesses) or (n and int(np.min(lengths)) < 1):
        raise InputError("the sequences do not cover the game's secrets")
    if n and not (int(np.min(guesses)) >= 0 and int(np.max(guesses)) < len(game.experiments)):
        raise InputError("a guess is not one of the game's codes")
    owners = np.repeat(np.arange(n, dtype=np.int64), lengths)
    answers = game.outcomes_of(np.asarray(guesses, dtype=np.int64), owners).tolist()
    moves, at = np.asarray(guesses).tolist(), 0
    root = Node(None, n)
    for length in np.asarray(lengths).tolist():
        node, found = root, False
        for depth in range(length):
            if node.experiment is None and not node.children:
                node.experiment = moves[at + depth]
            elif node.experiment != moves[at + depth]:
                raise InputError(f"secrets that got the same answers get different guesses after {depth}")
            o = answers[at + depth]
            if found := game.must_hit and o == game.win_outcome:
                node.children[o] = None  # found: `verify` confirms the guess was the secret
                break
            child = node.children.get(o)
            if child is None:
                child = node.children[o] = Node(None, 0)
            child.secrets += 1
            node = child
        if not found:
            raise InputError("a secret's sequence ends before it is found")
        at += length
    return root


def sequences_of(game: Game, tree: Node) -> tuple[NDArray[np.int32], NDArray[np.int32]]:
    """A tree as each secret's sequence of guesses (the inverse of `strategy_of`): the lengths, secrets in the
    game's order, and the guesses, one secret's after another, its last the secret where the tree finds it so."""
    lengths, guesses = [], []
    for secret in range(len(game.secrets)):
        node: Node | None = tree
        path: list[int] = []
        while node is not None and node.experiment is not None:
            path.append(node.experiment)
            node = node.children[game.outcome(node.experiment, secret)]
        lengths.append(len(path))
        guesses += path
    return np.array(lengths, dtype=np.int32), np.array(guesses, dtype=np.int32)

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
    order); InputError when they are not one strategy: two secrets that got the same answers so far get different
    next guesses, or a secret's sequence ends before it is found."""
    n = len(game.secrets)
    if len(lengths) != n or int(np.sum(lengths)) != len(guesses) or (n and int(np.min(lengths)) < 1):
        raise InputError("the sequences do not cover the game's secrets")
    starts = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    ends = starts[1:]
    root = Node(None, n)
    stack: list[tuple[Node, NDArray[np.int64], int]] = [(root, np.arange(n, dtype=np.int64), 0)]
    while stack:
        node, alive, depth = stack.pop()
        if (starts[alive] + depth >= ends[alive]).any():
            raise InputError("a secret's sequence ends before it is found")
        chosen = np.unique(guesses[starts[alive] + depth])
        if len(chosen) != 1 or not 0 <= int(chosen[0]) < len(game.experiments):
            raise InputError(f"secrets that got the same answers get different guesses after {depth}")
        node.experiment = int(chosen[0])
        outcomes = game.outcomes(node.experiment, alive)
        for o in np.unique(outcomes).tolist():
            part = alive[outcomes == o]
            if game.must_hit and o == game.win_outcome:
                node.children[o] = None  # found: `verify` confirms the guess was the secret
                continue
            child = Node(None, len(part))
            node.children[o] = child
            stack.append((child, part, depth + 1))
    return root

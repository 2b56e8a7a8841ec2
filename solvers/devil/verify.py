"""Exact verification of a strategy: the whole belief propagated through the moves, and a brute force
that plays every start against every choice of the Devil (small cases, for tests)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from solvers.progress import Tick, quiet

from .variant import DevilVariant, digits, encode, goal_configs, symmetries, tables


@dataclass(frozen=True)
class DevilVerification:
    """A strategy replayed on every start and every choice of the Devil, at once."""

    ok: bool
    sizes: tuple[int, ...]  # configurations still possible after each move


def verify(v: DevilVariant, moves: Sequence[int], tick: Tick = quiet) -> DevilVerification:
    """Propagate the whole belief through the moves; the strategy wins iff nothing is left at the end."""
    ds, maps, place = tables(v)
    belief = np.ones(v.configs, dtype=bool)
    belief[goal_configs(v)] = False
    sizes = []
    binary = v.states == 2
    idx = np.arange(v.configs, dtype=np.int64)
    for i, a in enumerate(moves):
        if i % 256 == 0:
            tick(i, len(moves))
        out = np.zeros(v.configs, dtype=bool)
        for ga in {int(x) for x in maps[:, a]}:
            if binary:
                out |= belief[idx ^ ga]
            else:  # out[x] is set when x - g(a) was possible
                back = (((ds - ds[ga]) % v.states) * place).sum(axis=1)
                out |= belief[back]
        out[goal_configs(v)] = False
        belief = out
        sizes.append(int(belief.sum()))
    return DevilVerification(not belief.any(), tuple(sizes))


def brute_force_wins(v: DevilVariant, moves: Sequence[int]) -> bool:
    """Play every start against every sequence of Devil choices, one path at a time (small cases only)."""
    perms = symmetries(v)

    @cache
    def play(c: int, i: int) -> bool:
        """True when every Devil choice from here loses for the Devil."""
        if c in goal_configs(v):
            return True
        if i == len(moves):
            return False
        a = digits(v, moves[i])
        for p in perms:
            ds = digits(v, c)
            turned = [ds[p[k]] for k in range(v.n)]
            if not play(encode(v, [(x + y) % v.states for x, y in zip(turned, a, strict=True)]), i + 1):
                return False
        return True

    return all(play(c, 0) for c in range(v.configs))

"""The game's variants and configurations: N coins (or dials with m positions) around a table, the Devil's
symmetries (rotations, and reflections in a variant) and the winning configurations."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from solvers.errors import InputError, LimitError

DevilGoal = Literal["all-heads", "all-equal"]


DEVIL_GOALS: tuple[DevilGoal, ...] = ("all-heads", "all-equal")


DEVIL_MAX_COINS = 16


DEVIL_MAX_STATES = 6


VERIFY_MAX_CONFIGS = 1 << 16  # exact verification up to this many configurations


@dataclass(frozen=True)
class DevilVariant:
    """Which game: number of coins, goal, whether the Devil may also turn the table over, states per coin."""

    n: int
    goal: DevilGoal = "all-heads"
    reflections: bool = False
    states: int = 2

    def __post_init__(self) -> None:
        """Reject sizes out of range."""
        if not 1 <= self.n <= DEVIL_MAX_COINS:
            raise InputError(f"the number of coins must be 1 to {DEVIL_MAX_COINS}")
        if not 2 <= self.states <= DEVIL_MAX_STATES:
            raise InputError(f"states per coin must be 2 to {DEVIL_MAX_STATES}")
        if self.goal not in DEVIL_GOALS:
            raise InputError("goal must be all-heads or all-equal")
        if self.states**self.n > VERIFY_MAX_CONFIGS:
            raise LimitError(f"{self.states}^{self.n} configurations is more than this tool handles")

    @property
    def configs(self) -> int:
        """Number of configurations."""
        return int(self.states**self.n)


def digits(v: DevilVariant, c: int) -> tuple[int, ...]:
    """A configuration's positions, 12 o'clock first."""
    return tuple((c // v.states**i) % v.states for i in range(v.n))


def encode(v: DevilVariant, ds: Sequence[int]) -> int:
    """The configuration with these positions."""
    return sum(d * v.states**i for i, d in enumerate(ds))


def symmetries(v: DevilVariant) -> list[tuple[int, ...]]:
    """The Devil's table moves as position permutations: rotations, and reflections if allowed."""
    perms = [tuple((i + k) % v.n for i in range(v.n)) for k in range(v.n)]
    if v.reflections:
        perms += [tuple((k - i) % v.n for i in range(v.n)) for k in range(v.n)]
    return sorted(set(perms))


@lru_cache(maxsize=64)
def tables(v: DevilVariant) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """Digits of every configuration, each symmetry as a map on configurations, and place values."""
    idx = np.arange(v.configs, dtype=np.int64)
    place = np.array([v.states**i for i in range(v.n)], dtype=np.int64)
    ds = (idx[:, None] // place[None, :]) % v.states
    maps = np.stack([(ds[:, list(p)] * place).sum(axis=1) for p in symmetries(v)])
    return ds, maps, place


def goal_configs(v: DevilVariant) -> list[int]:
    """Configurations that win."""
    if v.goal == "all-heads":
        return [0]
    return [encode(v, [d] * v.n) for d in range(v.states)]


def add(v: DevilVariant, c: int, a: int) -> int:
    """Turn each position of c by the amounts in a."""
    return encode(v, [(x + y) % v.states for x, y in zip(digits(v, c), digits(v, a), strict=True)])


def positions(v: DevilVariant, move: int) -> list[int]:
    """The positions a move touches (coins: those flipped)."""
    return [i for i, d in enumerate(digits(v, move)) if d]

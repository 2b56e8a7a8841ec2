"""The parent's side of a search's schedule (`parallel.Workers`): a set it settles (`OpenSet`), an experiment at such
a set (`Experiment`), and a task handed out or waiting to be (`Handout`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from .rules import BIG
from .tasks import NO_INDEX, Found


@dataclass(eq=False)
class OpenSet:
    """A set being settled in the parent: the least total over its experiments below its budget."""

    s: NDArray[np.int32]
    path: tuple[int, ...]  # the experiments that left it
    budget: int
    up: Experiment | None  # the experiment it is a part of (None: the start)
    outcome: int  # its outcome there
    gate: tuple[int, ...]  # the tasks that had to finish before it was opened
    slot: int = 0
    cands: NDArray[np.int64] = field(default_factory=lambda: np.zeros((0, 2), dtype=np.int64))
    best: int = int(BIG)
    choice: int = -1
    index: int = NO_INDEX
    low: int = 0  # a lower bound before any search: counting, or the table's
    floor: int = int(BIG)  # the least bound of an experiment that did not get below the budget
    waiting: int = 0  # younger brothers not settled yet
    early: bool = False  # its younger brothers went out with the eldest (a bounded start: `Workers._open`)
    issued: list[int] = field(default_factory=list)  # the tasks handed out below it

    def dead(self) -> bool:
        """Whether an experiment above it was settled without it (as too costly)."""
        return any(node.up is not None and node.up.done for node in self.above())

    def above(self) -> list[OpenSet]:
        """It and every set above it."""
        out = [self]
        while (up := out[-1].up) is not None:
            out.append(up.node)
        return out

    def cap(self, i: int) -> int:
        """The budget of its i-th experiment now: below the best total found (or one above it for an experiment
        before the best's, which wins a tie), and the set's budget."""
        return min(self.budget, self.best + (1 if i < self.index else 0))


@dataclass(eq=False)
class Experiment:
    """An experiment at a set settled in the parent: its parts all at once (together: an eldest with an unbounded
    budget), else one after another, largest first."""

    node: OpenSet
    i: int  # its place in the set's order
    g: int
    total: int  # |S| + the parts' costs where settled, their bounds elsewhere
    parts: list[tuple[NDArray[np.int32], int, int]]  # the parts not handed out yet: (secrets, bound, outcome)
    together: bool
    lows: dict[int, int] = field(default_factory=dict)  # the parts handed out and not settled: outcome -> bound
    settled: int = 0  # secrets whose part is settled
    done: bool = False
    issued: list[int] = field(default_factory=list)  # the tasks handed out for it (a brother's: its own first)


class Handout(NamedTuple):
    """A task handed out or waiting to be: what runs it, with what, and what to do with its result."""

    kind: str
    fn: Callable[..., Found]
    args: tuple[Any, ...]
    node: OpenSet
    up: Experiment | None  # the experiment whose part it searches (its result is dropped once that is settled)
    on: Callable[[Found], None]
    budget: int
    after: tuple[int, ...]
    low: int = -1  # a younger brother's bound (its place in its set's order: i)
    i: int = 0

    def wanted(self) -> bool:
        """Whether its result still counts."""
        return not (self.node.dead() or (self.up is not None and self.up.done))

    def outdone(self) -> bool:
        """Whether it is a younger brother whose bound is no longer below its set's best total."""
        return self.low >= 0 and self.low >= self.node.cap(self.i)

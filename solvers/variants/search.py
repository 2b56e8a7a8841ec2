"""The exact "solvable within w weighings" search both variant engines share: memoised on beliefs, with a
work budget, and the smallest w that succeeds.

An engine says what a belief is (`settled`, `feasible`), which weighings to try (`splits`) and what each reading
leaves (`children`); this class does the rest. Every weighing `splits` yields is tried, so a False is a proof.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from typing import Generic, TypeVar

from solvers.errors import LimitError
from solvers.progress import Tick, quiet

B = TypeVar("B", bound=Hashable)  # a belief
S = TypeVar("S")  # a weighing, as the engine describes it
MAX_SETS = 3_000_000  # beliefs searched before the search gives up (a clear refusal, not a wrong answer)
SLACK = 8  # weighings tried beyond a lower bound before the search says it found no plan


class DepthSearch(Generic[B, S]):
    """Decide "solvable within w weighings" for beliefs, keeping the weighing that works."""

    what = "the search"
    max_work = 10_000_000  # partial weighings an engine may try before giving up

    def __init__(self, tick: Tick = quiet) -> None:
        self.solved: dict[B, tuple[int, S]] = {}  # the fewest weighings known enough, and how
        self.failed: dict[B, int] = {}  # the most weighings known not to be enough
        self.sets = 0
        self.work = 0
        self.tick = tick

    def settled(self, b: B) -> bool:
        """True when the belief names one answer."""
        raise NotImplementedError

    def feasible(self, b: B, w: int) -> bool:
        """The engine's necessary condition (its lower bound) for solving b within w weighings."""
        raise NotImplementedError

    def splits(self, b: B, w: int) -> Iterator[S]:
        """Every weighing worth trying at b with w weighings left (each one counted by `count_work`)."""
        raise NotImplementedError

    def children(self, b: B, split: S, w: int) -> Sequence[B]:
        """The beliefs each reading leaves, hardest first."""
        raise NotImplementedError

    def count_work(self) -> None:
        """One more partial weighing tried; past the budget, a clear refusal."""
        self.work += 1
        if self.work > self.max_work:
            raise LimitError(f"{self.what} gave up after {self.max_work:,} partial weighings")

    def fits(self, b: B, w: int) -> bool:
        """True when the belief can be solved within w weighings (exhaustive, memoised)."""
        if self.settled(b):
            return True
        if w <= 0 or not self.feasible(b, w):
            return False
        known = self.solved.get(b)
        if known is not None and known[0] <= w:
            return True
        if self.failed.get(b, -1) >= w:
            return False
        self.sets += 1
        if self.sets > MAX_SETS:
            raise LimitError(f"{self.what} gave up after {MAX_SETS:,} beliefs")
        if self.sets % 1000 == 0:
            self.tick(self.sets, 0)
        for split in self.splits(b, w):
            if all(self.fits(c, w - 1) for c in self.children(b, split, w)):
                self.solved[b] = (w, split)
                return True
        self.failed[b] = max(w, self.failed.get(b, -1))
        return False

    def split_at(self, b: B, w: int) -> S:
        """The weighing found for a belief that is solvable within w weighings."""
        if not self.fits(b, w):
            raise ValueError("not solvable within w")
        return self.solved[b][1]

    def lower(self, b: B) -> int:
        """The engine's lower bound for b: the fewest weighings its necessary condition allows."""
        w = 0
        while not self.settled(b) and not self.feasible(b, w):
            w += 1
        return w

    def least(self, b: B) -> int:
        """The fewest weighings that solve b, raised from the lower bound: every smaller number refuted."""
        start = w = self.lower(b)
        while not self.fits(b, w):
            w += 1
            if w > start + SLACK:
                raise LimitError(f"no plan within {w - 1} weighings was found")
        return w

"""The worst case driven from Python: `WorstSearch.solve` raises the depth from the counting bound until some first
experiment (one per symmetry class) finishes every secret within it, each asked of the compiled kernel (`fits`),
so that every smaller depth is refuted by the complete search. One process: each depth reuses the table of the ones
before, a reuse that processes with tables of their own would lose (docs/decisions.md)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from solvers.errors import LimitError

from ..game import Game
from .rules import UNCAPPED, Optimum
from .table import SearchTable, Tuning
from .worst import fits


class WorstSearch(SearchTable):
    """The fewest experiments that finish every secret, proved."""

    WORST = True

    def __init__(self, game: Game, tuning: Tuning | None = None, possible_only: bool = False) -> None:
        super().__init__(game, tuning, possible_only)
        self.cap = UNCAPPED  # read by `strategy.read_back`, as of the average search
        self._root_rows: NDArray[np.int64] | None = None  # the first experiments, the same at every depth

    def fits(self, s: NDArray[np.int32], depth: int, allowed: NDArray[np.bool_] | None = None) -> bool:
        """Whether s can be finished within depth experiments."""
        a = self.rules.everything if allowed is None else allowed
        ok = fits(s, depth, a, self.rules, self.memo, self.plain)
        self.check()
        return bool(ok)

    def solve(self, tick: Callable[[int, int], None] | None = None) -> Optimum:
        """The fewest experiments from the start, proved (LimitError past the budget says what was proved)."""
        depth = self.lowest_depth
        try:
            while not self.fits_from_start(depth, tick):
                depth += 1
        except LimitError as stopped:
            raise LimitError(f"{stopped}; proved so far: at least {depth} experiments") from stopped
        return Optimum(depth, self.work)

    def fits_from_start(self, depth: int, tick: Callable[[int, int], None] | None = None) -> bool:
        """Whether the whole game can be finished within depth experiments (False is a proof that it cannot: every
        first experiment, one per symmetry class, was refuted by the complete search)."""
        s = self.everyone()
        if self._root_rows is None:
            self._root_rows = self.root_candidates(s, self.root_allowed())
        cands = self._root_rows[self._root_rows[:, 0] <= self.rules.caps[depth - 1]]
        for i, (_, g) in enumerate(cands):
            if tick:
                tick(i, len(cands))
            if self.first_fits(s, int(g), depth):
                self.root_choice = int(g)
                return True
        return False

    def first_fits(self, s: NDArray[np.int32], g: int, depth: int) -> bool:
        """Whether experiment g first, then every part within depth - 1, finishes s within depth (the parts
        searched with the symmetries that fix g), largest part first."""
        after = self.first_symmetries(g)
        outcomes = self.rules.table[g, s]
        for o in sorted(set(outcomes.tolist()), key=lambda o: -int((outcomes == o).sum())):
            if self.game.must_hit and o == self.rules.win:
                continue
            ok = fits(s[outcomes == o], depth - 1, self.rules.everything, self.rules, self.memo, after)
            self.check()
            if not ok:
                return False
        return True

    def best_of(self, s: NDArray[np.int32], budget: int, depth: int = UNCAPPED) -> tuple[int, int]:
        """(depth, experiment) on the optimal tree for a set that fits within budget experiments: read back from
        the table, or searched again if it was crowded out."""
        if self.game.must_hit and len(s) <= 2:
            return len(s), int(s[0])
        for again in (False, True):
            if again:
                self.fits(s, budget)
            ok, fitting, choice = self.proved(s, depth)
            if ok and fitting <= budget:
                return fitting, choice
        raise AssertionError("a set on the optimal tree has no proved experiment on a second search")

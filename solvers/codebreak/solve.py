"""The one way to a code-breaking strategy: `solve(TreeRequest(...), tick, checkpoint)` holds the limits, the choice
of search (`strategy.build_tree`: a heuristic, or the plain-Python or compiled optimal search), the snapshot a long
proof resumes from, and the verification against every secret. The site's job (`webapp/results/codebreak_results.py`)
and the command line (`webapp/results/games.py`) both call it."""

from __future__ import annotations

from dataclasses import dataclass

from solvers.checkpoint import Checkpoint, Entry
from solvers.progress import Tick, quiet

from .game import Game
from .strategy import Proving, Stats, Strategy, build_tree, verify
from .tree import Node


@dataclass(frozen=True)
class TreeRequest:
    """What to solve: the game, the strategy, a cap on the guesses (the optimal average within it: part of the
    question, not a stop), whether only codes still possible may be guessed, how an optimal search runs and where it
    stops (`Proving`, one value from the entry point: its budget of work, a total to look below, where its proof
    runs), and the entries a long proof's snapshot settled (resumed from instead of proved again)."""

    game: Game
    strategy: Strategy
    max_guesses: int | None = None
    possible_only: bool = False
    proving: Proving = Proving()
    shipped: tuple[Entry, ...] = ()


class Seeded:
    """A checkpoint that starts from a snapshot's entries, then keeps and reads the run's own (none: a run that
    keeps nothing)."""

    def __init__(self, shipped: tuple[Entry, ...], own: Checkpoint | None) -> None:
        self.shipped = shipped
        self.own = own

    def known(self) -> list[Entry]:
        """The snapshot's entries, then the run's."""
        return [*self.shipped, *(self.own.known() if self.own else [])]

    def keep(self, entries: list[Entry]) -> None:
        """Kept in the run's own checkpoint (the snapshot is written by make frontier's runner)."""
        if self.own:
            self.own.keep(entries)


def solve(r: TreeRequest, tick: Tick = quiet, checkpoint: Checkpoint | None = None) -> tuple[Node, Stats]:
    """The strategy's tree and its statistics, verified on every secret. tick: progress; checkpoint: where a long
    proof keeps what it settles, so that a stopped run resumes (LimitError past the optimal searches' sizes, which
    `build_tree` checks, or their budget of work)."""
    if r.shipped:
        checkpoint = Seeded(r.shipped, checkpoint)
    tree = build_tree(
        r.game,
        r.strategy,
        tick,
        r.max_guesses,
        checkpoint=checkpoint,
        possible_only=r.possible_only,
        proving=r.proving,
    )
    return tree, verify(r.game, tree, possible_only=r.possible_only)

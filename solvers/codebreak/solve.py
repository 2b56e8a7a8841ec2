"""The one way to a code-breaking strategy: `solve(TreeRequest(...), tick, checkpoint)` holds the limits, the choice
of search (`strategy.build_tree`: a heuristic, or the plain-Python or compiled optimal search), the snapshot a long
proof resumes from, and the verification against every secret. The site's job (`webapp/results/codebreak_results.py`)
and the command line (`webapp/results/games.py`) both call it."""

from __future__ import annotations

from dataclasses import dataclass

from solvers.checkpoint import Checkpoint, Entry
from solvers.parallel import ONE, Execution
from solvers.progress import Tick, quiet

from .game import Game
from .strategy import Proving, Stats, Strategy, build_tree, verify
from .tree import Node


@dataclass(frozen=True)
class TreeRequest:
    """What to solve: the game, the strategy, a cap on the guesses (the optimal average within it), whether only
    codes still possible may be guessed, the optimal search's budget of work (None: its default), the entries a
    long proof's snapshot settled (resumed from instead of proved again) and where its proof runs (the entry
    point's `Execution`: this process by default)."""

    game: Game
    strategy: Strategy
    max_guesses: int | None = None
    possible_only: bool = False
    node_limit: int | None = None
    shipped: tuple[Entry, ...] = ()
    run: Execution = ONE


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
        proving=Proving(node_limit=r.node_limit, run=r.run),
    )
    return tree, verify(r.game, tree, possible_only=r.possible_only)

"""What a guess was worth, for the hints that teach: against the best guess at the same moment, how many guesses
it costs on average over the codes still possible (each code equally likely, best play afterwards: the optimal
search on the parts it leaves) and how many codes it can leave in the worst case."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from .game import Game
from .tree import Node

if TYPE_CHECKING:
    from .optimal.average_search import AverageSearch


LESSON_CACHE_BITS = 20  # a million table slots (about 30 MB): ample for the few hundred codes a lesson searches


@dataclass(frozen=True)
class CodeLesson:
    """One guess against the best one at the same moment (the codes still possible before it)."""

    secrets: int  # codes still possible before the guess
    guess: str
    total: int | None  # guesses to find every code still possible (summed over them): this guess first, best play
    best_total: int | None  # after; the same with the best first guess (None, both: every first guess is alike)
    best_guess: str  # a guess achieving best_total
    worst_left: int  # the most codes this guess can leave possible
    best_worst_left: int  # the least any guess leaves in its worst case

    @property
    def lost(self) -> float:
        """Expected guesses lost against the best guess (0 for a best guess)."""
        if self.total is None or self.best_total is None:
            return 0.0
        return (self.total - self.best_total) / self.secrets


def every_first_alike(g: Game) -> bool:
    """Whether every first experiment of the game is alike under its colour and place permutations (one class, as
    in Bulls and Cows): then none is better than another, and no search is needed to say so."""
    return len(set(g.orbit)) == 1


def alive_after(g: Game, guesses: tuple[int, ...], outcomes: tuple[int, ...]) -> NDArray[np.int32]:
    """The codes that give every outcome seen."""
    alive = np.arange(len(g.secrets), dtype=np.int32)
    table = g.dense()
    for e, o in zip(guesses, outcomes, strict=True):
        alive = alive[table[e, alive] == o]
    return alive


def most_left(table: NDArray[np.uint8], s: NDArray[np.int32], outcomes: int) -> NDArray[np.int64]:
    """For every experiment, the largest number of codes of s that one of its outcomes leaves."""
    counts = np.zeros((table.shape[0], outcomes), dtype=np.int64)
    rows = np.repeat(np.arange(table.shape[0]), len(s))
    np.add.at(counts, (rows, table[:, s].ravel()), 1)
    most: NDArray[np.int64] = counts.max(axis=1)
    return most


def best_after_first(g: Game, first: int, outcome: int, root: Node) -> tuple[int, int] | None:
    """In a game whose first guesses are all alike (Bulls and Cows), the best total and a best guess for the codes
    a first guess leaves, read from the proved optimal-average tree: its subtree after its own first guess and the
    same outcome, mapped by the relabelling of the symbols that takes the tree's first guess onto this one (a
    subtree of a tree of least total has the least total of its set). None where that relabelling does not map
    the one set onto the other (the tree's first guess not alike, a game scored otherwise)."""
    child = root.children.get(outcome)
    if root.experiment is None or child is None or child.experiment is None:
        return None
    onto = relabelling(g, root.experiment, first)
    if onto is None:
        return None
    best = "".join(onto[ch] for ch in g.experiments[child.experiment])
    if best not in g.experiments:
        return None
    return subtree_total(child), g.experiments.index(best)


def relabelling(g: Game, theirs: int, mine: int) -> dict[str, str] | None:
    """The relabelling of the symbols that takes first guess theirs onto first guess mine (each with distinct
    symbols), the others kept in order, where it maps the codes each outcome of theirs leaves onto those the same
    outcome of mine leaves (so that a result proved after theirs holds, relabelled, after mine); else None."""
    a, b = g.experiments[theirs], g.experiments[mine]
    if len(set(a)) != len(a) or len(set(b)) != len(b) or len(a) != len(b):
        return None
    symbols = sorted({ch for code in g.secrets for ch in code} | set(a) | set(b))
    onto = dict(zip(a, b, strict=True))
    spare = iter(ch for ch in symbols if ch not in onto.values())
    onto.update({ch: next(spare) for ch in symbols if ch not in onto})
    table = g.dense()
    index = {code: x for x, code in enumerate(g.secrets)}
    for x, code in enumerate(g.secrets):
        y = index.get("".join(onto[ch] for ch in code))
        if y is None or table[mine, y] != table[theirs, x]:
            return None
    return onto


def subtree_total(node: Node) -> int:
    """Guesses to find every secret reaching a node of a guess-the-code tree (each pays this node's guess)."""
    return node.secrets + sum(subtree_total(c) for c in node.children.values() if c is not None)


def lesson(
    g: Game,
    guesses: tuple[int, ...],
    outcomes: tuple[int, ...],
    search: AverageSearch | None = None,
    large: bool = False,
    best: tuple[int, int] | None = None,
    total: int | None = None,
) -> CodeLesson:
    """The last guess's worth: the codes still possible before it, its total and worst case against the best (large:
    the proofs' table size, for a background job on many codes; else a small table, for a web request; best: the
    best total and a best guess where a proof already gives them, `best_after_first`; total: the guess's own total
    where stored totals give it, `second.second_worth`: then nothing is searched)."""
    if not g.must_hit:
        raise ValueError("lessons are for games won by guessing the code")
    history, e = guesses[:-1], guesses[-1]
    if not history and every_first_alike(g):
        most = int(np.bincount(g.outcomes(e, np.arange(len(g.secrets)))).max())
        return CodeLesson(len(g.secrets), g.experiments[e], None, None, g.experiments[e], most, most)
    s = alive_after(g, history, outcomes[:-1])
    if total is not None and best is not None:  # both known: nothing to search
        if total < best[0]:
            raise AssertionError("a guess beat the proved best total")
        worst = most_left(g.dense(), s, len(g.outcome_names))
        shown = e if total == best[0] else best[1]
        return CodeLesson(
            len(s), g.experiments[e], total, best[0], g.experiments[shown], int(worst[e]), int(worst.min())
        )
    if search is None:
        from .optimal.average_search import AverageSearch  # compiled kernels: imported by the job that judges a guess
        from .optimal.table import Tuning

        search = AverageSearch(g, Tuning(cache_bits=None if large else LESSON_CACHE_BITS))
    table = search.rules.table
    total = search.with_first(s, history, e)
    if best is not None:
        if total < best[0]:
            raise AssertionError("a guess beat the proved best total")
        best_total, best_guess = best if total > best[0] else (total, -1)
    else:
        best_total, best_guess = search.best_at(s, history, total)  # only guesses better than this one are sought
    if best_guess < 0:  # none: this guess is a best one
        best_guess = e
    worst = most_left(table, s, search.rules.outcomes)
    return CodeLesson(
        len(s), g.experiments[e], total, best_total, g.experiments[best_guess], int(worst[e]), int(worst.min())
    )

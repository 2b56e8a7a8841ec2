"""Every second guess's worth, once, in a game whose first guesses are all alike (Bulls and Cows): after one first
guess, for each of its outcomes and every experiment, the total the optimal search gives with that experiment
second (`AverageSearch.with_first`, as a lesson computes it). Experiments alike under the symmetries that fix the
first guess (and so map each outcome's codes onto themselves) have the same total, so one per class is searched
(20 classes in Bulls and Cows 4x10). Any other first guess is read through the relabelling that takes this one
onto it (`lesson.relabelling`). The lesson of a second guess is then a lookup, where its search takes up to a
minute on the 1,440 codes the commonest outcome leaves."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from solvers.progress import Tick, quiet

from .game import Game
from .lesson import alive_after, relabelling

if TYPE_CHECKING:
    from .optimal.average_search import AverageSearch


@dataclass(frozen=True)
class SecondTotals:
    """totals[o][e]: guesses to find every code that outcome o of the first guess leaves (summed over them), with
    experiment e second and best play after; an empty row where o leaves no code."""

    first: str
    totals: list[list[int]]


@dataclass(frozen=True)
class SecondWorth:
    """A second guess's total, and the best total with a best guess, for the codes a first guess left."""

    total: int
    best: int
    best_guess: int


def class_leaders(search: AverageSearch, first: int) -> NDArray[np.int64]:
    """For every experiment, the least experiment of its class under the symmetries that fix the first guess."""
    from .optimal.symmetry import image, least_renamed  # compiled kernels: imported by the job that needs them

    sym = search.first_symmetries(first)
    name = np.empty(sym.free.shape[0], dtype=np.int64)
    count = len(search.game.experiments)
    if not sym.stab.shape[0]:
        return np.arange(count, dtype=np.int64)
    return np.array(
        [min(least_renamed(sym, image(sym, int(j), x), name) for j in sym.stab) for x in range(count)], dtype=np.int64
    )


def second_totals(search: AverageSearch, tick: Tick = quiet) -> SecondTotals:
    """The totals of every second guess after the game's first experiment, one search per class of experiments
    (the largest outcomes' sets first, so that progress counts the work honestly). A search with a checkpoint
    keeps what each proves as it goes (`AverageSearch.settle_part`, `keep_new`), so a stopped job resumed with it
    reads those sets back and loses at most seconds of work."""
    g, first = search.game, 0
    leaders = class_leaders(search, first)
    classes = np.unique(leaders)
    table = g.dense()
    outcomes = [o for o in range(len(g.outcome_names)) if np.any(table[first] == o)]
    work = sum(int(np.count_nonzero(table[first] == o)) for o in outcomes)
    totals: list[list[int]] = [[] for _ in g.outcome_names]
    done = 0
    for o in sorted(outcomes, key=lambda o: -int(np.count_nonzero(table[first] == o))):
        s = alive_after(g, (first,), (o,))
        found: dict[int, int] = {}
        for k, e in enumerate(classes):
            found[int(e)] = search.with_first(s, (first,), int(e))
            search.keep_new(every=True)  # with a checkpoint: a restart finds the sets proved so far in its table
            tick(done + len(s) * (k + 1) // len(classes), work)
        totals[o] = [found[int(leaders[e])] for e in range(len(g.experiments))]
        done += len(s)
    return SecondTotals(g.experiments[first], totals)


def second_worth(g: Game, t: SecondTotals, first: int, outcome: int, e: int) -> SecondWorth | None:
    """A second guess's worth after first and its outcome, read from the totals (relabelled from their first
    guess onto this one); None where the totals do not apply (another game, a first guess not alike)."""
    if t.first not in g.experiments or outcome >= len(t.totals) or not t.totals[outcome]:
        return None
    onto = relabelling(g, g.experiments.index(t.first), first)
    if onto is None:
        return None
    back = {v: k for k, v in onto.items()}
    index = {code: x for x, code in enumerate(g.experiments)}
    row, leader = t.totals[outcome], int(np.argmin(t.totals[outcome]))
    theirs = index.get("".join(back[ch] for ch in g.experiments[e]))
    best = index.get("".join(onto[ch] for ch in g.experiments[leader]))
    if theirs is None or best is None:
        return None
    return SecondWorth(row[theirs], row[leader], best)

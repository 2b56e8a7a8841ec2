"""The admissible bound for fewest-move searches (a move is a chain of jumps by one coin), used by the
bidirectional search in solvers/pegs/meet.py.

The bound counts full Merson regions: sets of holes R such that every jump over a coin in R starts or lands in R.
While R is full no jump can land in it, so the first jump that changes a full region starts in it; a chain that
arrives from elsewhere would need an empty hole to land on. A full region must change before the end (unless it is
the finish hole alone), so each needs a move that starts in it, and a move starts on one hole: the number of full
regions in a disjoint family is a lower bound on the moves left. (Counting regions that are merely occupied is not a
bound: one chain can pass through several regions and empty each.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import TYPE_CHECKING

from .board import Board, Move

if TYPE_CHECKING:  # the compiled search's module is imported only where it runs
    from .storage import Spill

MAX_REGION = 4  # Merson regions of up to this many holes are searched for


def is_merson(b: Board, region: set[int]) -> bool:
    """Every jump over a coin in the region starts or lands in it."""
    return all(f in region or t in region for f, o, t in b.jumps if o in region)


@cache
def merson_regions(b: Board) -> tuple[frozenset[int], ...]:
    """As many disjoint small Merson regions as possible: every connected one of up to MAX_REGION holes, none
    containing a smaller one, then the largest disjoint family (exhaustive over the candidates)."""
    near: dict[int, set[int]] = {h: set() for h in range(b.size)}
    for f, o, _ in b.jumps:
        near[f].add(o)
        near[o].add(f)
    found: list[frozenset[int]] = []
    for k in range(1, MAX_REGION + 1):
        for holes in combinations(range(b.size), k):
            region = frozenset(holes)
            if any(r < region for r in found) or not is_merson(b, set(region)):
                continue
            seen, todo = {holes[0]}, [holes[0]]
            while todo:
                for y in near[todo.pop()] & region - seen:
                    seen.add(y)
                    todo.append(y)
            if len(seen) == k:
                found.append(region)
    best: list[frozenset[int]] = []

    def choose(i: int, chosen: list[frozenset[int]], used: frozenset[int]) -> None:
        nonlocal best
        if len(chosen) + len(found) - i <= len(best):
            return
        if i == len(found):
            best = list(chosen)
            return
        if not found[i] & used:
            choose(i + 1, [*chosen, found[i]], used | found[i])
        choose(i + 1, chosen, used)

    choose(0, [], frozenset())
    return tuple(best)


def lower_bound(regions: Sequence[frozenset[int]], pos: int) -> int:
    """Moves still needed at least: the full regions of the family."""
    return sum(1 for r in regions if all(pos >> h & 1 for h in r))


@dataclass(frozen=True)
class Fewest:
    """The fewest moves to one coin on the finish hole (None: none within the bound searched, or not decided),
    the moves, whether it is proved, the lower bound at the start, and the positions searched."""

    moves: int | None
    solution: list[Move]
    proved: bool
    start_bound: int
    nodes: int
    status: str


@dataclass(frozen=True)
class Means:
    """What a fewest-moves search may use: where it keeps its levels (None: in memory), how many states it may
    hold (None: the search's default), and the limit it starts from (0: the Merson bound; see `fewest_meet`)."""

    spill: Spill | None = None
    max_states: int | None = None
    start_limit: int = 0


IN_MEMORY = Means()  # the default: levels in memory, the default number of states, from the Merson bound

"""A board's table: for every start hole, whether it can be solved, in how few moves, and where it can end."""

from __future__ import annotations

from typing import NamedTuple

from solvers.progress import Tick, quiet

from .analysis import analyse
from .board import board
from .rules import canonical, image


class PegRow(NamedTuple):
    """One start hole: solvable (None: unknown), fewest moves (None: not proved), reachable finals, and the same
    for finishing in the start hole itself (the classic goal on the English and French boards)."""

    hole: str
    solvable: bool | None
    min_moves: int | None
    finals: tuple[str, ...]
    home: bool | None
    home_moves: int | None


def board_table(name: str, tick: Tick = quiet) -> tuple[PegRow, ...]:
    """Every start hole of a board; symmetric starts share one analysis, their finals mapped by the symmetry."""
    b = board(name)
    rows: list[PegRow] = []
    first: dict[int, tuple[int, PegRow]] = {}  # canonical start -> (start, its row)
    for i, label in enumerate(b.labels):
        tick(i, b.size)
        pos = b.start(label)
        key = canonical(b, pos)
        if key not in first:
            a = analyse(b, pos, thorough=True)
            start = b.index(label)
            if a.method == "exact" or a.solvable is False:
                home = (start in (a.finals or {})) if a.solvable is not None else None
                home_moves = (a.finals or {}).get(start) if a.method == "exact" else None
            else:
                h = analyse(b, pos, thorough=True, finish=start)
                home, home_moves = h.solvable, h.min_moves
            finals = tuple(b.labels[x] for x in sorted(a.finals or {}))
            row = PegRow(label, a.solvable, a.min_moves, finals, home, home_moves)
            first[key] = (pos, row)
        else:
            other_pos, other = first[key]
            perm = next(p for p in b.symmetries if image(p, other_pos) == pos)
            finals = tuple(sorted((b.labels[perm[b.index(x)]] for x in other.finals), key=b.labels.index))
            row = PegRow(label, other.solvable, other.min_moves, finals, other.home, other.home_moves)
        rows.append(row)
    return tuple(rows)

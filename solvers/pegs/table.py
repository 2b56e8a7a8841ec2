"""A board's table: for every start hole, whether it can be solved, in how few moves, and where it can end."""

from __future__ import annotations

from typing import NamedTuple

from solvers.progress import Tick, quiet

from .analysis import analyse
from .board import board
from .rules import canonical, image

TABLE_NODE_LIMIT = 20_000


class Row(NamedTuple):
    """One start hole: solvable (None: unknown), fewest moves (None: not proved), reachable finals."""

    hole: str
    solvable: bool | None
    min_moves: int | None
    finals: tuple[str, ...]


def board_table(name: str, tick: Tick = quiet) -> tuple[Row, ...]:
    """Every start hole of a board; symmetric starts share one analysis, their finals mapped by the symmetry."""
    b = board(name)
    rows: list[Row] = []
    first: dict[int, tuple[int, Row]] = {}  # canonical start -> (start, its row)
    for i, label in enumerate(b.labels):
        tick(i, b.size)
        pos = b.start(label)
        key = canonical(b, pos)
        if key not in first:
            a = analyse(b, pos, node_limit=TABLE_NODE_LIMIT)
            row = Row(label, a.solvable, a.min_moves, tuple(b.labels[x] for x in sorted(a.finals or {})))
            first[key] = (pos, row)
        else:
            other_pos, other = first[key]
            perm = next(p for p in b.symmetries if image(p, other_pos) == pos)
            finals = tuple(sorted((b.labels[perm[b.index(x)]] for x in other.finals), key=b.labels.index))
            row = Row(label, other.solvable, other.min_moves, finals)
        rows.append(row)
    return tuple(rows)

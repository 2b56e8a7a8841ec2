"""Peg boards as data: holes with labels and drawing points, the jumps along their lines, symmetries."""

from __future__ import annotations

from dataclasses import dataclass

from solvers.errors import InputError

Jump = tuple[int, int, int]  # from, over, to (hole indices)


Move = tuple[int, ...]  # the holes a coin visits: start, then each landing


@dataclass(frozen=True)
class Board:
    """Holes (labels and drawing coordinates), the jumps along its lines, and its symmetries."""

    name: str
    labels: tuple[str, ...]
    points: tuple[tuple[float, float], ...]
    jumps: tuple[Jump, ...]
    symmetries: tuple[tuple[int, ...], ...]
    colourings: tuple[tuple[int, ...], ...]  # each hole's colour mod 3 in two colourings that every jump crosses

    @property
    def title(self) -> str:
        """The board's name for people: 'English board', 'French board', 'triangle of 15 holes'."""
        if self.name.startswith("triangle-"):
            return f"triangle of {self.size} holes"
        return f"{self.name.capitalize()} board"

    @property
    def size(self) -> int:
        """Number of holes."""
        return len(self.labels)

    @property
    def full(self) -> int:
        """The position with every hole filled."""
        return (1 << self.size) - 1

    def index(self, label: str) -> int:
        """Hole index from its label."""
        try:
            return self.labels.index(label.strip().lower())
        except ValueError as e:
            raise InputError(f"board {self.name} has no hole {label!r}") from e

    def start(self, label: str) -> int:
        """The full board with one hole empty."""
        return self.full & ~(1 << self.index(label))


def _make(
    name: str,
    cells: list[tuple[int, int]],
    labels: list[str],
    dirs: list[tuple[int, int]],
    sym: list[dict[tuple[int, int], tuple[int, int]]],
    points: list[tuple[float, float]],
) -> Board:
    """A board from cells, directions and symmetry maps on cells."""
    where = {c: i for i, c in enumerate(cells)}
    jumps = []
    for (r, c), i in where.items():
        for dr, dc in dirs:
            over, to = (r + dr, c + dc), (r + 2 * dr, c + 2 * dc)
            if over in where and to in where:
                jumps.append((i, where[over], where[to]))
    perms = sorted({tuple(where[s[c]] for c in cells) for s in sym})
    colourings = []
    for a, bb in ((1, 1), (1, -1), (1, -2), (2, 1)):
        colour = tuple((a * r + bb * c) % 3 for r, c in cells)
        if all(len({colour[f], colour[o], colour[t]}) == 3 for f, o, t in jumps):
            colourings.append(colour)
    return Board(name, tuple(labels), tuple(points), tuple(jumps), tuple(perms), tuple(colourings[:2]))


def triangle(k: int) -> Board:
    """The triangle with k holes a side, numbered 1.. row by row from the apex."""
    cells = [(r, c) for r in range(k) for c in range(r + 1)]
    dirs = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1)]

    def bary(cell: tuple[int, int]) -> tuple[int, int, int]:
        r, c = cell
        return c, r - c, k - 1 - r

    def back(a: int, b: int, d: int) -> tuple[int, int]:
        return k - 1 - d, a

    orders = [(0, 1, 2), (1, 2, 0), (2, 0, 1), (1, 0, 2), (0, 2, 1), (2, 1, 0)]
    sym = [{cell: back(*(bary(cell)[o] for o in order)) for cell in cells} for order in orders]
    points = [(c - r / 2, r * 0.866) for r, c in cells]
    return _make(f"triangle-{k}", cells, [str(i + 1) for i in range(len(cells))], dirs, sym, points)


def _square_symmetry(k: int, r: int, c: int) -> tuple[int, int]:
    """The k-th of the 8 symmetries of the 7x7 square, applied to a cell."""
    for _ in range(k % 4):
        r, c = c, 6 - r
    return (r, 6 - c) if k >= 4 else (r, c)


def cross(name: str, french: bool) -> Board:
    """The English 33-hole cross, or the French 37-hole board; holes a1..g7 (column letter, row from the top)."""
    cells = [
        (r, c)
        for r in range(7)
        for c in range(7)
        if 2 <= r <= 4 or 2 <= c <= 4 or (french and 1 <= r <= 5 and 1 <= c <= 5)
    ]
    dirs = [(0, 1), (0, -1), (1, 0), (-1, 0)]
    sym = [{(r, c): _square_symmetry(k, r, c) for r, c in cells} for k in range(8)]
    labels = [f"{'abcdefg'[c]}{r + 1}" for r, c in cells]
    return _make(name, cells, labels, dirs, sym, [(float(c), float(r)) for r, c in cells])


BOARDS: dict[str, Board] = {
    **{f"triangle-{k}": triangle(k) for k in range(4, 9)},
    "english": cross("english", False),
    "french": cross("french", True),
}


def board(name: str) -> Board:
    """A board by name."""
    if name not in BOARDS:
        raise InputError(f"unknown board {name!r}; boards: {', '.join(BOARDS)}")
    return BOARDS[name]

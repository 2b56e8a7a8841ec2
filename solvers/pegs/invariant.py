"""The position-class invariant: two 3-colourings of the holes that every jump crosses, so a jump flips
the parity of the coins on each colour. It proves starts unsolvable and names the finals that can be reached."""

from __future__ import annotations

from .board import Board


def position_class(b: Board, pos: int) -> tuple[int, ...]:
    """An invariant of jumps: every jump flips the parity of the coins on each of three colours."""
    out = []
    for colour in b.colourings:
        n = [0, 0, 0]
        for h in range(b.size):
            if pos >> h & 1:
                n[colour[h]] += 1
        out += [(n[0] + n[1]) % 2, (n[1] + n[2]) % 2]
    return tuple(out)


def class_finals(b: Board, pos: int) -> list[int]:
    """Holes where a single last coin has the position's class (the only finals that can be reached)."""
    mine = position_class(b, pos)
    return [h for h in range(b.size) if position_class(b, 1 << h) == mine]

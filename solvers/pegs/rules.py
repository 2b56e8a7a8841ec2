"""Positions (bitboards: bit i set when hole i holds a coin), jumps, moves and the rules that check them."""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from solvers.errors import IllegalMoveError, InputError

from .board import Board, Jump, Move


def pegs(pos: int) -> int:
    """Number of coins on the board."""
    return pos.bit_count()


@lru_cache(maxsize=16)
def _jump_masks(b: Board) -> tuple[tuple[int, int, Jump], ...]:
    """Each jump with the bits that must be full (from, over) and empty (to)."""
    return tuple(((1 << f) | (1 << o), 1 << t, (f, o, t)) for f, o, t in b.jumps)


def legal_jumps(b: Board, pos: int) -> Iterator[Jump]:
    """Jumps possible in a position."""
    for full, empty, j in _jump_masks(b):
        if pos & full == full and not pos & empty:
            yield j


def goes_on(b: Board, pos: int, j: Jump) -> bool:
    """True when the coin that makes jump j (from a position) can jump again after it: its move may go on."""
    after, landed = apply_jump(pos, j), j[2]
    return any(f == landed for f, _, _ in legal_jumps(b, after))


def apply_jump(pos: int, j: Jump) -> int:
    """The position after a jump."""
    f, o, t = j
    return pos & ~(1 << f) & ~(1 << o) | (1 << t)


def canonical(b: Board, pos: int, fixing: int | None = None) -> int:
    """The smallest image of a position under the board's symmetries (those that keep hole `fixing` in place,
    when a finish hole is set)."""
    return min(image(perm, pos) for perm in b.symmetries if fixing is None or perm[fixing] == fixing)


def _width(b: Board) -> int:
    """Hex digits in a position token of this board."""
    return (b.size + 3) // 4


def to_token(b: Board, pos: int) -> str:
    """A position as a fixed-width hex bitmask of the board's holes (bit i: hole i holds a coin)."""
    return f"{pos:0{_width(b)}x}"


def from_token(b: Board, token: str) -> int:
    """Parse a position token (leading zeros may be left out); InputError if it is not a position of this board."""
    text = token.strip()
    if not text or len(text) > _width(b) or any(ch not in "0123456789abcdefABCDEF" for ch in text):
        raise InputError(f"a position of {b.name} is a hexadecimal bitmask of up to {_width(b)} digits", token[:40])
    pos = int(text, 16)
    if pos > b.full:
        raise InputError(f"that position has coins outside the {b.size} holes of {b.name}", token[:40])
    return pos


def image(perm: tuple[int, ...], pos: int) -> int:
    """A position moved by a symmetry of the board."""
    img = 0
    while pos:
        low = pos & -pos
        img |= 1 << perm[low.bit_length() - 1]
        pos ^= low
    return img


def jumps_to_moves(jumps: tuple[Jump, ...] | list[Jump]) -> list[Move]:
    """Group consecutive jumps by the same coin into moves."""
    moves: list[list[int]] = []
    for f, _, t in jumps:
        if moves and moves[-1][-1] == f:
            moves[-1].append(t)
        else:
            moves.append([f, t])
    return [tuple(m) for m in moves]


@lru_cache(maxsize=16)
def _lines(b: Board) -> dict[tuple[int, int], int]:
    """(from, to) -> the hole jumped over, for every jump along a line of the board."""
    return {(f, t): o for f, o, t in b.jumps}


def checked_jump(b: Board, pos: int, f: int, t: int) -> Jump:
    """The jump from hole f to hole t, checked by the rules; IllegalMoveError if it is not legal here."""
    o = _lines(b).get((f, t))
    if o is None:
        raise IllegalMoveError(f"{b.labels[f]} to {b.labels[t]} is not a jump along a line")
    if not (pos >> f & 1 and pos >> o & 1 and not pos >> t & 1):
        raise IllegalMoveError(f"{b.labels[f]} cannot jump over {b.labels[o]} into {b.labels[t]} here")
    return f, o, t


def replay(b: Board, pos: int, moves: list[Move]) -> int:
    """Play moves from a position by the rules, checking every jump; returns the final position."""
    for move in moves:
        for f, t in zip(move, move[1:], strict=False):
            pos = apply_jump(pos, checked_jump(b, pos, f, t))
    return pos

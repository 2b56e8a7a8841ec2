"""Exact analysis of small boards: breadth-first layers by moves (a move is a chain of jumps), vectorised with
NumPy over whole layers; fewest moves to every final, a solution traced back through the layers, counts."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from solvers.errors import InputError, LimitError

from .board import Board, Move, board
from .rules import apply_jump, legal_jumps, pegs

EXACT_MAX_HOLES = 21


class Exact:
    """Exact analysis of one small board: fewest moves by vectorised breadth-first layers, counts by recursion."""

    def __init__(self, b: Board) -> None:
        """Empty memo tables for a board."""
        if b.size > EXACT_MAX_HOLES:
            raise LimitError(f"exact analysis is for boards of up to {EXACT_MAX_HOLES} holes")
        self.board = b
        self._count: dict[int, int] = {}
        self._layers: dict[int, list[NDArray[np.int64]]] = {}

    def layers(self, pos: int) -> list[NDArray[np.int64]]:
        """The layers from a position (kept for the last few positions asked)."""
        if pos not in self._layers:
            if len(self._layers) > 32:
                self._layers.clear()
            self._layers[pos] = fast_layers(self.board, pos)
        return self._layers[pos]

    def finals(self, pos: int) -> dict[int, int]:
        """Final hole -> fewest moves to finish there (empty: unsolvable)."""
        finals: dict[int, int] = {}
        for depth, layer in enumerate(self.layers(pos)):
            for q in layer[(layer != 0) & ((layer & (layer - 1)) == 0)]:
                finals.setdefault(int(q).bit_length() - 1, depth)
        return finals

    def min_moves(self, pos: int) -> int | None:
        """Fewest moves to one coin, or None if impossible."""
        f = self.finals(pos)
        return min(f.values()) if f else None

    def count(self, pos: int) -> int:
        """Number of jump sequences from pos that end with one coin."""
        if pos in self._count:
            return self._count[pos]
        total = 1 if pegs(pos) == 1 else sum(self.count(apply_jump(pos, j)) for j in legal_jumps(self.board, pos))
        self._count[pos] = total
        return total

    def solution(self, pos: int, final: int = -1) -> list[Move]:
        """A fewest-move solution (to a given final hole, or to the nearest one), found back through the layers."""
        f = self.finals(pos)
        if not f:
            return []
        target = final if final >= 0 else min(f, key=lambda h: (f[h], h))
        if target not in f:
            raise InputError("that final hole cannot be reached")
        layers, q, moves = self.layers(pos), 1 << target, []
        for depth in range(f[target], 0, -1):
            q, move = self._back(q, layers[depth - 1])
            moves.append(move)
        return list(reversed(moves))

    def _back(self, q: int, previous: NDArray[np.int64]) -> tuple[int, Move]:
        """A position of the previous layer and a move (a chain) from it to q."""
        back_jumps = [(f, o, t) for f, o, t in self.board.jumps]
        for h in range(self.board.size):
            if not q >> h & 1:
                continue
            stack: list[tuple[int, Move]] = [(q, (h,))]
            while stack:
                cur, path = stack.pop()
                for f, o, t in back_jumps:
                    if t == path[0] and cur >> t & 1 and not cur >> f & 1 and not cur >> o & 1:
                        before = (cur & ~(1 << t)) | (1 << f) | (1 << o)
                        move = (f, *path)
                        i = int(np.searchsorted(previous, before))
                        if i < previous.size and int(previous[i]) == before:
                            return before, move
                        stack.append((before, move))
        raise AssertionError("no way back to the previous layer")


@lru_cache(maxsize=16)
def exact(name: str) -> Exact:
    """The shared exact analyser for a small board."""
    return Exact(board(name))


def _np_jumps(b: Board) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """Jump masks as arrays: bits that must be full, the bit that must be empty, and from/to holes."""
    full = np.array([(1 << f) | (1 << o) for f, o, _ in b.jumps], dtype=np.int64)
    empty = np.array([1 << t for _, _, t in b.jumps], dtype=np.int64)
    frm = np.array([f for f, _, _ in b.jumps], dtype=np.int64)
    to = np.array([t for _, _, t in b.jumps], dtype=np.int64)
    return full, empty, frm, to


def fast_layers(b: Board, pos: int, max_positions: int = 20_000_000) -> list[NDArray[np.int64]]:
    """Positions first reached after 0, 1, 2, ... moves (a move = a chain of jumps), as sorted arrays.

    Breadth-first by moves, vectorised over whole layers: every jump is tried on every
    position of the frontier at once, and chains are grown by jumps from the hole the coin landed on.
    """
    full, empty, frm, to = _np_jumps(b)
    seen = np.array([pos], dtype=np.int64)
    out = [seen]
    frontier = seen
    while frontier.size:
        found: list[NDArray[np.int64]] = []
        # first jump of a move: any coin
        states_pos: list[NDArray[np.int64]] = []
        states_at: list[NDArray[np.int64]] = []
        for k in range(len(full)):
            ok = ((frontier & full[k]) == full[k]) & ((frontier & empty[k]) == 0)
            if ok.any():
                nxt = (frontier[ok] & ~full[k]) | empty[k]
                states_pos.append(nxt)
                states_at.append(np.full(nxt.size, to[k], dtype=np.int64))
        while states_pos:
            cur_pos, cur_at = np.concatenate(states_pos), np.concatenate(states_at)
            key = np.unique(cur_pos * 64 + cur_at)
            cur_pos, cur_at = key // 64, key % 64
            found.append(cur_pos)
            states_pos, states_at = [], []
            for k in range(len(full)):  # the same coin jumps again
                ok = (cur_at == frm[k]) & ((cur_pos & full[k]) == full[k]) & ((cur_pos & empty[k]) == 0)
                if ok.any():
                    nxt = (cur_pos[ok] & ~full[k]) | empty[k]
                    states_pos.append(nxt)
                    states_at.append(np.full(nxt.size, to[k], dtype=np.int64))
        if not found:
            break
        layer = np.unique(np.concatenate(found))
        layer = layer[~np.isin(layer, seen, assume_unique=True)]
        seen = np.union1d(seen, layer)
        out.append(layer)
        if seen.size > max_positions:
            raise LimitError("the search grew past its limit")
        single = layer[(layer != 0) & ((layer & (layer - 1)) == 0)]
        frontier = layer[(layer & (layer - 1)) != 0]
        if single.size and not frontier.size:
            break
    return out

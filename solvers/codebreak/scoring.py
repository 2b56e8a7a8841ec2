"""Scores of sequence games computed on demand, compiled with Numba, for games too large for an outcome table.

Mastermind 5x8 has 32,768 codes: its table would hold 32,768 x 32,768 outcomes (1 GiB). Instead a game keeps
its codes, and the outcome of guess g on secret s is black * width + white (width 0: black pegs only), where

* black counts the places that agree: each code is packed one colour per byte into a 64-bit word, and the zero
  bytes of g XOR s among the code's places are counted with the usual carry-free byte test;
* black + white is the sum over colours of the smaller count: it depends only on the two codes' colour-count
  vectors (792 of them for 5x8), so it is read from a small table of those vectors' pairs.

That is the rule `game.score_table` fills a table with, so a game gives the same outcomes either way (tested).
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from solvers.jit import inline_kernel, kernel

from .codes import Codes, Packed

LOW7 = np.uint64(0x7F7F7F7F7F7F7F7F)
ONES = np.uint64(0x0101010101010101)


@inline_kernel
def _score(c: Packed, g: int, s: int) -> np.int64:  # pragma: no cover - compiled
    """The outcome of guess g on secret s."""
    packed, cls, common, places, width = c
    v = packed[g] ^ packed[s]
    zero = ~(((v & LOW7) + LOW7) | v | LOW7) & places  # 0x80 in each place where the colours agree
    black = np.int64(((zero >> np.uint64(7)) * ONES) >> np.uint64(56))
    if width == 0:
        return black
    return black * width + np.int64(common[cls[g], cls[s]]) - black


@kernel
def _pairs(c: Packed, guesses: NDArray[np.int64], secrets: NDArray[np.int64]) -> NDArray[np.uint8]:  # pragma: no cover
    """Each guess's outcome on the secret beside it."""
    out = np.empty(secrets.shape[0], dtype=np.uint8)
    for j in range(secrets.shape[0]):
        out[j] = _score(c, guesses[j], secrets[j])
    return out


@kernel
def _tally(c: Packed, alive: NDArray[np.int64], k: int) -> NDArray[np.int64]:  # pragma: no cover - compiled
    """For every guess (rows), how many secrets of alive give each outcome (four interleaved counters per guess,
    so that runs of equal outcomes do not wait on each other)."""
    guesses = c[0].shape[0]
    out = np.zeros((guesses, k), dtype=np.int64)
    lanes = np.zeros((4, k), dtype=np.int32)
    n = alive.shape[0]
    top = n - n % 4
    for g in range(guesses):
        lanes[:] = 0
        for j in range(0, top, 4):
            for lane in range(4):
                lanes[lane, _score(c, g, alive[j + lane])] += 1
        for j in range(top, n):
            lanes[0, _score(c, g, alive[j])] += 1
        for o in range(k):
            out[g, o] = lanes[0, o] + lanes[1, o] + lanes[2, o] + lanes[3, o]
    return out


@kernel
def _whole(c: Packed) -> NDArray[np.uint8]:  # pragma: no cover - compiled
    """Every code's outcome on every code (rows: guesses)."""
    n = c[0].shape[0]
    out = np.empty((n, n), dtype=np.uint8)
    for g in range(n):
        for s in range(n):
            out[g, s] = _score(c, g, s)
    return out


def _packed(c: Codes) -> Packed:
    return (c.packed, c.cls, c.common, c.places, c.width)


def row(c: Codes, g: int, alive: NDArray[Any]) -> NDArray[np.uint8]:
    """Guess g's outcome on every secret of alive (indices of codes)."""
    return pairs(c, np.full(len(alive), g, dtype=np.int64), alive)


def pairs(c: Codes, guesses: NDArray[Any], secrets: NDArray[Any]) -> NDArray[np.uint8]:
    """Each guess's outcome on the secret beside it (indices of codes, two arrays of one length)."""
    g, s = (np.ascontiguousarray(a, dtype=np.int64) for a in (guesses, secrets))
    return cast("NDArray[np.uint8]", cast(Any, _pairs)(_packed(c), g, s))


def tally(c: Codes, alive: NDArray[Any], k: int) -> NDArray[np.int64]:
    """Every guess's count of secrets of alive per outcome (rows: guesses, columns: the k outcomes)."""
    return cast(NDArray[np.int64], cast(Any, _tally)(_packed(c), np.ascontiguousarray(alive, dtype=np.int64), k))


def whole(c: Codes) -> NDArray[np.uint8]:
    """The outcome table of a game whose guesses are its codes (n x n outcomes: 1 GiB for Mastermind 5x8), for the
    one search that takes a game this large (`Game.tabled`)."""
    return cast(NDArray[np.uint8], cast(Any, _whole)(_packed(c)))

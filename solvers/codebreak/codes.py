"""A sequence game's codes packed for scoring on demand (`scoring`, compiled): kept apart from the kernels so that
building and storing a game imports no compiler."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray


@dataclass(frozen=True)
class Codes:
    """A sequence game's codes, ready to score: packed places, colour-count classes and the common-colour table."""

    packed: NDArray[np.uint64]  # one byte per place
    cls: NDArray[np.int32]  # each code's colour-count vector, as an index into common
    common: NDArray[np.uint8]  # common[a, b]: sum over colours of the smaller count
    places: np.uint64  # 0x80 in the byte of every place
    width: int


def prepare(codes: NDArray[np.int8], colours: int, width: int) -> Codes:
    """Pack a game's codes (rows of colours) for scoring."""
    length = codes.shape[1]
    shifts = (8 * np.arange(length)).astype(np.uint64)
    packed = (codes.astype(np.uint64) << shifts).sum(axis=1, dtype=np.uint64)
    vectors = (codes[:, :, None] == np.arange(colours, dtype=np.int8)).sum(axis=1, dtype=np.uint8)
    distinct, cls = np.unique(vectors, axis=0, return_inverse=True)
    common = np.minimum(distinct[:, None, :], distinct[None, :, :]).sum(axis=2, dtype=np.uint8)
    places = np.uint64(sum(0x80 << (8 * i) for i in range(length)))
    return Codes(packed, cls.reshape(-1).astype(np.int32), common, places, width)


Packed = tuple[NDArray[np.uint64], NDArray[np.int32], NDArray[np.uint8], np.uint64, int]  # Codes' fields

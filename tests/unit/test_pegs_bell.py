"""The peg search's levels against George Bell's published level sizes of the English central game.

G. I. Bell, "English 33-hole Board Example" (recmath.org/pegsolitaire/English/, formerly
home.comcast.net/~gibell/pegsolitaire/EnglishResults.html), Table 1: the central game (d4 to d4) calculated by
levels of moves, the 8-fold symmetry taken into account and no resource count used: |B_n|, the positions reached
from the start in n moves and no fewer, and |B_-n|, the positions from which the finish is reached in n moves and
no fewer. The search's own level builder (`solvers.pegs.levels.Meet`, with no region bound and a limit that never
binds) is run one jump level at a time until every state is dearer than n moves; each position is one state
there, with its fewest moves, so counting states by their moves gives Bell's columns.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from solvers.pegs.board import board
from solvers.pegs.compiled import _lut, jump_rows
from solvers.pegs.levels import D_SHIFT, Meet
from solvers.pegs.meet import _flat, _state
from solvers.pegs.rules import image

FORWARD = [1, 1, 2, 9, 47, 263, 1_452, 7_772, 38_150]  # Bell's |B_n|, n = 0..8
BACKWARD = [1, 1, 16, 979]  # Bell's |B_-n|, n = 0..3


def level_sizes(back: bool, most: int) -> list[int]:
    """The number of positions (up to the 8 symmetries fixing d4) at each fewest number of moves up to `most`,
    from the start of the central game, or back from its finish."""
    b = board("english")
    pos = 1 << b.index("d4") if back else b.start("d4")
    symmetries = [p for p in b.symmetries if image(p, pos) == pos]
    assert len(symmetries) == 8
    no_regions = np.zeros(0, dtype=np.int64)
    search = Meet(jump_rows(b), no_regions, _lut(symmetries, b.size), 10**9)
    level, counts = _state(pos, 0, 0), Counter[int]()
    while level.size:
        positions, info = _flat(level)
        assert len(np.unique(positions)) == len(positions)  # one state per position
        moves = info >> D_SHIFT
        if moves.min() > most:  # a jump never lowers the moves: every later level is dearer still
            break
        counts.update(int(m) for m in moves[moves <= most])
        level = search.step(level, back, no_regions, 10**6)
    return [counts[n] for n in range(most + 1)]


def test_the_first_levels_match_bells_table() -> None:
    """|B_0..B_6| = 1, 1, 2, 9, 47, 263, 1,452 and |B_-0..B_-2| = 1, 1, 16 (Bell, Table 1)."""
    assert level_sizes(False, 6) == FORWARD[:7]
    assert level_sizes(True, 2) == BACKWARD[:3]


@pytest.mark.proof  # a minute and a half of one core: make proofs (the first levels are checked in make test)
def test_deeper_levels_match_bells_table() -> None:
    """|B_7| = 7,772, |B_8| = 38,150 and |B_-3| = 979 (Bell, Table 1; about a minute here)."""
    assert level_sizes(False, 8) == FORWARD
    assert level_sizes(True, 3) == BACKWARD

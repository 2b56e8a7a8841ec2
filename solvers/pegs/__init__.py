"""Peg solitaire (Matt Parker's coin triangle and the classic boards) on bitboards.

A position is an integer: bit i set means hole i holds a coin. A jump takes a coin over an adjacent coin along
a line of the board into an empty hole and removes the jumped coin. A move is a chain of jumps by one coin.
Small boards (up to 21 holes) are solved exactly (`exact`); larger ones by compiled depth-first search
(`compiled`), their fewest moves by bidirectional search (`meet`, over `levels`); the position-class invariant
(`invariant`) settles many starts at once; `analysis` picks among them; `play` holds a game in progress and `table`
the per-board tables.
"""

from .analysis import Analysis, analyse, quick_exact
from .board import BOARDS, Board, Jump, Move, board
from .exact import EXACT_MAX_HOLES, Exact, exact
from .invariant import class_finals, position_class
from .play import CENTRES, MAX_JUMPS, PROBLEMS, PegGame, fewest_anywhere, finish_label, game_from_text, listed_problem
from .rules import (
    apply_jump,
    canonical,
    checked_jump,
    from_token,
    goes_on,
    image,
    jumps_to_moves,
    legal_jumps,
    pegs,
    replay,
    to_token,
)
from .table import PegRow, board_table

__all__ = [
    "goes_on",
    "CENTRES",
    "PROBLEMS",
    "listed_problem",
    "fewest_anywhere",
    "finish_label",
    "MAX_JUMPS",
    "PegGame",
    "game_from_text",
    "PegRow",
    "board_table",
    "checked_jump",
    "BOARDS",
    "EXACT_MAX_HOLES",
    "Analysis",
    "Board",
    "Exact",
    "Jump",
    "Move",
    "analyse",
    "apply_jump",
    "board",
    "canonical",
    "class_finals",
    "exact",
    "from_token",
    "image",
    "jumps_to_moves",
    "legal_jumps",
    "pegs",
    "position_class",
    "quick_exact",
    "replay",
    "to_token",
]

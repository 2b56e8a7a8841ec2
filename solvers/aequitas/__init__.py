"""Æquitas: two-player counterfeit-coin games with an Observer, and their Grundy values."""

from .game import (
    CONVENTIONS,
    Convention,
    Goal,
    Move,
    Position,
    best_move,
    grouped_moves,
    grundy,
    options,
    outcome,
    playable,
    start,
)
from .paper import GAMES, Cell, agreement, cells, paper_value

__all__ = [
    "CONVENTIONS",
    "GAMES",
    "Cell",
    "Convention",
    "Goal",
    "Move",
    "Position",
    "agreement",
    "best_move",
    "cells",
    "grouped_moves",
    "grundy",
    "options",
    "outcome",
    "paper_value",
    "playable",
    "start",
]

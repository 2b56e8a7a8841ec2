"""Æquitas: two-player counterfeit-coin games with an Observer, and their Grundy values."""

from solvers.weighing.problem import Goal

from .game import (
    CONVENTIONS,
    AequitasMove,
    Convention,
    Position,
    best_move,
    grouped_moves,
    grundy,
    options,
    outcome,
    playable,
    start,
)
from .paper import GAMES, PaperCell, agreement, cells, paper_value

__all__ = [
    "CONVENTIONS",
    "GAMES",
    "PaperCell",
    "Convention",
    "Goal",
    "AequitasMove",
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

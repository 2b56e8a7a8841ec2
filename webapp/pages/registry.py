"""The one list of puzzles (`Puzzle`, each defined in its own module): the app factory registers their blueprints
from it, and the home page, the footers and the error pages' way back read it. A new puzzle is its own module and
one line here."""

from __future__ import annotations

from webapp.pages import adversary, aequitas, codebreak_plan, coins, devil, pegs, variants
from webapp.pages.puzzle import Puzzle

PUZZLES: tuple[Puzzle, ...] = (
    coins.puzzle,
    adversary.puzzle,
    aequitas.puzzle,
    devil.puzzle,
    pegs.puzzle,
    codebreak_plan.puzzle,  # the code-breaking area: its play pages (`codebreak`) and its plans and optima
    variants.puzzle,
)

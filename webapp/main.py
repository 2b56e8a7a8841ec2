"""The home page and the health check."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, render_template

bp = Blueprint("main", __name__)

PUZZLES = [
    ("Counterfeit coin", "coins.setup", "Find the fake among N coins with a balance: optimal plans, verified."),
    ("Weigh against an adversary", "adversary.setup", "You weigh; the scale answers to make it as hard as it can."),
    ("Æquitas", "aequitas.setup_page", "Two-player counterfeit-coin games with an Observer and Grundy values."),
    ("The Devil's blindfold game", "devil.setup", "Flip coins on a rotating table you cannot see."),
    ("The peg board", "pegs.setup", "Jump coins on a triangle down to one."),
    ("Code-breaking games", "codebreak.index", "A general code-breaking engine, with Mastermind."),
]


@bp.get("/")
def home() -> str:
    """List the puzzles, each linked to its page."""
    return render_template("home.html", puzzles=PUZZLES)


@bp.get("/healthz")
def healthz() -> Response:
    """Liveness check for load balancers."""
    return jsonify({"status": "ok"})

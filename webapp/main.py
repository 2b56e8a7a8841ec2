"""The home page and the health check."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, redirect, render_template, request, url_for

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


FOOTERS = {
    "coins": "Every plan shown is checked by replaying every case before it is shown. Sources: Dyson (1946), "
    "Guy & Nowakowski (1995).",
    "adversary": "The scale answers as an adversary (or honestly, with a sealed secret); the solver's figures are "
    "exact. Sources: Dyson (1946), Guy & Nowakowski (1995).",
    "aequitas": "Grundy values by exhaustive search, compared with Burke, Khovanova, Lee, Nowakowski, Rowland and "
    "Tennenhouse, 'Coins that Change Their Weights' / Æquitas (2022).",
    "devil": "Shortest sure wins by exhaustive search, Lamping's construction verified on every table. Source: "
    "Norvig, 'The Devil and the Coin Flip Game', with John Lamping's proof.",
    "pegs": "Exact analysis up to 21 holes, searches beyond. Sources: Matt Parker's coin triangle; G. I. Bell, "
    "'Solving Triangular Peg Solitaire' (JIS, 2008).",
    "codebreak": "Every strategy tree is verified by playing every secret through it. Sources: Knuth, 'The "
    "computer as master mind' (1977); Klimoš, COBRA.",
}


def footer() -> dict[str, str]:
    """The footer of the page's own puzzle (a general one elsewhere)."""
    default = "Classic coin puzzles, solved exactly: every answer shown is checked before it is shown."
    area = (request.blueprint or "").removesuffix("_api")
    return {"footer_text": FOOTERS.get(area, default)}


@bp.get("/favicon.ico")
def favicon() -> Response:
    """Browsers that ask for /favicon.ico get the SVG icon."""
    return redirect(url_for("static", filename="favicon.svg"), code=301)  # type: ignore[return-value]


@bp.get("/healthz")
def healthz() -> Response:
    """Liveness check for load balancers."""
    return jsonify({"status": "ok"})

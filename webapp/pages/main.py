"""The home page and the health check."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, redirect, render_template, request, url_for

from webapp.pages.registry import PUZZLES

bp = Blueprint("main", __name__)

GLOSSARY: list[tuple[str, list[tuple[str, str, str]]]] = [
    (
        "Weighing",
        [
            (
                "counterfeit",
                "Counterfeit (fake) coin",
                "The one coin whose weight differs from the others: heavier or "
                "lighter, known or not, depending on the problem. Some problems allow that no coin is fake.",
            ),
            (
                "case",
                "Case",
                "One possible answer, such as 'coin 5 is lighter' or 'all coins are genuine'. A plan is "
                "done when one case is left.",
            ),
            (
                "belief",
                "What is known",
                "For each coin: unknown (?), can only be heavy (H), can only be light (L) or "
                "genuine (G). Every weighing's outcome moves coins along this scale.",
            ),
            (
                "lower-bound",
                "Lower bound",
                "A weighing has three outcomes, so k weighings tell apart at most 3^k cases: "
                "no plan can use fewer than log base 3 of the number of cases, rounded up.",
            ),
            (
                "lie",
                "Lie (a balance that may lie)",
                "A reading other than the true one. With up to L lies, each case carries the lies it would mean "
                "so far; a case with more than L is ruled out, and a plan must work whatever the lies.",
            ),
            (
                "volume-bound",
                "Volume bound",
                "Berlekamp's bound for lies: a case with r lies left can produce 1 + 2w + 4 C(w,2) + ... "
                "(up to r lies) reading sequences in w weighings, and all cases' sequences must fit in 3^w.",
            ),
            (
                "proved",
                "Proved / verified",
                "Proved: the number is the true optimum, established by exhaustive search "
                "(nothing better exists). Verified: the plan or strategy shown was replayed against "
                "every case or secret and always ends with the right answer.",
            ),
            ("worst-case", "Worst-case optimal", "Uses the fewest weighings (guesses, moves) in the worst case."),
            (
                "average-optimal",
                "Average-optimal",
                "Among worst-case optimal plans, the one with the fewest weighings "
                "on average over all cases, each taken as equally likely.",
            ),
            (
                "non-adaptive",
                "Non-adaptive scheme",
                "All weighings fixed in advance, none depending on earlier outcomes "
                "(F. J. Dyson, 1946): read the outcomes as a word and look it up.",
            ),
            (
                "adversary",
                "Adversary",
                "A scale that answers to make your task as long as possible, while staying "
                "consistent with some fake coin. Beating it means your weighings work whatever the fake is.",
            ),
            ("budget", "Budget", "The number of weighings you may use in a game."),
        ],
    ),
    (
        "Æquitas",
        [
            (
                "observer",
                "Observer",
                "The third person in Æquitas: she sees each outcome, not which coin is fake, and "
                "reasons perfectly. A weighing is a move only if it tells her something new.",
            ),
            (
                "destined",
                "Destined coins (game D)",
                "Each coin would be light if it were the fake, or would be heavy (the paper calls them light- "
                "and heavy-destined). The Observer knows which is which, not which coin is fake.",
            ),
            (
                "normal-play",
                "Normal play",
                "The player who makes the last move (here: reveals the last piece of information) wins.",
            ),
            (
                "misere",
                "Misère play",
                "The player who makes the last move loses. Æquitas has two readings: the player "
                "who reveals everything loses, or a revealing weighing is not allowed at all (stop before revealing).",
            ),
            (
                "grundy",
                "Grundy value",
                "A number for each position of a game: the smallest number that is not the value of a "
                "position one move away. It is 0 exactly when the player to move loses against best play "
                "(Sprague-Grundy theory).",
            ),
            ("p-position", "P-position", "A position with Grundy value 0: the Previous player (who just moved) wins."),
            ("n-position", "N-position", "A position with a non-zero Grundy value: the Next player (to move) wins."),
        ],
    ),
    (
        "The Devil's game",
        [
            (
                "adversarial-devil",
                "Adversarial Devil",
                "A Devil who keeps every table that your moves have not ruled out: "
                "you win against it exactly when your moves are a sure win.",
            ),
            (
                "sure-win",
                "Sure win",
                "A fixed sequence of moves that makes every coin heads at some point, whatever the "
                "starting coins and however the Devil turns the table.",
            ),
            (
                "rotation-class",
                "Rotation class (ring)",
                "All tables that are turns of one another; the Devil can present "
                "any of them, so they count as one. With 'turn over', mirror images join the class.",
            ),
        ],
    ),
    (
        "Peg board",
        [
            (
                "jump",
                "Jump",
                "A coin jumps over a neighbouring coin, in a straight line, into the empty hole beyond; the "
                "coin jumped over is removed.",
            ),
            (
                "move",
                "Move",
                "One or more jumps in a row by the same coin. Counting moves rather than jumps is the "
                "classic measure on the English board.",
            ),
            (
                "finish",
                "Finish hole",
                "Where the last coin must end: anywhere, or a chosen hole such as the start hole or the centre.",
            ),
            (
                "solvable",
                "Solvable start",
                "A start (the empty hole) from which some sequence of jumps leaves one coin.",
            ),
        ],
    ),
    (
        "Code-breaking",
        [
            (
                "secret",
                "Secret",
                "The hidden code the code maker chose; the code breaker's guesses narrow the secrets that "
                "are still possible.",
            ),
            (
                "key-pegs",
                "Key pegs",
                "Mastermind's score for a guess: black for each peg of the right colour in the right "
                "place, white for each further right colour in a wrong place.",
            ),
            (
                "strategy",
                "Strategy tree",
                "A rule for the next guess given the scores so far, written out as a tree; it "
                "is verified by playing every secret through it.",
            ),
            (
                "knuth",
                "Knuth's minimax",
                "Choose the guess whose worst score leaves the fewest secrets (D. E. Knuth, 1977).",
            ),
            ("most-parts", "Most parts", "Choose the guess whose scores split the secrets into the most groups."),
            ("expected-size", "Expected size", "Choose the guess that leaves the fewest secrets on average."),
            ("entropy", "Entropy", "Choose the guess whose score is least predictable (carries the most information)."),
            (
                "optimal",
                "Optimal strategy",
                "The strategy with the fewest guesses on average (or in the worst case), found "
                "by exhaustive search; offered where the search is small enough.",
            ),
        ],
    ),
]


@bp.get("/")
def home() -> str:
    """List the puzzles, each with its picture and linked to its page."""
    return render_template("home.html", puzzles=PUZZLES)


@bp.get("/glossary")
def glossary() -> str:
    """The terms the pages use, each with an anchor the pages link to."""
    return render_template("glossary.html", GLOSSARY=GLOSSARY)


DEFAULT_FOOTER = "Classic coin puzzles, solved exactly: every answer shown is checked before it is shown."


def footer() -> dict[str, str]:
    """The footer of the page's own puzzle (a general one elsewhere)."""
    area = (request.blueprint or "").partition("_")[0]  # codebreak_api, codebreak_plan: the code-breaking area
    found = [p.sources for p in PUZZLES if p.area == area]
    return {
        "footer_text": found[0]
        if found
        else "Classic coin puzzles, solved exactly: every answer shown is checked before it is shown."
    }


@bp.get("/favicon.ico")
def favicon() -> Response:
    """Browsers that ask for /favicon.ico get the SVG icon."""
    return redirect(url_for("static", filename="favicon.svg"), code=301)  # type: ignore[return-value]


@bp.get("/healthz")
def healthz() -> Response:
    """Liveness check for load balancers (never answered from a cache)."""
    response = jsonify({"status": "ok"})
    response.headers["Cache-Control"] = "no-store"
    return response

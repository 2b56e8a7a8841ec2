"""Following a code-breaking strategy in a real game (the plan page: enter each score, see the next guess), and the
table of Mastermind's proved optima."""

from __future__ import annotations

from typing import NamedTuple

from flask import Blueprint, Response, abort, jsonify, redirect, render_template, request, send_from_directory
from flask.typing import ResponseReturnValue

from solvers.codebreak import Game, Node, Stats, Strategy
from solvers.codebreak.play import contradiction, follow, guesses_followed
from solvers.report import as_json
from webapp.config import CERTIFICATES
from webapp.http import params
from webapp.http.htmx import link
from webapp.jobs.access import app_store, computed
from webapp.jobs.optima import optima_table
from webapp.jobs.shipped import certificates
from webapp.pages.codebreak import api, game_args, size_query, strategy_arg
from webapp.pages.codebreak import bp as pages
from webapp.pages.puzzle import Puzzle
from webapp.results.codebreak_results import CODEBREAK, codebreak_params

bp = Blueprint("codebreak_plan", __name__, url_prefix="/codebreak")


@bp.get("/plan")
def plan() -> ResponseReturnValue:
    """Follow a strategy's tree by entering the feedback from a real game."""
    name, spec, g, sizes = game_args(request.args)
    strategy = strategy_arg(request.args)
    only = params.flag(request.args, "possible_only")
    root, stats = computed(CODEBREAK, codebreak_params(name, sizes, strategy, possible_only=only))
    path = [x for x in request.args.get("path", "").split(",") if x]
    node = follow(g, root, path)
    base = {"game": name, "strategy": strategy, **size_query(sizes), **({"possible_only": "1"} if only else {})}

    def extend(o: int) -> str:
        return link("codebreak_plan.plan", {**base, "path": ",".join([*path, g.outcome_names[o]])})

    options = []
    if node is not None and node.experiment is not None:
        options = [(g.outcome_names[o], extend(o)) for o in sorted(node.children)]
    entered = request.args.get("next", "")
    error = contradiction(g, node, entered)
    if entered and error is None and node is not None and node.experiment is not None:
        return redirect(extend(g.outcome_names.index(entered)), code=303)
    back = link("codebreak_plan.plan", {**base, "path": ",".join(path[:-1])}) if path else None
    made = guesses_followed(g, root, path)
    view = PlanView(
        g=g,
        name=name,
        strategy=strategy,
        possible_only=only,
        stats=stats,
        node=node,
        path=path,
        options=options,
        base=base,
        error=error,
        back=back,
        made=list(zip(made, path, strict=True)),
        again=link("codebreak_plan.plan", base),
    )
    page = render_template("codebreak/plan.html", view=view)
    return (page, 400) if error else page


class PlanView(NamedTuple):
    """A strategy's plan page: the game and its name, the strategy (guessing possible codes only or not), its
    figures, the node reached by the feedback entered (the path), each score's link from there, the query the
    links share, why the feedback just entered cannot be, the link one step back, the guesses made with their
    feedback, and the plan's start."""

    g: Game
    name: str
    strategy: Strategy
    possible_only: bool
    stats: Stats
    node: Node | None
    path: list[str]
    options: list[tuple[str, str]]
    base: dict[str, str]
    error: str | None
    back: str | None
    made: list[tuple[str, str]]  # the guesses the plan made with the feedback each got
    again: str  # the plan's start


@bp.get("/optima")
def optima() -> str:
    """The table of proved optima with its chart (read from the result store; the precomputation fills it)."""
    return render_template("codebreak/optima.html", r=optima_table(app_store()))


@bp.get("/optima/certificates/<name>")
def optima_certificate(name: str) -> ResponseReturnValue:
    """A kept certificate of an optimal average (numpy's .npz; docs/certificates/README.md describes it). Behind our
    nginx (which says so in a header of its own, replacing any a client sent), nginx sends the file from disk: a
    slow reader of 13 MB holds no worker and makes no temporary file."""
    if name not in {kept.name for kept in certificates().values()}:
        abort(404)
    if request.headers.get("X-Coin-Puzzles-Proxy") != "nginx":
        return send_from_directory(CERTIFICATES, name, mimetype="application/octet-stream", as_attachment=True)
    response = Response(mimetype="application/octet-stream")
    response.headers["Content-Disposition"] = f"attachment; filename={name}"
    response.headers["X-Accel-Redirect"] = f"/_certificates/{name}"
    return response


@api.get("/codebreak/optima")
@params.takes("")
def optima_json() -> Response:
    """The table of proved optima as JSON (the page's, `optima`)."""
    return jsonify(as_json(optima_table(app_store())))


puzzle = Puzzle(
    area="codebreak",
    name="Code-breaking games",
    endpoint="codebreak.index",
    blurb="A general code-breaking engine, with Mastermind.",
    picture="Three Mastermind guesses of four colours, each with its black and white key pegs",
    sources="Every strategy tree is verified by playing every secret through it. Sources: Knuth, 'The "
    "computer as master mind' (1977); Klimoš, COBRA.",
    blueprints=(pages, api, bp),  # the play pages, the JSON API, and these: the plan and the optima table
    presets=(
        ("Mastermind 4x6, a random code (the classic)", "codebreak.start", {"game": "mastermind", "maker": "random"}),
        ("Bulls and Cows, a random code", "codebreak.start", {"game": "bulls-and-cows", "maker": "random"}),
        ("Mastermind 4x6 against the adversary", "codebreak.play", {"game": "mastermind", "maker": "adversarial"}),
        (
            "Mastermind 3x4 against the adversary",
            "codebreak.play",
            {"game": "mastermind", "maker": "adversarial", "pegs": "3", "colours": "4"},
        ),
        ("Bulls and Cows against the adversary", "codebreak.play", {"game": "bulls-and-cows", "maker": "adversarial"}),
        ("Super Mastermind 5x8, adversary", "codebreak.play", {"game": "super-mastermind", "maker": "adversarial"}),
    ),
)

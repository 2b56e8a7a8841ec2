"""Code-breaking games: game pages, Mastermind play (random or adversarial code maker), plan navigator, API."""

from __future__ import annotations

import secrets as pysecrets
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlencode

import numpy as np
from flask import Blueprint, Response, jsonify, redirect, request, url_for

from solvers.codebreak import (
    COLOUR_NAMES,
    HEURISTICS,
    STRATEGIES,
    Game,
    Node,
    Spec,
    Stats,
    build,
    build_tree,
    choose,
    parse,
    to_dot,
    to_json,
    verify,
)
from solvers.errors import InputError

from . import params
from .htmx import go, render
from .secretbox import seal, unseal

bp = Blueprint("codebreak", __name__, url_prefix="/codebreak")
api = Blueprint("codebreak_api", __name__, url_prefix="/api")

GAMES_DIR = Path(__file__).resolve().parent.parent / "games"
MAX_GUESSES = 12


@lru_cache(maxsize=1)
def shipped() -> dict[str, Spec]:
    """The game files that come with the project (read once per process)."""
    return {p.stem: parse(p.read_text()) for p in sorted(GAMES_DIR.glob("*.game"))}


def game_spec(name: str) -> Spec:
    """A shipped game, or a game file by path (CLI)."""
    games = shipped()
    if name in games:
        return games[name]
    path = Path(name)
    if path.suffix == ".game" and path.is_file():
        return parse(path.read_text())
    raise InputError(f"no game {name!r}: shipped games are {', '.join(games)}, or give a path to a .game file")


@lru_cache(maxsize=4)
def load(name: str, pegs: int | None = None, colours: int | None = None, coins: int | None = None) -> Game:
    """A built game with its sizes overridden."""
    over = {k: v for k, v in (("length", pegs), ("colours", colours), ("count", coins)) if v is not None}
    return build(game_spec(name), over)


@lru_cache(maxsize=24)
def analysis(name: str, pegs: int | None, colours: int | None, coins: int | None, strategy: str) -> tuple[Node, Stats]:
    """A strategy tree and its verified statistics (cached)."""
    g = load(name, pegs, colours, coins)
    tree = build_tree(g, strategy)  # type: ignore[arg-type]
    return tree, verify(g, tree)


def _sizes(args: Mapping[str, str], spec: Spec) -> tuple[int | None, int | None, int | None]:
    """Pegs, colours and coins from the query (None: the file's own)."""
    if spec.secrets[0] == "coins":
        return None, None, params.whole(args, "coins", int(spec.secrets[1].get("count", "4")), 2, 8, "coins")
    pegs = params.whole(args, "pegs", int(spec.secrets[1].get("length", "4")), 1, 6, "pegs")
    colours = params.whole(args, "colours", int(spec.secrets[1].get("colours", "6")), 2, 10, "colours")
    return pegs, colours, None


def _game(args: Mapping[str, str]) -> tuple[str, Spec, Game, tuple[int | None, int | None, int | None]]:
    """The game named in the query, built; 400 on anything out of range."""
    name = args.get("game", "mastermind")
    try:
        spec = shipped().get(name)
        if spec is None:
            raise InputError(f"no shipped game {name!r}")
        sizes = _sizes(args, spec)
        return name, spec, load(name, *sizes), sizes
    except InputError as e:
        raise InputError(str(e)) from e


def report(
    name: str, sizes: tuple[int | None, int | None, int | None], strategy: str, tree: bool, dot: bool
) -> dict[str, object]:
    """The API's (and CLI's) answer."""
    g = load(name, *sizes)
    root, stats = analysis(name, *sizes, strategy)
    out: dict[str, object] = {
        "game": name,
        "secrets": len(g.secrets),
        "strategy": strategy,
        "worst": stats.worst,
        "total": stats.total,
        "average": str(stats.average),
        "verified": stats.verified,
    }
    if tree:
        out["tree"] = to_json(g, root)
    if dot:
        out["dot"] = to_dot(g, root)
    return out


@bp.get("")
def index() -> str:
    """The shipped games."""
    return render("codebreak/index.html", "codebreak/_index.html", games=shipped())


@bp.get("/game")
def game_page() -> str:
    """A game's definition file beside its strategies' statistics."""
    name, spec, g, sizes = _game(request.args)
    rows = []
    for s in STRATEGIES:
        optimal_too_big = s not in HEURISTICS and len(g.secrets) > 100
        slow = s != "knuth" and len(g.secrets) > 1296  # keep the page quick; the plan page computes on demand
        rows.append((s, None if optimal_too_big or slow else analysis(name, *sizes, s)[1]))
    return render("codebreak/game.html", "codebreak/_game.html", name=name, spec=spec, g=g, rows=rows)


# ---------------------------------------------------------------- playing Mastermind


def _code(g: Game, text: str) -> int:
    """A guess like 'ABCD' as a secret index."""
    try:
        return g.secrets.index(text.upper())
    except ValueError as e:
        raise InputError(f"{text!r} is not a code of this game") from e


def _alive_after(g: Game, guesses: list[int], outcomes: list[int]) -> np.ndarray:
    """Secrets consistent with every guess and its score."""
    alive = np.arange(len(g.secrets))
    for e, o in zip(guesses, outcomes, strict=True):
        alive = alive[g.table[e, alive] == o]
    return alive


def _adversary(g: Game, alive: np.ndarray, e: int) -> int:
    """The adversarial code maker's score: keep the largest set of consistent secrets (ties: lowest score)."""
    outcomes = g.table[e, alive]
    values, sizes = np.unique(outcomes, return_counts=True)
    if len(alive) > 1:  # never concede while another secret is left
        keep = [(int(s), -int(v)) for v, s in zip(values, sizes, strict=True) if int(v) != g.win_outcome]
        if keep:
            return -max(keep)[1]
    return int(values[np.argmax(sizes)])


@bp.get("/play")
def play() -> str:
    """A Mastermind game: guesses in the URL; the code maker random (sealed) or adversarial."""
    name, spec, g, sizes = _game({**request.args, "game": request.args.get("game", "mastermind")})
    if not g.must_hit:
        raise InputError("play is for guess-the-secret games (Mastermind, Bulls and Cows)")
    maker = params.choice(request.args, "maker", ("adversarial", "random"))
    guesses = [_code(g, x) for x in request.args.get("g", "").split(",") if x]
    if len(guesses) > MAX_GUESSES:
        raise InputError(f"at most {MAX_GUESSES} guesses")
    secret = _unseal(request.args.get("t", ""), name, sizes) if maker == "random" else None
    outcomes: list[int] = []
    alive = np.arange(len(g.secrets))
    for e in guesses:
        if alive.size == 1 and outcomes and outcomes[-1] == g.win_outcome:
            raise InputError("the game was already won")
        o = int(g.table[e, secret]) if secret is not None else _adversary(g, alive, e)
        outcomes.append(o)
        alive = alive[g.table[e, alive] == o]
    won = bool(outcomes) and outcomes[-1] == g.win_outcome
    suggest = {}
    if params.flag(request.args, "hint") and not won:
        for s in HEURISTICS:
            suggest[s] = g.secrets[choose(g, alive, s)] if alive.size > 1 else g.secrets[int(alive[0])]
    base = {
        "game": name,
        "maker": maker,
        **({"t": request.args["t"]} if maker == "random" else {}),
        **{k: str(v) for k, v in zip(("pegs", "colours"), sizes[:2], strict=True) if v is not None},
    }
    length = len(g.secrets[0])
    colours = sizes[1] or 6
    return render(
        "codebreak/play.html",
        "codebreak/_play.html",
        g=g,
        name=name,
        maker=maker,
        rows=[(g.secrets[e], g.outcome_names[o]) for e, o in zip(guesses, outcomes, strict=True)],
        alive=int(alive.size),
        won=won,
        suggest=suggest,
        base=base,
        g_text=",".join(g.secrets[e] for e in guesses),
        length=length,
        colours=[(chr(65 + i), COLOUR_NAMES[i]) for i in range(colours)],
        hint_url=url_for("codebreak.play")
        + "?"
        + urlencode({**base, "g": ",".join(g.secrets[e] for e in guesses), "hint": "1"}),
        secret=g.secrets[secret] if secret is not None and won else None,
    )


def _game_key(name: str, sizes: tuple[int | None, int | None, int | None]) -> str:
    """What a random code's token is bound to."""
    return "codebreak/" + "/".join(map(str, (name, *sizes)))


def _seal(name: str, sizes: tuple[int | None, int | None, int | None], g: Game) -> str:
    """A sealed random secret for a game."""
    return seal({"secret": pysecrets.randbelow(len(g.secrets))}, _game_key(name, sizes))


def _unseal(token: str, name: str, sizes: tuple[int | None, int | None, int | None]) -> int:
    """The sealed secret; 400 when damaged or from another game."""
    return int(str(unseal(token, _game_key(name, sizes)).get("secret", 0)))


@bp.post("/start")
def start() -> Response:
    """Start a Mastermind game (a random secret is sealed into the URL)."""
    name, spec, g, sizes = _game(request.form)
    maker = params.choice(request.form, "maker", ("adversarial", "random"))
    q = {
        "game": name,
        "maker": maker,
        **{k: str(v) for k, v in zip(("pegs", "colours"), sizes[:2], strict=True) if v is not None},
    }
    if maker == "random":
        q["t"] = _seal(name, sizes, g)
    return go(url_for("codebreak.play") + "?" + urlencode(q))


@bp.post("/guess")
def guess() -> Response:
    """Add a guess made of one colour per peg."""
    name, spec, g, sizes = _game(request.form)
    length = len(g.secrets[0])
    pegs = [request.form.get(f"p{i}", "") for i in range(length)]
    code = "".join(pegs).upper()
    _code(g, code)
    q = {k: v for k, v in request.form.items() if k in ("game", "maker", "t", "pegs", "colours")}
    previous = request.form.get("g", "")
    q["g"] = f"{previous},{code}" if previous else code
    return go(url_for("codebreak.play") + "?" + urlencode(q))


# ---------------------------------------------------------------- plan navigator


@bp.get("/plan")
def plan() -> str:
    """Follow a strategy's tree by entering the feedback from a real game."""
    name, spec, g, sizes = _game(request.args)
    strategy = params.choice(request.args, "strategy", STRATEGIES)
    try:
        root, stats = analysis(name, *sizes, strategy)
    except InputError as e:
        raise InputError(str(e)) from e
    path = [x for x in request.args.get("path", "").split(",") if x]
    node: Node | None = root
    for i, step in enumerate(path, 1):
        if node is None or node.experiment is None:
            raise InputError(f"the plan has already finished before feedback {i}")
        if step not in g.outcome_names or g.outcome_names.index(step) not in node.children:
            raise InputError(f"feedback {i} ({step}) contradicts the earlier feedback: no secret gives it here")
        node = node.children[g.outcome_names.index(step)]
    base = {
        "game": name,
        "strategy": strategy,
        **{k: str(v) for k, v in zip(("pegs", "colours", "coins"), sizes, strict=True) if v is not None},
    }

    def extend(o: int) -> str:
        return url_for("codebreak.plan") + "?" + urlencode({**base, "path": ",".join([*path, g.outcome_names[o]])})

    options = []
    if node is not None and node.experiment is not None:
        options = [(g.outcome_names[o], extend(o)) for o in sorted(node.children)]
    error = None
    entered = request.args.get("next", "")
    if entered and node is not None and node.experiment is not None:
        if entered in g.outcome_names and g.outcome_names.index(entered) in node.children:
            return redirect(extend(g.outcome_names.index(entered)), code=303)  # type: ignore[return-value]
        error = (
            f"{entered} contradicts the feedback so far: no secret still possible gives it to "
            f"{g.experiments[node.experiment]}. Check the last score you entered."
        )
    page = render(
        "codebreak/plan.html",
        "codebreak/_plan.html",
        g=g,
        name=name,
        strategy=strategy,
        stats=stats,
        node=node,
        path=path,
        options=options,
        all_outcomes=g.outcome_names,
        base=base,
        error=error,
        back=url_for("codebreak.plan") + "?" + urlencode({**base, "path": ",".join(path[:-1])}) if path else None,
    )
    return (page, 400) if error else page  # type: ignore[return-value]


@api.get("/codebreak")
def codebreak_json() -> Response:
    """Strategy statistics (and tree) for a shipped game."""
    name, spec, g, sizes = _game(request.args)
    strategy = params.choice(request.args, "strategy", STRATEGIES)
    try:
        return jsonify(
            report(name, sizes, strategy, params.flag(request.args, "tree"), params.flag(request.args, "dot"))
        )
    except InputError as e:
        raise InputError(str(e)) from e

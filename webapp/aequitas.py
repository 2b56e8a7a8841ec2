"""Æquitas pages (set-up, play against the computer, the Grundy table) and the JSON API."""

from __future__ import annotations

from collections.abc import Mapping

from flask import Blueprint, Response, jsonify, render_template, request, url_for

from solvers.aequitas import CONVENTIONS, GAMES, Cell, Convention, options
from solvers.aequitas.match import Match, Player
from solvers.aequitas.paper import agreement
from solvers.aequitas.report import PAPER_MISERE, PositionReport, play_view, position_report
from solvers.errors import IllegalMoveError, InputError
from solvers.report import as_json
from solvers.weighing.knowledge import UserWeighing, format_weighings, parse_weighings, placed_weighing

from . import params
from .adversary import weighings_arg
from .catalogue import AEQUITAS, AequitasParams
from .gamebar import Bar, Result, split_id
from .htmx import go, link
from .results import computed

bp = Blueprint("aequitas", __name__, url_prefix="/aequitas")
api = Blueprint("aequitas_api", __name__, url_prefix="/api")

MAX_PLAY_COINS = 40
MAX_TABLE_COINS = 40
CONVENTION_NAMES = {
    "normal": "normal play: whoever reveals the last piece of information wins",
    "misere-last-mover-loses": "misère, last mover loses: whoever reveals everything loses",
    "misere-stop-before-reveal": "misère, stop before revealing: the game ends when every weighing left would reveal "
    "everything, and the player who would have to make it loses",
}


def query(m: Match, **more: str) -> dict[str, str]:
    """The canonical query of a position."""
    base = {
        "game": m.game,
        "n": str(m.n),
        "extra": str(int(m.extra)),
        "light": str(m.light),
        "fake": str(m.fake),
        "heavier": str(int(m.heavier)),
        "conv": m.convention,
        "first": m.first,
    }
    return {**base, **more}


def url(m: Match, **more: str) -> str:
    """The play URL of a position."""
    return link("aequitas.play", query(m, **more))


def parse_game(args: Mapping[str, str]) -> Match:
    """A match's settings from the query or form; 400 on anything malformed or unplayable."""
    game = params.choice(args, "game", GAMES)
    n = params.whole(args, "n", None, 1, MAX_PLAY_COINS, "The number of coins (n)")
    light = params.whole(args, "light", n, 0, n, "Light-destined coins") if game == "D" else 0
    fake = params.whole(args, "fake", 1, 1, n, "The fake coin")
    heavier = fake > light if game == "D" else params.flag(args, "heavier") or "heavier" not in args
    convention: Convention = params.choice(args, "conv", CONVENTIONS)
    first: Player = "computer" if params.choice(args, "first", ("you", "computer")) == "computer" else "you"
    m = Match(game, n, params.flag(args, "extra"), light, fake, heavier, convention, first)
    t = m.start()
    if not options(t.position()[0], t.goal):
        raise InputError("nothing to play: the Observer already knows the answer, or no weighing tells her anything")
    return m


@bp.route("", methods=["GET", "POST"])
def setup_page() -> Response | str | tuple[str, int]:
    """Pick a game; a valid POST starts it (the computer moves first if asked)."""
    if request.method == "GET":
        return render_template("aequitas/setup.html", form=request.args, error=None, conventions=CONVENTION_NAMES)
    try:
        m = parse_game(request.form)
    except InputError as e:
        page = render_template(
            "aequitas/setup.html",
            form=request.form,
            error=e.message,
            conventions=CONVENTION_NAMES,
        )
        return page, 400
    return go(url(m, w=format_weighings(m.advance(()))))


@bp.get("/play")
def play() -> str:
    """A position: the coins, the fake, the Observer, whose turn, hints, and the end."""
    m = parse_game(request.args)
    ws = weighings_arg(request.args)
    turns = redo_arg(m, ws, request.args)
    return _play_page(m, ws, params.whole(request.args, "hint", 0, 0, 1, "hint"), turns=turns)


def redo_arg(m: Match, ws: tuple[UserWeighing, ...], args: Mapping[str, str]) -> tuple[tuple[UserWeighing, ...], ...]:
    """The turns taken back that can be made again (redo: turns separated by '|', each your weighing and the
    computer's replies); each is checked to start with your weighing and to replay legally after the ones before."""
    text = args.get("redo", "")
    if len(text) > 200_000:
        raise InputError("too many weighings to redo")
    turns = tuple(parse_weighings(part) for part in text.split("|") if part.strip())
    after = ws
    for turn in turns:
        if not turn or m.mover(len(after)) != "you":
            raise InputError("redo: each turn starts with your weighing")
        after = (*after, *turn)
    m.replay(after)
    return turns


def last_turn(m: Match, ws: tuple[UserWeighing, ...]) -> int | None:
    """Where your last turn starts in ws (your weighing, then the computer's replies); None before your first."""
    mine = [i for i in range(len(ws)) if m.mover(i) == "you"]
    return mine[-1] if mine else None


def game_id(m: Match, ws: tuple[UserWeighing, ...]) -> str:
    """A match as a short ID: game, coins, extra, light-destined, fake, heavier, rule, who starts, weighings (e.g.
    'F:5:0:0:1:1:normal:you:1-2;2-3')."""
    q = query(m)
    fields = ("game", "n", "extra", "light", "fake", "heavier", "conv", "first")
    return ":".join(q[k] for k in fields) + ":" + format_weighings(ws)


@bp.get("/id")
def from_id() -> Response:
    """Open the match an ID describes (see `game_id`)."""
    parts, _ = split_id(
        request.args.get("id", "").split("#")[0],
        9,
        "an Æquitas",
        "game:n:extra:light:fake:heavier:rule:first:weighings",
    )
    fields = ("game", "n", "extra", "light", "fake", "heavier", "conv", "first")
    m = parse_game(dict(zip(fields, parts[:8], strict=True)))
    ws = parse_weighings(parts[8])
    m.replay(ws)
    return go(url(m, w=format_weighings(ws)))


def _play_page(
    m: Match,
    ws: tuple[UserWeighing, ...],
    hint: int,
    error: str | None = None,
    placed: Mapping[str, str] | None = None,
    turns: tuple[tuple[UserWeighing, ...], ...] = (),
) -> str:
    """Render the play page."""
    v = play_view(m, ws, bool(hint))
    history = [(step, url(m, w=format_weighings(ws[: i + 1]))) for i, step in enumerate(v.steps)]
    hints = params.whole(request.args, "h", 0, 0, 10**6, "h") if request.method == "GET" else 0
    undos = params.whole(request.args, "u", 0, 0, 10**6, "u") if request.method == "GET" else 0
    keep = {"h": str(hints) if hints else "", "u": str(undos) if undos else ""}
    start = last_turn(m, ws)
    undo = redo = None
    if start is not None:
        back = (ws[start:], *turns)
        undo = url(
            m,
            w=format_weighings(ws[:start]),
            redo="|".join(map(format_weighings, back)),
            **{**keep, "u": str(undos + 1)},
        )
    if turns:
        rest = "|".join(map(format_weighings, turns[1:]))
        redo = url(m, w=format_weighings((*ws, *turns[0])), redo=rest, **keep)
    bar = Bar(
        game_id(m, ws),
        url_for("aequitas.from_id"),
        url(m, w=format_weighings(ws)),
        undo,
        redo,
        url(m, w=format_weighings(m.advance(()))),
        undos,
        hints,
    )
    result = None
    if v.over is not None:
        first_turn = m.advance(())
        value = play_view(m, first_turn, False).value
        best = None
        if m.convention == "normal":
            can = "could force a win" if value else "could not force a win against best play"
            best = f"you {can} from your first turn (Grundy value {value})"
        result = Result(
            "Result: you won" if v.over.winner == "you" else "Result: the computer won",
            v.over.winner == "you",
            sum(1 for i in range(len(ws)) if m.mover(i) == "you"),
            None,
            "your weighings",
            undos,
            hints,
            f"aequitas:{game_id(m, ())}",
            game_id(m, ws),
            f"Æquitas {m.game}, {m.n} coins ({m.convention})",
            best,
        )
    grundy_step = None
    if start is not None:
        grundy_step = (play_view(m, ws[:start], False).value, play_view(m, ws[: start + 1], False).value)
    return render_template(
        "aequitas/play.html",
        bar=bar,
        grundy_step=grundy_step,
        result=result,
        fields=query(m, w=format_weighings(ws), **{k: v for k, v in keep.items() if v}),
        g=m,
        t=v.table,
        pos=v.position,
        ws=ws,
        w_text=format_weighings(ws),
        query=lambda **more: query(m, **more),
        history=history,
        over=v.over,
        to_move=m.mover(len(ws)),
        hint=hint,
        hints=v.hints,
        value=v.value,
        convention_name=CONVENTION_NAMES[m.convention],
        recent=v.recent,
        error=error,
        placed=placed or {},
        hint_url=url(m, w=format_weighings(ws), hint="1", h=str(hints + 1), u=keep["u"]),
        restart=url(m),
    )


@bp.post("/weigh")
def weigh() -> Response | tuple[str, int]:
    """The user's weighing; refused with the reason if it tells the Observer nothing; then the computer moves."""
    m = parse_game(request.form)
    ws = weighings_arg(request.form)
    m.replay(ws)
    names = [str(i) for i in range(1, m.n + 1)] + [f"G{i}" for i in range(1, int(m.extra) + 1)]
    placed = {name: request.form.get(f"c{name}", "off") for name in names}
    try:
        after = m.play(ws, placed_weighing(placed))
    except IllegalMoveError as e:
        return _play_page(m, ws, 0, error=f"Refused: {e.message}.", placed=placed), 400
    return go(url(m, w=format_weighings(after), h=request.form.get("h", ""), u=request.form.get("u", "")))


@bp.get("/table")
def table() -> str:
    """Grundy values by exhaustive search beside the paper's formulas, disagreements flagged."""
    max_coins = params.whole(request.args, "max", 30, 1, MAX_TABLE_COINS, "max")
    rows, _ = computed(AEQUITAS, AequitasParams(max_coins))
    columns = [("F", False), ("FI", False), ("F", True), ("FI", True), ("D", False), ("D", True)]
    index = {(c.convention, c.game, c.n, c.extra): c for c in rows if c.game != "D" or (c.light == c.n)}
    grid = {
        conv: [(n, [index.get((conv, game, n, extra)) for game, extra in columns]) for n in range(1, max_coins + 1)]
        for conv in CONVENTIONS
    }
    flagged = {
        conv: [c for c in rows if c.convention == conv and c.game == "D" and not c.agrees] for conv in CONVENTIONS
    }
    agree = agreement(list(rows))
    return render_template(
        "aequitas/table.html",
        grid=grid,
        flagged=flagged,
        max_coins=max_coins,
        agree=agree,
        names=CONVENTION_NAMES,
        play_url=cell_url,
    )


def cell_url(c: Cell) -> str | None:
    """A playable position for a table cell, with hints (its certificate) shown; None when nothing can be played."""
    if not options(c.position, c.goal):
        return None
    fake = (1 if c.fake_light else c.light + 1) if c.game == "D" else 1
    return url(Match(c.game, c.n, c.extra, c.light, fake, not c.fake_light, c.convention, "you"), hint="1")


def parse_position(args: Mapping[str, str]) -> PositionReport:
    """The API's starting position (game, coins, extra, misere or convention; D: light, heavy, fake), reported."""
    misere = params.flag(args, "misere")
    conv_default = PAPER_MISERE if misere else "normal"
    convention: Convention = params.choice(
        {**args, "convention": args.get("convention") or conv_default}, "convention", CONVENTIONS
    )
    if misere != (convention != "normal"):
        raise InputError("misere and convention disagree")
    n = params.whole(args, "coins", None, 1, MAX_PLAY_COINS, "coins")
    light = params.whole(args, "light", n, 0, n, "light") if "light" in args else None
    heavy = params.whole(args, "heavy", 0, 0, n, "heavy") if "heavy" in args else None
    fake = params.choice(args, "fake", ("light", "heavy")) if args.get("fake") else None
    return position_report(
        params.choice(args, "game", GAMES), n, params.flag(args, "extra"), convention, light, heavy, fake
    )


@api.get("/aequitas")
def aequitas_json() -> Response:
    """A starting position's Grundy value, outcome class and winning moves; table=1 for the whole table."""
    if params.flag(request.args, "table"):
        max_coins = params.whole(request.args, "max_coins", 30, 1, MAX_TABLE_COINS, "max_coins")
        return jsonify(as_json(computed(AEQUITAS, AequitasParams(max_coins))[1]))
    return jsonify(as_json(parse_position(request.args)))

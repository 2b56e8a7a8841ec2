"""Æquitas pages (set-up, play against the computer, the Grundy table) and the JSON API."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import NamedTuple

from flask import Blueprint, Response, current_app, jsonify, render_template, request

from solvers.aequitas import CONVENTIONS, GAMES, Convention, PaperCell, options
from solvers.aequitas.match import Match, MatchStep, Player
from solvers.aequitas.report import (
    PAPER_MISERE,
    AequitasPlayPage,
    PositionReport,
    StartVerdict,
    play_page,
    position_report,
    start_verdict,
    table_view,
    without_certificates,
)
from solvers.errors import IllegalMoveError, InputError
from solvers.history import RESTART, Chain, chain_from_text
from solvers.report import as_json
from solvers.weighing.knowledge import UserWeighing, format_weighings, parse_weighings, placed_weighing, placements
from webapp.http import params
from webapp.http.htmx import go, link
from webapp.jobs.access import computed
from webapp.jobs.rendered import json_answer, page_body
from webapp.pages.gamebar import Bar, Score, StatsKey, format_id, game_bar, id_route
from webapp.pages.puzzle import Puzzle
from webapp.results.catalogue import AEQUITAS, AequitasParams

bp = Blueprint("aequitas", __name__, url_prefix="/aequitas")
api = Blueprint("aequitas_api", __name__, url_prefix="/api")

MAX_PLAY_COINS = 40
MAX_TABLE_COINS = 40
# the API's table without max_coins: N = 1 to 12 (about 1 MB of JSON, computed in a third of a second); all 30 is
# 21 MB (sent gzipped, 0.5 MB), asked with max_coins=30
TABLE_DEFAULT_COINS = 12
CONVENTION_NAMES = {
    "normal": "normal play: whoever reveals the last piece of information wins",
    "misere-last-mover-loses": "misère, last mover loses: whoever reveals everything loses",
    "misere-stop-before-reveal": "misère, stop before revealing: the game ends when every weighing left would reveal "
    "everything, and the player who would have to make it loses",
}


def rule_name(convention: str) -> str:
    """A rule's short name, as people read it ('misère, last mover loses')."""
    return CONVENTION_NAMES[convention].split(":")[0]


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
    light = params.whole(args, "light", n, 0, n, "Coins that would be light if fake (light)") if game == "D" else 0
    fake = params.whole(args, "fake", 1, 1, n, "The fake coin")
    heavier = fake > light if game == "D" else params.flag(args, "heavier") or "heavier" not in args
    convention: Convention = params.choice(args, "conv", CONVENTIONS)
    first: Player = "computer" if params.choice(args, "first", ("you", "computer")) == "computer" else "you"
    m = Match(
        game=game,
        n=n,
        extra=params.flag(args, "extra"),
        light=light,
        fake=fake,
        heavier=heavier,
        convention=convention,
        first=first,
    )
    t = m.start()
    if not options(t.position()[0], t.goal):
        raise InputError("nothing to play: the Observer already knows the answer, or no weighing tells her anything")
    return m


SETUP_DEFAULTS = {"game": "D", "n": "4", "light": "4", "fake": "1", "heavier": "1", "conv": "normal", "first": "you"}


def verdict_of(args: Mapping[str, str]) -> StartVerdict | str:
    """The start's verdict for the setup form's settings (the form's defaults filling the gaps), or why there is
    none (the settings' own refusal)."""
    try:
        return start_verdict(parse_game({**SETUP_DEFAULTS, **args}))
    except InputError as e:
        return e.message


@bp.get("/verdict")
def verdict() -> str:
    """Who wins the start the setup form describes: the line the form updates as its settings change."""
    return render_template("aequitas/_verdict.html", verdict=verdict_of(request.args))


class SetupPage(NamedTuple):
    """The set-up page: the form's values, a refusal, and who wins the start they describe."""

    form: Mapping[str, str]
    error: str | None
    verdict: StartVerdict | str | None
    conventions: Mapping[str, str] = CONVENTION_NAMES


@bp.route("", methods=["GET", "POST"])
def setup_page() -> Response | str | tuple[str, int]:
    """Pick a game, told before play who wins its start; a valid POST starts it (the computer moves first if
    asked)."""
    if request.method == "GET":
        return render_template("aequitas/setup.html", setup=SetupPage(request.args, None, verdict_of(request.args)))
    try:
        m = parse_game(request.form)
    except InputError as e:
        return render_template("aequitas/setup.html", setup=SetupPage(request.form, e.message, None)), 400
    return go(url(m, moves=format_weighings(m.advance(()))))


@bp.get("/play")
def play() -> Response | str:
    """A position: the coins, the fake, the Observer, whose turn, hints, and the end. A link to a position where
    the computer is to move (a preset or a bookmark with the computer first) goes on to the position after its move."""
    m = parse_game(request.args)
    ws, chain = chain_arg(m, request.args)
    if "turns" not in request.args and (moved := m.advance(ws)) != ws:
        return go(url(m, moves=format_weighings(moved)))
    return _play_page(m, ws, params.whole(request.args, "hint", 0, 0, 1, "hint"), chain=chain)


def opening(m: Match, ws: tuple[UserWeighing, ...]) -> tuple[UserWeighing, ...]:
    """The weighings before your first turn: the computer's opening weighing when it moves first."""
    return ws[: 0 if m.first == "you" else 1]


def turns_of(m: Match, ws: tuple[UserWeighing, ...]) -> tuple[str, ...]:
    """Your turns in ws after the opening, each your weighing and the computer's reply, as the chain writes them."""
    mine = [i for i in range(len(ws)) if m.mover(i) == "you"]
    return tuple(format_weighings(ws[i : i + 2]) for i in mine)


def state(m: Match, start: tuple[UserWeighing, ...], turns: tuple[str, ...]) -> tuple[UserWeighing, ...]:
    """The weighings in effect: the opening, then the turns in effect."""
    return (*start, *(w for turn in turns for w in parse_weighings(turn)))


def chain_arg(m: Match, args: Mapping[str, str]) -> tuple[tuple[UserWeighing, ...], Chain]:
    """The weighings in effect (moves, both players') and the undo chain of your turns: turns (every turn, your
    weighing with the computer's reply, and every restart, '|' between them; given only when it holds more than
    moves shows), at (how many are in effect) and u (take-backs). Every state of the chain is a legal game whose
    turns each start with your weighing, so a redo never fails."""
    ws = params.weighings_arg(args)
    text = args.get("turns", "")
    if not text:
        turns = turns_of(m, ws)
        m.replay(ws)
        return ws, chain_from_text("|".join(turns), "", args.get("u", ""), sep="|")
    if len(text) > 200_000:
        raise InputError("too many weighings in turns")
    chain = chain_from_text(text, args.get("at", ""), args.get("u", ""), sep="|")
    entries = tuple(e if e == RESTART else format_weighings(parse_weighings(e)) for e in chain.entries)
    chain = Chain(entries, chain.at, chain.undos)
    start = opening(m, ws)
    for k, turns in enumerate(chain.states()):
        after = state(m, start, turns)
        m.replay(after)
        if turns_of(m, after) != turns:
            raise InputError(f"turns: entry {k} is not a turn of yours (your weighing, then the computer's reply)")
    if format_weighings(state(m, start, chain.applied)) != format_weighings(ws):
        raise InputError("moves and turns disagree: moves holds the weighings of the turns in effect")
    return ws, chain


def chain_fields(chain: Chain) -> dict[str, str]:
    """The chain's URL fields beside moves: the whole chain only when it holds undone turns or a restart."""
    q = chain.query("turns", "|")
    if chain.at == len(chain.entries) and RESTART not in chain.entries:
        q.pop("turns")
    return q


def game_id(m: Match, ws: tuple[UserWeighing, ...]) -> str:
    """A match as a short ID: game, coins, extra, light-destined, fake, heavier, rule, who starts, weighings (e.g.
    'F:5:0:0:1:1:normal:you:1-2;2-3')."""
    q = query(m)
    fields = ("game", "n", "extra", "light", "fake", "heavier", "conv", "first")
    return format_id([q[k] for k in fields], format_weighings(ws))


@id_route(bp, 9, "an Æquitas", "game:n:extra:light:fake:heavier:rule:first:weighings")
def _opened(parts: list[str], _: str | None) -> str:
    """Open the match an ID describes (see `game_id`)."""
    fields = ("game", "n", "extra", "light", "fake", "heavier", "conv", "first")
    m = parse_game(dict(zip(fields, parts[:8], strict=True)))
    ws = parse_weighings(parts[8])
    m.replay(ws)
    return url(m, moves=format_weighings(ws))


def _play_page(
    m: Match,
    ws: tuple[UserWeighing, ...],
    hint: int,
    error: str | None = None,
    placed: Mapping[str, str] | None = None,
    chain: Chain | None = None,
) -> str:
    """Render the play page: its model from the solvers, its links, bar and result here."""
    page = play_page(m, ws, bool(hint))
    chain = chain or Chain(turns_of(m, ws), len(turns_of(m, ws)))
    view = _play_links(page, chain, bool(hint), error, placed or {})
    return render_template("aequitas/play.html", page=page, view=view)


class AequitasPlayLinks(NamedTuple):
    """What the play page adds to its model: its bar (with the result), the form's fields, each past weighing's
    link, the rule's name, whether hints are shown and their link, the restart link, a refusal and the coins as
    placed."""

    bar: Bar
    fields: dict[str, str]
    history: list[tuple[MatchStep, str]]
    convention_name: str
    hint: bool
    hint_url: str
    restart: str
    error: str | None
    placed: Mapping[str, str]
    query: Callable[..., dict[str, str]]


def _score(page: AequitasPlayPage) -> Score | None:
    """The end screen once the match is over (None before)."""
    v = page.view
    if v.over is None:
        return None
    won = v.over.winner == "you"
    title = "Result: you won" if won else "Result: the computer won"
    return Score(title, won, page.your_weighings, None, "your weighings", page.first_turn)


def _play_links(
    page: AequitasPlayPage, chain: Chain, hint: bool, error: str | None, placed: Mapping[str, str]
) -> AequitasPlayLinks:
    """The play page's links, bar and result."""
    m, ws, v = page.match, page.weighings, page.view
    hints = params.hints_used(request.args) if request.method == "GET" else 0
    keep = {"h": str(hints) if hints else ""}
    start = opening(m, ws)

    def at(c: Chain) -> str:
        return url(m, moves=format_weighings(state(m, start, c.applied)), **chain_fields(c), **keep)

    bar = game_bar(
        game_id(m, ws),
        url(m, moves=format_weighings(ws)),
        chain,
        at,
        hints=hints,
        stats=StatsKey(f"aequitas:{game_id(m, ())}", f"Æquitas {m.game}, {m.n} coins ({rule_name(m.convention)})"),
        end=_score(page),
    )
    return AequitasPlayLinks(
        bar=bar,
        fields=query(m, moves=format_weighings(ws), **chain_fields(chain), **{k: x for k, x in keep.items() if x}),
        history=[(step, url(m, moves=format_weighings(ws[: i + 1]))) for i, step in enumerate(v.steps)],
        convention_name=CONVENTION_NAMES[m.convention],
        hint=hint,
        hint_url=url(m, moves=format_weighings(ws), hint="1", h=str(hints + 1), **chain_fields(chain)),
        restart=bar.restart or url(m, moves=format_weighings(m.advance(()))),
        error=error,
        placed=placed,
        query=lambda **more: query(m, **more),
    )


@bp.post("/weigh")
def weigh() -> Response | tuple[str, int]:
    """The user's weighing; refused with the reason if it tells the Observer nothing; then the computer moves. The
    turn joins the undo chain (dropping the turns that could have been redone)."""
    m = parse_game(request.form)
    ws, chain = chain_arg(m, request.form)
    names = [str(i) for i in range(1, m.n + 1)] + [f"G{i}" for i in range(1, int(m.extra) + 1)]
    typed = {k: request.form.get(k, "") for k in ("left", "right")}
    placed: dict[str, str] = {}
    try:
        placed = placements(names, request.form)
        after = m.play(ws, placed_weighing(placed))
    except IllegalMoveError as e:
        page = _play_page(m, ws, 0, error=f"Refused: {e.message}.", placed={**placed, **typed}, chain=chain)
        return page, 400
    chain = chain.play(format_weighings(after[len(ws) :]))
    return go(url(m, moves=format_weighings(after), **chain_fields(chain), h=params.hints(request.form)))


@bp.get("/table")
def table() -> str:
    """Grundy values by exhaustive search beside the paper's formulas, disagreements flagged."""
    max_coins = params.whole(request.args, "max", 30, 1, MAX_TABLE_COINS, "max")
    body = page_body(f"aequitas-table:{max_coins}", lambda: _table_body(max_coins))
    return render_template("aequitas/table.html", body=body, max_coins=max_coins)


def _table_body(max_coins: int) -> str:
    """The table's body (its rows from the store, or Pending while a job computes them)."""
    rows, _ = computed(AEQUITAS, AequitasParams(max_coins))
    return render_template(
        "aequitas/table_body.html", table=table_view(rows, max_coins), names=CONVENTION_NAMES, play_url=cell_url
    )


def cell_url(c: PaperCell) -> str | None:
    """A playable position for a table cell, with hints (its certificate) shown; None when nothing can be played."""
    if not options(c.position, c.goal):
        return None
    fake = (1 if c.fake_light else c.light + 1) if c.game == "D" else 1
    return url(
        Match(
            game=c.game,
            n=c.n,
            extra=c.extra,
            light=c.light,
            fake=fake,
            heavier=not c.fake_light,
            convention=c.convention,
            first="you",
        ),
        hint="1",
    )


def parse_position(args: Mapping[str, str]) -> PositionReport:
    """The API's starting position (game, coins, extra, misere or convention; D: light, heavy, fake), reported."""
    misere = params.flag(args, "misere")
    conv_default = PAPER_MISERE if misere else "normal"
    convention: Convention = params.choice(
        {**args, "convention": args.get("convention") or conv_default}, "convention", CONVENTIONS
    )
    if misere != (convention != "normal"):
        raise InputError("misere and convention disagree")
    if "coins" not in args and "n" in args:  # the pages' name for it
        args = {**args, "coins": args["n"]}
    n = params.whole(args, "coins", None, 1, MAX_PLAY_COINS, "coins (or n)")
    light = params.whole(args, "light", n, 0, n, "light") if "light" in args else None
    heavy = params.whole(args, "heavy", 0, 0, n, "heavy") if "heavy" in args else None
    fake = params.choice(args, "fake", ("light", "heavy")) if args.get("fake") else None
    return position_report(
        game=params.choice(args, "game", GAMES),
        n=n,
        extra=params.flag(args, "extra"),
        convention=convention,
        light=light,
        heavy=heavy,
        fake=fake,
    )


@api.get("/aequitas")
@params.takes("table max_coins certificates game coins n light heavy fake extra misere convention")
def aequitas_json() -> Response:
    """A starting position's Grundy value, outcome class and winning moves; table=1 for the whole table."""
    if params.flag(request.args, "table"):
        max_coins = params.whole(request.args, "max_coins", TABLE_DEFAULT_COINS, 1, MAX_TABLE_COINS, "max_coins")
        whole = params.flag(request.args, "certificates")

        def table() -> bytes:
            report = computed(AEQUITAS, AequitasParams(max_coins))[1]
            table = as_json(report if whole else without_certificates(report))
            return current_app.json.dumps(table, separators=(",", ":")).encode()  # compact, as jsonify writes

        return json_answer(f"{AEQUITAS.key(AequitasParams(max_coins))}:certificates={int(whole)}", table)
    return jsonify(as_json(parse_position(request.args)))


puzzle = Puzzle(
    area="aequitas",
    name="Æquitas",
    endpoint="aequitas.setup_page",
    blurb="Two-player counterfeit-coin games with an Observer and Grundy values.",
    picture="A balance between two players",
    sources="Grundy values by exhaustive search, compared with Burke, Khovanova, Lee, Nowakowski, Rowland and "
    "Tennenhouse, 'Coins that Change Their Weights' / Æquitas (2022).",
    blueprints=(bp, api),
    presets=(  # games that last (no first weighing ends them), each with what makes it worth playing; tested
        # against the solver's Grundy values (tests/web/test_aequitas_pages.py)
        (
            "F: 6 coins, misère",
            "aequitas.play",
            {"game": "F", "n": "6", "conv": "misere-last-mover-loses"},
            "Only 1 of the 5 possible first weighings wins, and whoever reveals the fake loses.",
        ),
        (
            "FI: 8 coins, misère",
            "aequitas.play",
            {"game": "FI", "n": "8", "conv": "misere-last-mover-loses"},
            "Find the fake and its weight: 1 winning first weighing among 7.",
        ),
        (
            "D: 8 coins, 1 that would be light, misère",
            "aequitas.play",
            {"game": "D", "n": "8", "light": "1", "conv": "misere-last-mover-loses"},
            "1 winning first weighing among 5; a game can last 6 weighings.",
        ),
        (
            "FI: 8 coins, the computer first",
            "aequitas.play",
            {"game": "FI", "n": "8", "first": "computer"},
            "The computer moves first from a lost start: answer each weighing right and you win.",
        ),
    ),
)

"""Æquitas pages (set-up, play against the computer, the Grundy table) and the JSON API."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlencode

from flask import Blueprint, Response, jsonify, request, url_for

from solvers.aequitas import CONVENTIONS, GAMES, Cell, Convention, agreement, best_move, cells, grundy, options
from solvers.aequitas.game import grouped_moves, playable
from solvers.aequitas.play import Table, realise, setup
from solvers.errors import IllegalMoveError, InputError
from solvers.weighing.adversary import UserWeighing, format_weighings

from . import params
from .adversary import UserPan, weighings_arg
from .htmx import go, render

bp = Blueprint("aequitas", __name__, url_prefix="/aequitas")
api = Blueprint("aequitas_api", __name__, url_prefix="/api")

MAX_PLAY_COINS = 40
MAX_TABLE_COINS = 40
PAPER_MISERE: Convention = "misere-stop-before-reveal"  # the reading the paper's tables follow (see the table page)
CONVENTION_NAMES = {
    "normal": "normal play: whoever reveals the last piece of information wins",
    "misere-last-mover-loses": "misère, last mover loses: whoever reveals everything loses",
    "misere-stop-before-reveal": "misère, stop before revealing: the game ends when every weighing left would reveal "
    "everything, and the player who would have to make it loses",
}


@dataclass(frozen=True)
class Game:
    """A game's fixed settings, as the URL carries them."""

    game: str
    n: int
    extra: bool
    light: int
    fake: int
    heavier: bool
    convention: Convention
    first: str

    def query(self, **more: str) -> dict[str, str]:
        """The canonical query of a position."""
        base = {
            "game": self.game,
            "n": str(self.n),
            "extra": str(int(self.extra)),
            "light": str(self.light),
            "fake": str(self.fake),
            "heavier": str(int(self.heavier)),
            "conv": self.convention,
            "first": self.first,
        }
        return {**base, **{k: v for k, v in more.items() if v}}

    def url(self, **more: str) -> str:
        """The play URL of a position."""
        return url_for("aequitas.play") + "?" + urlencode(self.query(**more))

    def start(self) -> Table:
        """The table before any weighing."""
        return setup(self.game, self.n, self.extra, self.light, self.fake, self.heavier)


def parse_game(args: Mapping[str, str]) -> Game:
    """A game's settings from the query or form; 400 on anything malformed or unplayable."""
    game = params.choice(args, "game", GAMES)
    n = params.whole(args, "n", None, 1, MAX_PLAY_COINS, "The number of coins (n)")
    light = params.whole(args, "light", n if game == "D" else 0, 0, n, "Light-destined coins") if game == "D" else 0
    fake = params.whole(args, "fake", 1, 1, n, "The fake coin")
    g = Game(
        game,
        n,
        params.flag(args, "extra"),
        light,
        fake,
        params.flag(args, "heavier") or "heavier" not in args,
        params.choice(args, "conv", CONVENTIONS),
        params.choice(args, "first", ("you", "computer")),
    )  # type: ignore[arg-type]
    if g.game == "D":
        g = Game(g.game, n, g.extra, light, fake, fake > light, g.convention, g.first)
    pos, _ = g.start().position()
    if not options(pos, g.start().goal):
        raise InputError("nothing to play: the Observer already knows the answer, or no weighing tells her anything")
    return g


def _mover(g: Game, i: int) -> str:
    """Who makes the i-th (0-based) weighing."""
    return "you" if (i % 2 == 0) == (g.first == "you") else "computer"


def replay_game(g: Game, ws: tuple[UserWeighing, ...]) -> list[Table]:
    """The tables after each weighing; a 400 if a weighing in the URL is not a legal move."""
    tables = [g.start()]
    for i, w in enumerate(ws, 1):
        try:
            why = tables[-1].refusal(w, g.convention)
        except IllegalMoveError as e:
            raise InputError(f"weighing {i}: {e}") from e
        if why:
            raise InputError(f"weighing {i} is not a move: {why}")
        tables.append(tables[-1].after(w))
    return tables


def verdict(g: Game, t: Table, moves_made: int) -> dict[str, str] | None:
    """Who won and why, once the game is over; None while it goes on."""
    pos, _ = t.position()
    to_move = _mover(g, moves_made)
    last = _mover(g, moves_made - 1) if moves_made else None
    other = {"you": "computer", "computer": "you"}
    if pos.goal_reached(t.goal):
        assert last is not None
        winner = last if g.convention == "normal" else other[last]
        why = (
            "revealed the last piece of information"
            if g.convention == "normal"
            else "revealed everything, and under misère play the revealing player loses"
        )
        return {"winner": winner, "why": f"{'You' if last == 'you' else 'The computer'} {why}."}
    if not playable(pos, t.goal, g.convention):
        if g.convention == "misere-last-mover-loses":
            return {
                "winner": to_move,
                "why": "No weighing gives the Observer anything new: the player to move "
                "cannot move, which under misère play wins.",
            }
        why = (
            "every weighing left would reveal everything, and the player who has to make it loses"
            if g.convention == "misere-stop-before-reveal"
            else "no weighing gives the Observer anything new"
        )
        return {
            "winner": other[to_move],
            "why": f"{'You are' if to_move == 'you' else 'The computer is'} to move, but {why}.",
        }
    return None


def computer_reply(g: Game, t: Table) -> UserWeighing | None:
    """The computer's weighing: to a Grundy-0 position when it can, else the first legal move."""
    pos, mirrored = t.position()
    choice = best_move(pos, t.goal, g.convention)
    return None if choice is None else realise(t, choice[1], mirrored)


def _advance(g: Game, ws: tuple[UserWeighing, ...]) -> tuple[UserWeighing, ...]:
    """Let the computer move while it is its turn and the game goes on."""
    tables = replay_game(g, ws)
    while _mover(g, len(ws)) == "computer" and verdict(g, tables[-1], len(ws)) is None:
        w = computer_reply(g, tables[-1])
        if w is None:
            break
        ws = (*ws, w)
        tables.append(tables[-1].after(w))
    return ws


@bp.route("", methods=["GET", "POST"])
def setup_page() -> Response | str | tuple[str, int]:
    """Pick a game; a valid POST starts it (the computer moves first if asked)."""
    if request.method == "GET":
        return render(
            "aequitas/setup.html", "aequitas/_setup.html", form=request.args, error=None, conventions=CONVENTION_NAMES
        )
    try:
        g = parse_game(request.form)
    except InputError as e:
        return render(
            "aequitas/setup.html",
            "aequitas/_setup.html",
            form=request.form,
            error=e.message,
            conventions=CONVENTION_NAMES,
        ), 400
    return go(g.url(w=format_weighings(_advance(g, ()))))


@bp.get("/play")
def play() -> str:
    """A position: the coins, the fake, the Observer, whose turn, hints, and the end."""
    g = parse_game(request.args)
    ws = weighings_arg(request.args)
    return _play_page(g, ws, params.whole(request.args, "hint", 0, 0, 1, "hint"))


def _play_page(
    g: Game, ws: tuple[UserWeighing, ...], hint: int, error: str | None = None, placed: Mapping[str, str] | None = None
) -> str:
    """Render the play page."""
    tables = replay_game(g, ws)
    t = tables[-1]
    pos, mirrored = t.position()
    over = verdict(g, t, len(ws))
    history = [(i + 1, _mover(g, i), w, g.url(w=format_weighings(ws[: i + 1]))) for i, w in enumerate(ws)]
    hints = []
    if hint and not over:
        for child, value, move, reveals in grouped_moves(pos, t.goal, g.convention):
            w = realise(t, move, mirrored)
            hints.append(
                {
                    "position": child.describe(),
                    "grundy": value,
                    "reveals": reveals,
                    "weighing": f"{', '.join(map(str, w[0]))} against {', '.join(map(str, w[1]))}",
                }
            )
    last = ws[-1] if ws else ((), ())
    return render(
        "aequitas/play.html",
        "aequitas/_play.html",
        g=g,
        t=t,
        pos=pos,
        ws=ws,
        w_text=format_weighings(ws),
        history=history,
        over=over,
        to_move=_mover(g, len(ws)),
        hint=hint,
        hints=hints,
        value=grundy(pos, t.goal, g.convention),
        convention_name=CONVENTION_NAMES[g.convention],
        last_pans=(UserPan(last[0]), UserPan(last[1])),
        error=error,
        placed=placed or {},
        hint_url=g.url(w=format_weighings(ws), hint="1"),
        restart=g.url(),
    )


@bp.post("/weigh")
def weigh() -> Response | tuple[str, int]:
    """The user's weighing; refused with the reason if it tells the Observer nothing; then the computer moves."""
    g = parse_game(request.form)
    ws = weighings_arg(request.form)
    t = replay_game(g, ws)[-1]
    names = [str(i) for i in range(1, g.n + 1)] + [f"G{i}" for i in range(1, int(g.extra) + 1)]
    placed = {name: request.form.get(f"c{name}", "off") for name in names}
    if any(v not in ("off", "left", "right") for v in placed.values()):
        raise InputError("each coin must be off, left or right")
    new: UserWeighing = (
        tuple(int(k) if k.isdigit() else k for k, v in placed.items() if v == "left"),
        tuple(int(k) if k.isdigit() else k for k, v in placed.items() if v == "right"),
    )
    try:
        if verdict(g, t, len(ws)) or _mover(g, len(ws)) != "you":
            raise IllegalMoveError("it is not your turn")
        why = t.refusal(new, g.convention)
    except IllegalMoveError as e:
        why = str(e)
    if why:
        return _play_page(g, ws, 0, error=f"Refused: {why}.", placed=placed), 400
    return go(g.url(w=format_weighings(_advance(g, (*ws, new)))))


@lru_cache(maxsize=4)
def table_cells(max_coins: int) -> tuple[Cell, ...]:
    """The comparison table (cached: it is the same for everyone)."""
    return tuple(cells(max_coins))


@bp.get("/table")
def table() -> str:
    """Grundy values by exhaustive search beside the paper's formulas, disagreements flagged."""
    max_coins = params.whole(request.args, "max", 30, 1, MAX_TABLE_COINS, "max")
    rows = table_cells(max_coins)
    columns = [("F", False), ("FI", False), ("F", True), ("FI", True), ("D", False), ("D", True)]
    index = {(c.convention, c.game, c.n, c.extra): c for c in rows if c.game != "D" or (c.light == c.n)}
    grid = {
        conv: [(n, [index.get((conv, game, n, extra)) for game, extra in columns]) for n in range(1, max_coins + 1)]
        for conv in CONVENTIONS
    }
    flagged = {
        conv: [c for c in rows if c.convention == conv and c.game == "D" and not c.agrees] for conv in CONVENTIONS
    }
    return render(
        "aequitas/table.html",
        "aequitas/_table.html",
        grid=grid,
        flagged=flagged,
        max_coins=max_coins,
        agree=agreement(list(rows)),
        names=CONVENTION_NAMES,
        play_url=cell_url,
    )


def cell_url(c: Cell) -> str:
    """A playable position for a table cell, with hints (its certificate) shown."""
    fake = 1
    if c.game == "D":
        fake = 1 if c.fake_light else c.light + 1
    g = Game(c.game, c.n, c.extra, c.light, fake, not c.fake_light, c.convention, "you")
    return g.url(hint="1")


def position_report(args: Mapping[str, str]) -> dict[str, object]:
    """The API's view of a starting position: value, outcome and winning moves."""
    game = params.choice(args, "game", GAMES)
    n = params.whole(args, "coins", None, 1, MAX_PLAY_COINS, "coins")
    misere = params.flag(args, "misere")
    conv_default = PAPER_MISERE if misere else "normal"
    convention: Convention = params.choice(  # type: ignore[assignment]
        {**args, "convention": args.get("convention") or conv_default}, "convention", CONVENTIONS
    )
    if misere != (convention != "normal"):
        raise InputError("misere and convention disagree")
    light = 0
    fake_light = False
    if game == "D":
        light = params.whole(args, "light", n, 0, n, "light")
        heavy = params.whole(args, "heavy", n - light, 0, n, "heavy")
        if light + heavy != n:
            raise InputError("light + heavy must equal coins")
        fake_light = params.choice(args, "fake", ("light", "heavy") if light else ("heavy",)) == "light"
        if not fake_light and heavy == 0:
            raise InputError("the fake cannot be heavy: no coin is heavy-destined")
    extra = params.flag(args, "extra")
    fake = (1 if fake_light else light + 1) if game == "D" else 1
    g = Game(game, n, extra, light, fake, not fake_light, convention, "you")
    t = g.start()
    pos, mirrored = t.position()
    value = grundy(pos, t.goal, convention)
    winning = [
        {"left": list(w[0]), "right": list(w[1]), "leads_to": child.to_token(), "grundy": 0}
        for child, m in playable(pos, t.goal, convention)
        if grundy(child, t.goal, convention) == 0
        for w in [realise(t, m, mirrored)]
    ]
    destiny = ("light" if fake_light else "heavy") if game == "D" else None
    return {
        "game": game,
        "coins": n,
        "misere": misere,
        "extra": extra,
        "convention": convention,
        "light": light if game == "D" else None,
        "fake": destiny,
        "position": pos.to_token(),
        "grundy": value,
        "outcome": "P" if value == 0 else "N",
        "winning_moves": winning,
    }


def table_report(max_coins: int) -> dict[str, object]:
    """The whole comparison table as JSON-ready data."""
    rows = table_cells(max_coins)
    agree = agreement(list(rows))
    return {
        "max_coins": max_coins,
        "paper_tables_use": PAPER_MISERE,
        "agreement": {k: {"agree": a, "cells": n} for k, (a, n) in agree.items()},
        "cells": [
            {
                "game": c.game,
                "coins": c.n,
                "extra": c.extra,
                "light": c.light if c.game == "D" else None,
                "fake": ("light" if c.fake_light else "heavy") if c.game == "D" else None,
                "convention": c.convention,
                "grundy": c.searched,
                "paper": c.paper,
                "source": c.source,
                "agrees": c.agrees,
                **(
                    {}
                    if c.agrees
                    else {"certificate": [{"position": p, "grundy": v, "reveals": r} for p, v, r in c.certificate()]}
                ),
            }
            for c in rows
        ],
    }


@api.get("/aequitas")
def aequitas_json() -> Response:
    """A starting position's Grundy value, outcome class and winning moves; table=1 for the whole table."""
    if params.flag(request.args, "table"):
        return jsonify(table_report(params.whole(request.args, "max_coins", 30, 1, MAX_TABLE_COINS, "max_coins")))
    return jsonify(position_report(request.args))

"""The Devil's blindfold game: play (adversarial or random Devil), peek at the belief, step through the solution."""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlencode

from flask import Blueprint, Response, jsonify, request, url_for

from solvers.devil import (
    GOALS,
    MAX_COINS,
    Solution,
    Variant,
    belief_classes,
    digits,
    goal_configs,
    positions,
    searchable,
    solve,
    symmetries,
    verify,
)
from solvers.errors import InputError

from . import params
from .htmx import go, render
from .secretbox import seal, unseal

bp = Blueprint("devil", __name__, url_prefix="/devil")
api = Blueprint("devil_api", __name__, url_prefix="/api")

DEVILS = ("adversarial", "random")
MAX_MOVES = 300
PAGE = 32
RING_LIMIT = 64


@dataclass(frozen=True)
class Game:
    """A game's settings as the URL carries them."""

    variant: Variant
    devil: str
    token: str

    def query(self, **more: str) -> dict[str, str]:
        """Canonical query parameters."""
        v = self.variant
        base = {"n": str(v.n), "devil": self.devil, "goal": v.goal, "reflections": str(int(v.reflections))}
        if self.token:
            base["t"] = self.token
        return {**base, **{k: val for k, val in more.items() if val}}

    def url(self, endpoint: str = "devil.play", **more: str) -> str:
        """A URL of this game."""
        return url_for(endpoint) + "?" + urlencode(self.query(**more))


def parse_variant(args: Mapping[str, str], states: bool = False) -> Variant:
    """The variant from the query; 400 when out of range."""
    n = params.whole(args, "n", None, 1, MAX_COINS, "The number of coins (n)")
    m = params.whole(args, "states", 2, 2, 6, "states") if states else 2
    try:
        return Variant(n, params.choice(args, "goal", GOALS), params.flag(args, "reflections"), m)  # type: ignore[arg-type]
    except InputError as e:
        raise InputError(str(e)) from e


def parse_game(args: Mapping[str, str]) -> Game:
    """Variant, Devil and (random Devil) the sealed hidden table."""
    v = parse_variant(args)
    devil = params.choice(args, "devil", DEVILS)
    token = args.get("t", "") if devil == "random" else ""
    if devil == "random" and not token:
        raise InputError("a game against the random Devil needs its game token (start a new game)")
    return Game(v, devil, token)


def parse_moves(v: Variant, text: str) -> tuple[int, ...]:
    """Moves from the URL: hexadecimal bitmasks of positions to flip, comma-separated."""
    if not text:
        return ()
    parts = text.split(",")
    if len(parts) > MAX_MOVES:
        raise InputError(f"at most {MAX_MOVES} moves in one game")
    out = []
    for part in parts:
        try:
            mask = int(part, 16)
        except ValueError as e:
            raise InputError("moves are hexadecimal bitmasks of places, like 5 for places 0 and 2") from e
        if not 0 <= mask < 1 << v.n or len(part) > 4:
            raise InputError(f"a move names places 0 to {v.n - 1}")
        out.append(mask)
    return tuple(out)


def format_moves(moves: tuple[int, ...]) -> str:
    """Moves as the URL carries them."""
    return ",".join(f"{m:x}" for m in moves)


def _game_key(v: Variant) -> str:
    """What a random Devil's token is bound to."""
    return f"devil/{v.n}/{v.goal}/{int(v.reflections)}"


def _seal(v: Variant) -> str:
    """A sealed hidden table: a random starting configuration (not already won) and a seed for rotations."""
    start = secrets.choice([c for c in range(v.configs) if c not in goal_configs(v)]) if v.configs > 1 else 0
    return seal({"table": start, "seed": secrets.token_hex(8)}, _game_key(v))


def _unseal(g: Game) -> tuple[int, str]:
    """The hidden table and seed; 400 if tampered with or from another game."""
    data = unseal(g.token, _game_key(g.variant))
    return int(str(data.get("table", 0))), str(data.get("seed", ""))


def random_play(g: Game, moves: tuple[int, ...]) -> tuple[int | None, int]:
    """Play against the random Devil: (move after which the table is won, or None), and the final table."""
    c, seed = _unseal(g)
    v = g.variant
    perms = symmetries(v)
    if c in goal_configs(v):
        return 0, c
    for i, a in enumerate(moves, 1):
        p = perms[random.Random(f"{seed}:{i}").randrange(len(perms))]
        ds = digits(v, c)
        turned = [ds[p[k]] for k in range(v.n)]
        c = sum(((x + y) % 2) << k for k, (x, y) in enumerate(zip(turned, digits(v, a), strict=True)))
        if c in goal_configs(v):
            return i, c
    return None, c


def adversarial_sizes(v: Variant, moves: tuple[int, ...]) -> tuple[int, ...]:
    """Configurations still possible after each move (the adversarial Devil keeps them all alive)."""
    return verify(v, moves).sizes


def won_at(sizes: tuple[int, ...]) -> int | None:
    """The move after which nothing is left, if any."""
    return next((i for i, s in enumerate(sizes, 1) if s == 0), None)


def rings(v: Variant, moves: tuple[int, ...]) -> list[tuple[int, ...]] | None:
    """The rotation classes still possible, as coin tuples, when few enough to draw."""
    if not searchable(v):
        return None
    classes = belief_classes(v, moves)[-1]
    return [digits(v, c) for c in classes] if len(classes) <= RING_LIMIT else None


@bp.route("", methods=["GET", "POST"])
def setup() -> Response | str | tuple[str, int]:
    """Choose N and the Devil; a valid POST starts the game."""
    if request.method == "GET":
        return render("devil/setup.html", "devil/_setup.html", form=request.args, error=None)
    try:
        v = parse_variant(request.form)
        devil = params.choice(request.form, "devil", DEVILS)
    except InputError as e:
        return render("devil/setup.html", "devil/_setup.html", form=request.form, error=e.message), 400
    return go(Game(v, devil, _seal(v) if devil == "random" else "").url())


@bp.get("/play")
def play() -> str:
    """A position: the blind table, the move counter, history, peek, and the result so far."""
    g = parse_game(request.args)
    moves = parse_moves(g.variant, request.args.get("moves", ""))
    return _play_page(g, moves, params.flag(request.args, "peek"))


def _play_page(g: Game, moves: tuple[int, ...], peek: bool, error: str | None = None) -> str:
    """Render the play page."""
    v = g.variant
    sizes = adversarial_sizes(v, moves)
    if g.devil == "random":
        won, table = random_play(g, moves)
    else:
        won, table = won_at(sizes), None
    if won is not None and won < len(moves):
        raise InputError(f"the game was already won after move {won}")
    sol = solve(v)
    return render(
        "devil/play.html",
        "devil/_play.html",
        g=g,
        v=v,
        moves=moves,
        won=won,
        sol=sol,
        possible=sizes[-1] if sizes else v.configs - len(goal_configs(v)),
        rings=rings(v, moves) if peek else None,
        peek=peek,
        history=[positions(v, a) for a in moves],
        moves_text=format_moves(moves),
        peek_url=g.url(moves=format_moves(moves), peek="" if peek else "1"),
        solution_url=g.url("devil.solution"),
        error=error,
        secret_coins=digits(v, table) if table is not None and won is not None else None,
    )


@bp.post("/flip")
def flip() -> Response | tuple[str, int]:
    """Add a move (the checked places) and show the new position."""
    g = parse_game(request.form)
    moves = parse_moves(g.variant, request.form.get("moves", ""))
    places = request.form.getlist("place")
    if any(not p.isdigit() or int(p) >= g.variant.n for p in places):
        raise InputError(f"places are numbered 0 to {g.variant.n - 1}")
    if len(moves) >= MAX_MOVES:
        raise InputError(f"at most {MAX_MOVES} moves in one game")
    mask = sum(1 << int(p) for p in set(places))
    new = (*moves, mask)
    return go(g.url(moves=format_moves(new), peek=request.form.get("peek", "")))


@bp.get("/solution")
def solution() -> str:
    """Step through the shortest strategy (or the construction), a page of moves at a time."""
    v = parse_variant(request.args)
    sol = solve(v)
    if not sol.solvable or sol.moves is None:
        return render(
            "devil/solution.html",
            "devil/_solution.html",
            v=v,
            sol=sol,
            step=0,
            rows=[],
            nav={},
            rings_before=None,
            rings_after=None,
            size_before=0,
            size_after=0,
        )
    total = len(sol.moves)
    step = params.whole(request.args, "step", 1, 1, max(1, total), "step")
    start = (step - 1) // PAGE * PAGE
    page = [(i + 1, positions(v, sol.moves[i]), sol.sizes[i]) for i in range(start, min(total, start + PAGE))]
    base = {"n": str(v.n), "goal": v.goal, "reflections": str(int(v.reflections))}

    def link(k: int) -> str:
        return url_for("devil.solution") + "?" + urlencode({**base, "step": str(k)})

    nav = {
        "first": link(1),
        "prev": link(max(1, step - 1)),
        "next": link(min(total, step + 1)),
        "last": link(total),
        "link": link,
    }
    small = searchable(v)
    before = belief_classes(v, sol.moves[: step - 1])[-1] if small else None
    after = belief_classes(v, sol.moves[:step])[-1] if small else None
    return render(
        "devil/solution.html",
        "devil/_solution.html",
        v=v,
        sol=sol,
        step=step,
        rows=page,
        nav=nav,
        move=positions(v, sol.moves[step - 1]),
        size_before=v.configs - len(goal_configs(v)) if step == 1 else sol.sizes[step - 2],
        size_after=sol.sizes[step - 1],
        rings_before=[digits(v, c) for c in before] if before is not None and len(before) <= RING_LIMIT else None,
        rings_after=[digits(v, c) for c in after] if after is not None and len(after) <= RING_LIMIT else None,
    )


def report(v: Variant, with_moves: bool) -> dict[str, object]:
    """The API's (and CLI's) answer."""
    sol: Solution = solve(v)
    out: dict[str, object] = {
        "coins": v.n,
        "goal": v.goal,
        "reflections": v.reflections,
        "states": v.states,
        "solvable": sol.solvable,
        "length": sol.length,
        "method": sol.method,
        "verified": sol.verified,
    }
    if sol.reason:
        out["reason"] = sol.reason
    if with_moves and sol.moves is not None:
        if v.states == 2:
            out["moves"] = [positions(v, a) for a in sol.moves]
        else:
            out["moves"] = [[[i, d] for i, d in enumerate(digits(v, a)) if d] for a in sol.moves]
    return out


@api.get("/devil")
def devil_json() -> Response:
    """Shortest sure win (or why none), optionally with the moves."""
    v = parse_variant(request.args, states=True)
    return jsonify(report(v, params.flag(request.args, "moves")))

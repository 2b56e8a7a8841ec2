"""The Devil's blindfold game: play (adversarial or random Devil), peek at the belief, step through the solution."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from flask import Blueprint, Response, jsonify, render_template, request, url_for

from solvers.devil import (
    DEVIL_GOALS,
    DEVIL_MAX_COINS,
    DevilVariant,
    Solution,
    adversarial_sizes,
    flip_mask,
    moves_from_text,
    moves_to_text,
    random_play,
    seeded_turns,
    start_choices,
    won_at,
)
from solvers.devil.report import DevilPlayPage, Line, SolutionStep, devil_report, line_from, play_page, solution_step
from solvers.errors import InputError
from solvers.history import MOVES, RESTART, TAKE_BACK, Chain, chain_from_text, from_log, log_from_text, taken_back
from solvers.report import as_json
from webapp.http import params
from webapp.http.errors import NoGame
from webapp.http.htmx import go, link
from webapp.jobs.access import computed
from webapp.keys.secretbox import Hidden, HiddenGame, whole_field
from webapp.pages.gamebar import Bar, Score, Sealed, StatsKey, format_id, game_bar, id_route, take_back_route
from webapp.pages.puzzle import Puzzle
from webapp.results.catalogue import DEVIL, devil_params

bp = Blueprint("devil", __name__, url_prefix="/devil")
api = Blueprint("devil_api", __name__, url_prefix="/api")

DEVILS = ("adversarial", "random")


@dataclass(frozen=True)
class DevilGame:
    """A game's settings as the URL carries them."""

    variant: DevilVariant
    devil: str
    token: str

    def query(self, **more: str) -> dict[str, str]:
        """Canonical query parameters."""
        v = self.variant
        base = {"n": str(v.n), "devil": self.devil, "goal": v.goal, "reflections": str(int(v.reflections))}
        return {**base, "t": self.token, **more}

    def url(self, endpoint: str = "devil.play", **more: str) -> str:
        """A URL of this game."""
        return link(endpoint, self.query(**more))


def parse_variant(args: Mapping[str, str], states: bool = False) -> DevilVariant:
    """The variant from the query; 400 when out of range."""
    n = params.whole(args, "n", None, 1, DEVIL_MAX_COINS, "The number of coins (n)")
    m = params.whole(args, "states", 2, 2, 6, "states") if states else 2
    try:
        return DevilVariant(n, params.choice(args, "goal", DEVIL_GOALS), params.flag(args, "reflections"), m)
    except InputError as e:
        raise InputError(str(e)) from e


def parse_game(args: Mapping[str, str]) -> DevilGame:
    """Variant, Devil and (random Devil) the sealed hidden table."""
    v = parse_variant(args)
    devil = params.choice(args, "devil", DEVILS)
    token = args.get("t", "") if devil == "random" else ""
    if devil == "random" and not token:
        fields = DevilGame(v, devil, "").query()
        fields.pop("t", None)
        raise NoGame.of("a game against the random Devil", url_for("devil.setup"), fields)
    return DevilGame(v, devil, token)


def _game_key(v: DevilVariant) -> str:
    """What a random Devil's token is bound to."""
    return f"devil/{v.n}/{v.goal}/{int(v.reflections)}"


class DevilTable(NamedTuple):
    """The random Devil's secret: the starting table, and the seed of its turns."""

    table: int
    seed: str


def _table(data: dict[str, object]) -> DevilTable:
    """A sealed Table back."""
    return DevilTable(whole_field(data, "table"), str(data.get("seed", "")))


RANDOM_DEVIL = HiddenGame[DevilTable](",", DevilTable._asdict, _table)
RESIGNED = "resigned"  # how a game against the random Devil that was given up ended (its record's ending)


def _new_random_game(v: DevilVariant) -> str:
    """A recorded game against the random Devil: a hidden starting table (not already won), a seed for its turns."""
    return RANDOM_DEVIL.start(_game_key(v), DevilTable(secrets.choice(start_choices(v)), secrets.token_hex(8)))


def _hidden(g: DevilGame, log: tuple[str, ...]) -> Hidden[DevilTable] | None:
    """The random Devil's sealed table, checked against the game's log of moves and take-backs (None: the
    adversarial Devil)."""
    return RANDOM_DEVIL.open(g.token, _game_key(g.variant), ",".join(log)) if g.devil == "random" else None


def _random_play(g: DevilGame, hidden: Hidden[DevilTable], moves: tuple[int, ...]) -> tuple[int | None, int]:
    """Play the moves against the random Devil sealed in the game's token."""
    table, seed = hidden.secret
    return random_play(g.variant, table, moves, seeded_turns(seed, g.variant))


@bp.route("", methods=["GET", "POST"])
def setup() -> Response | str | tuple[str, int]:
    """Choose N and the Devil; a valid POST starts the game."""
    if request.method == "GET":
        return render_template("devil/setup.html", form=request.args, error=None)
    try:
        v = parse_variant(request.form)
        devil = params.choice(request.form, "devil", DEVILS)
    except InputError as e:
        return render_template("devil/setup.html", form=request.form, error=e.message), 400
    return go(DevilGame(v, devil, _new_random_game(v) if devil == "random" else "").url())


@bp.get("/play")
def play() -> str:
    """A position: the blind table, the move counter, history, peek, and the result so far."""
    g = parse_game(request.args)
    chain = _chain(g, request.args)
    moves = moves_from_text(g.variant, ",".join(chain.applied))
    resigned = params.flag(request.args, "resign")
    return _play_page(
        g, moves, params.flag(request.args, "peek"), chain=chain, log=_log(g, request.args), resigned=resigned
    )


def _log(g: DevilGame, args: Mapping[str, str]) -> tuple[str, ...]:
    """A game against the random Devil: its log of moves (each written canonically) and take-backs, in the order
    made (empty against the adversarial Devil)."""
    if g.devil != "random":
        return ()
    return tuple(
        e if e in (TAKE_BACK, RESTART) else moves_to_text(moves_from_text(g.variant, e))
        for e in log_from_text(params.moves_text(args, MOVES))
    )


def _chain(g: DevilGame, args: Mapping[str, str]) -> Chain:
    """The moves as an undo chain (moves: every move and restart; at: how many are in effect; u: take-backs);
    against the random Devil the game is played forward: moves is its log of moves and take-backs."""
    text = params.moves_text(args, MOVES)
    if g.devil == "random":
        return from_log(_log(g, args))
    chain = chain_from_text(text, args.get("at", ""), args.get("u", ""))
    for state in {*chain.states()}:  # every state a game of this variant, not won before its last move
        moves = moves_from_text(g.variant, ",".join(state))
        won = won_at(adversarial_sizes(g.variant, moves))
        if won is not None and won < len(moves):
            raise InputError(f"the game was already won after move {won}")
    return chain


def game_id(g: DevilGame, moves: tuple[int, ...]) -> str:
    """A game against the adversarial Devil as a short ID: coins, goal, reflections and the moves in effect (e.g.
    '4:all-heads:0:5,3')."""
    v = g.variant
    return format_id((v.n, v.goal, int(v.reflections)), moves_to_text(moves))


@id_route(bp, 4, "a Devil", "coins:goal:reflections:moves, like 4:all-heads:0:5,3", sealed=True)
def _opened(parts: list[str], token: str | None) -> str:
    """Open the game an ID describes: n:goal:reflections:moves (the adversarial Devil), or n:goal:reflections#token
    (a game against the random Devil: its latest position)."""
    q = {"n": parts[0], "goal": parts[1], "reflections": parts[2]}
    if token is not None:
        g = DevilGame(parse_variant(q), "random", token)
        record = RANDOM_DEVIL.latest(token, _game_key(g.variant))
        return DevilGame(g.variant, "random", record.token).url(moves=record.history)
    g = DevilGame(parse_variant(q), "adversarial", "")
    chain = _chain(g, {MOVES: parts[3]})
    return g.url(moves=",".join(chain.applied))


def _play_page(
    g: DevilGame,
    moves: tuple[int, ...],
    peek: bool,
    error: str | None = None,
    chain: Chain | None = None,
    log: tuple[str, ...] = (),
    resigned: bool = False,
) -> str:
    """Render the play page: its model from the solvers, its links, bar and result here (resigned: the visitor
    gave the game up)."""
    v = g.variant
    chain = chain or Chain(tuple(moves_to_text((m,)) for m in moves), len(moves))
    hidden = _hidden(g, log)
    played: tuple[int | None, int | None] = _random_play(g, hidden, moves) if hidden is not None else (None, None)
    sol: Solution = computed(DEVIL, devil_params(v))
    back = moves_from_text(v, ",".join(taken_back(log)))
    page = play_page(v, moves, sol, played, peek, back)
    if hidden is not None:  # a game against the random Devil is given up once, in its record (`give_up`)
        resigned = hidden.standing == "over" and hidden.record.ending == RESIGNED
    resigned = resigned and page.won is None
    view = _play_links(g=g, page=page, peek=peek, chain=chain, log=log, hidden=hidden, error=error, resigned=resigned)
    return render_template("devil/play.html", page=page, view=view)


def _score(page: DevilPlayPage, resigned: bool) -> Score | None:
    """The end screen once the Devil is beaten or the visitor gave up (None before)."""
    sol = page.sol
    best = len(sol.moves) if sol.solvable and sol.moves is not None else None
    if page.won is not None:
        return Score("The Devil is beaten!", True, page.won, best, "moves")
    if resigned:
        none = None if best is not None else "none: no sequence of moves is sure to win"
        return Score("You gave up: the Devil keeps its table", False, len(page.moves), best, "moves", none)
    return None


class DevilPlayLinks(NamedTuple):
    """What the play page adds to its model: the game, its bar (with the result), the form's fields, the links to peek
    and to the solution from here, and a refusal."""

    g: DevilGame
    bar: Bar
    fields: dict[str, str]
    peek: bool
    peek_url: str
    solution_url: str
    error: str | None
    resigned: bool  # the visitor gave the game up
    give_up_url: str  # this position, given up


def _play_links(
    g: DevilGame,
    page: DevilPlayPage,
    peek: bool,
    chain: Chain,
    log: tuple[str, ...],
    hidden: Hidden[DevilTable] | None,
    error: str | None,
    resigned: bool,
) -> DevilPlayLinks:
    """The play page's links, bar and result."""
    v, moves, adversarial = g.variant, page.moves, g.devil == "adversarial"
    hints = params.hints_used(request.args) if request.method == "GET" else 0
    moves_field = chain.query(MOVES) if adversarial else {MOVES: ",".join(log)}
    fields = g.query(**moves_field, peek="1" if peek else "")
    bar = game_bar(
        game_id(g, moves) if adversarial else format_id((v.n, v.goal, int(v.reflections)), token=g.token),
        g.url(moves=moves_to_text(moves) if adversarial else ",".join(log)),
        chain,
        (lambda c: g.url(**c.query(MOVES), peek="1" if peek else "")) if adversarial else None,
        hints=hints,
        stats=StatsKey(
            f"devil:{v.n}:{v.goal}:{int(v.reflections)}:{g.devil}", f"{v.n} coins against the {g.devil} Devil"
        ),
        end=_score(page, resigned),
        sealed=_sealed(request.values, hidden) if hidden is not None else None,
    )
    return DevilPlayLinks(
        g=g,
        bar=bar,
        fields=fields,
        peek=peek,
        peek_url=g.url(**moves_field, peek="" if peek else "1"),
        # the game's own fields ride along (the solution's way back), its hints counting this solution
        solution_url=link(
            "devil.solution",
            {**g.query(**moves_field, peek="1" if peek else ""), "from": moves_to_text(moves), "h": str(hints + 1)},
        ),
        error=error,
        resigned=resigned,
        give_up_url=g.url(**moves_field, resign="1"),
    )


@bp.post("/flip")
def flip() -> Response | tuple[str, int]:
    """Add a move (the checked places) and show the new position."""
    g = parse_game(request.form)
    chain = _chain(g, request.form)
    moves = moves_from_text(g.variant, ",".join(chain.applied))
    peek = request.form.get("peek", "")
    try:
        new = (*moves, flip_mask(g.variant, request.form.getlist("place")))
    except InputError as e:  # the position again, with what was wrong with the move
        return _play_page(g, moves, params.flag(request.form, "peek"), e.message, chain, _log(g, request.form)), 400
    moves_from_text(g.variant, moves_to_text(new))  # the same limits as a move read from a URL
    if g.devil == "adversarial":
        return go(g.url(**chain.play(moves_to_text(new[-1:])).query(MOVES), peek=peek))
    log = _log(g, request.form)
    hidden = RANDOM_DEVIL.open(g.token, _game_key(g.variant), ",".join(log))
    won, _ = _random_play(g, hidden, new)
    new_log = ",".join((*log, moves_to_text(new[-1:])))
    token = RANDOM_DEVIL.advance(_game_key(g.variant), hidden, new_log, "won" if won is not None else None)
    return go(DevilGame(g.variant, g.devil, token).url(moves=new_log, peek=peek))


@bp.post("/give-up")
def give_up() -> Response:
    """Give a game against the random Devil up: its record ends there, so that no tab plays it on, and it is counted
    once (the adversarial Devil's Give up is a link: its whole game is in the URL)."""
    p = _sealed(request.form)
    return go(p.at(p.hidden.record.history, RANDOM_DEVIL.finish(p.kind, p.hidden, RESIGNED), RESIGNED))


def _sealed(form: Mapping[str, str], opened: Hidden[DevilTable] | None = None) -> Sealed:
    """The random Devil's position a take-back form posts (the adversarial Devil's take-backs are links), or that a
    page has opened already (its record read once a view)."""
    g = parse_game(form)
    if g.devil != "random":
        raise InputError(
            "this form is for games against the random Devil; the adversarial Devil's take-backs and give-up are links"
        )
    log = _log(g, form)
    hidden = opened or RANDOM_DEVIL.open(g.token, _game_key(g.variant), ",".join(log))

    def at(history: str, token: str, ending: str) -> str:  # (the record says how it ended)
        return DevilGame(g.variant, g.devil, token).url(moves=history, peek=form.get("peek", ""))

    fields = g.query(moves=",".join(log), peek=form.get("peek", ""))
    return Sealed(RANDOM_DEVIL, _game_key(g.variant), hidden, log, "move", at, fields=fields)


take_back_route(bp, _sealed)


@bp.get("/solution")
def solution() -> str:
    """Step through the shortest strategy (or the construction), a page of moves at a time."""
    v = parse_variant(request.args)
    sol: Solution = computed(DEVIL, devil_params(v))
    played = moves_from_text(v, request.args.get("from", ""))
    if played and won_at(adversarial_sizes(v, played)) is not None:
        raise InputError("these moves have already won the game: there is nothing left to solve")
    line = line_from(v, sol, played)
    back = _back(v, request.args)
    if line is None:
        return render_template("devil/solution.html", solution=SolutionPage(v, sol, None, {}, None, back))
    step = params.whole(request.args, "step", line.first, line.first, max(1, len(line.moves)), "step")
    page = solution_step(v, line, step)
    base = {
        "n": str(v.n),
        "goal": v.goal,
        "reflections": str(int(v.reflections)),
        "from": moves_to_text(played),
        **_back_fields(request.args),
    }

    def step_url(k: int) -> str:
        return link("devil.solution", {**base, "step": k})

    nav: dict[str, str | Callable[[int], str]] = {
        "first": step_url(line.first),
        "prev": step_url(max(line.first, step - 1)),
        "next": step_url(min(page.total, step + 1)),
        "last": step_url(page.total),
        "link": step_url,
    }
    return render_template("devil/solution.html", solution=SolutionPage(v, sol, page, nav, line, back))


BACK_FIELDS = ("devil", "t", MOVES, "at", "u", "peek", "h")  # a game's fields a solution page carries back to it


def _back_fields(args: Mapping[str, str]) -> dict[str, str]:
    """The fields of the game a solution page was opened from (none when opened on its own)."""
    return {k: args[k][:200_000] for k in BACK_FIELDS if args.get(k)} if args.get("devil") in DEVILS else {}


def _back(v: DevilVariant, args: Mapping[str, str]) -> str | None:
    """The game a solution page was opened from, its hints counting the solution (None: opened on its own; the play
    page checks the fields when it is opened)."""
    fields = _back_fields(args)
    if not fields:
        return None
    return link("devil.play", {"n": str(v.n), "goal": v.goal, "reflections": str(int(v.reflections)), **fields})


class SolutionPage(NamedTuple):
    """The solution's page: the game, its solution, the step shown of the line from the position asked (none when
    there is none), the step links (first, prev, next, last, and `link` for any step), that line, and the way back
    to the game it was opened from."""

    v: DevilVariant
    sol: Solution
    page: SolutionStep | None
    nav: dict[str, str | Callable[[int], str]]
    line: Line | None
    back: str | None = None


@api.get("/devil")
@params.takes("n goal reflections states moves")
def devil_json() -> Response:
    """Shortest sure win (or why none), optionally with the moves."""
    v = parse_variant(request.args, states=True)
    return jsonify(as_json(devil_report(v, params.flag(request.args, "moves"), computed(DEVIL, devil_params(v)))))


puzzle = Puzzle(
    area="devil",
    name="The Devil's blindfold game",
    endpoint="devil.setup",
    blurb="Flip coins on a rotating table you cannot see.",
    picture="A round table with four coins, heads and tails, and an arrow turning it",
    sources="Shortest sure wins by exhaustive search, Lamping's construction verified on every table. Source: "
    "Norvig, 'The Devil and the Coin Flip Game', with John Lamping's proof.",
    blueprints=(bp, api),
    presets=(
        ("4 coins (the classic)", "devil.play", {"n": "4"}),
        ("8 coins", "devil.play", {"n": "8"}),
    ),
)

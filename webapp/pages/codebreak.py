"""Code-breaking games: game pages, Mastermind play (random or adversarial code maker), plan navigator, API."""

from __future__ import annotations

import secrets as pysecrets
import time
from collections.abc import Callable, Mapping
from typing import NamedTuple

from flask import Blueprint, Response, jsonify, render_template, request, url_for

from solvers.codebreak import HEURISTICS, STRATEGIES, Game, Node, Spec, Stats, Strategy
from solvers.codebreak.coins import MAX_GENERATED_COINS
from solvers.codebreak.game import summary
from solvers.codebreak.lesson import CodeLesson
from solvers.codebreak.play import (
    CodePlayPage,
    Round,
    code_index,
    code_text,
    play_page,
    play_round,
    refusal,
    suggestions,
    top,
)
from solvers.codebreak.report import codebreak_report
from solvers.codebreak.solve import TreeRequest
from solvers.codebreak.strategy import GUESS_CAP_MAX, OPTIMAL, not_offered
from solvers.errors import InputError, LimitError
from solvers.history import MOVES, Chain, chain_from_text, from_log, log_from_text, taken_back
from solvers.report import as_json
from webapp.http import params
from webapp.http.errors import NoGame
from webapp.http.htmx import go, link
from webapp.jobs.access import Busy, JobFailed, Pending, computed, peek
from webapp.jobs.precompute import PRECOMPUTED_OPTIMAL, PRECOMPUTED_POSSIBLE_ONLY
from webapp.keys.secretbox import Hidden, HiddenGame, whole_field
from webapp.pages.gamebar import Bar, Score, Sealed, StatsKey, format_id, game_bar, id_route, take_back_route
from webapp.results.codebreak_results import (
    CODEBREAK,
    LESSON,
    codebreak_params,
    game_params,
    lesson_params,
    sized_title,
)
from webapp.results.games import Sizes, default_sizes, load, shipped
from webapp.store import Progress

bp = Blueprint("codebreak", __name__, url_prefix="/codebreak")
api = Blueprint("codebreak_api", __name__, url_prefix="/api")
PEGS, COLOURS = (1, 6), (2, 10)  # the sizes a game may be played at (the form's bounds are these)


def _sizes(args: Mapping[str, str], spec: Spec) -> Sizes:
    """Pegs, colours and coins from the query (None: the file's own)."""
    if spec.secrets[0] == "coins":
        coins = params.whole(args, "coins", int(spec.secrets[1].get("count", "4")), 2, MAX_GENERATED_COINS, "coins")
        return None, None, coins
    pegs = params.whole(args, "pegs", int(spec.secrets[1].get("length", "4")), *PEGS, "pegs")
    colours = params.whole(args, "colours", int(spec.secrets[1].get("colours", "6")), *COLOURS, "colours")
    return pegs, colours, None


def game_args(args: Mapping[str, str]) -> tuple[str, Spec, Game, Sizes]:
    """The shipped game named in the query, built and kept in this process (`games.load`: every tabled game builds
    within 0.31 s here, quicker than decoding a stored one, `QUICK_GAME_SECRETS`, and the larger ones are scored on
    demand); 400 on anything out of range."""
    name = args.get("game", "mastermind")
    spec = shipped().get(name)
    if spec is None:
        raise InputError(f"no shipped game {name[:40]!r}")
    sizes = _sizes(args, spec)
    return name, spec, load(name, *sizes), sizes


def size_query(sizes: Sizes) -> dict[str, str]:
    """The sizes a URL carries."""
    return {k: str(v) for k, v in zip(("pegs", "colours", "coins"), sizes, strict=True) if v is not None}


def strategy_arg(args: Mapping[str, str]) -> Strategy:
    """The strategy named in the query (knuth by default)."""
    return params.choice(args, "strategy", STRATEGIES)


@bp.get("")
def index() -> str:
    """The shipped games."""
    games = shipped()
    summaries = {k: summary(s) for k, s in games.items()}
    return render_template("codebreak/index.html", games=games, summaries=summaries, pegs=PEGS, colours=COLOURS)


@bp.get("/game")
def game_page() -> str:
    """A game's definition file beside its strategies' statistics (and, where a guess is a code, the optimal
    average among strategies guessing only codes still possible)."""
    name, spec, g, sizes = game_args(request.args)
    rows: list[StrategyRow] = []
    sizes_query = size_query(sizes)
    for s in STRATEGIES:
        for only in (False, True) if s == "optimal-average" and g.guesses_are_codes else (False,):
            label = f"{s}, possible codes only" if only else s
            query = {**sizes_query, "possible_only": "1"} if only else sizes_query
            refused = not_offered(g, s, only)
            if refused:
                rows.append(StrategyRow(label, s, query, refused))
            else:
                found = _stats_or_progress(name, sizes, s, sizes == default_sizes(spec), only)
                rows.append(StrategyRow(label, s, query, found))
    pending = any(isinstance(r.stats, Progress) for r in rows)
    page = GamePage(name=name, spec=spec, about=summary(spec), g=g, rows=rows, sizes=sizes_query, pending=pending)
    return render_template("codebreak/game.html", page=page)


class GamePage(NamedTuple):
    """A game's page: its name, definition and summary, the game at the sizes asked, a row per strategy, the sizes'
    query, and whether a row is still being computed (the page then refreshes)."""

    name: str
    spec: Spec
    about: str
    g: Game
    rows: list[StrategyRow]
    sizes: dict[str, str]
    pending: bool


class StrategyRow(NamedTuple):
    """A strategy's row on a game's page."""

    label: str
    strategy: Strategy
    query: dict[str, str]  # the plan link's query beside game and strategy
    stats: Stats | Progress | str | None


def _stats_or_progress(
    name: str, sizes: Sizes, strategy: Strategy, file_sizes: bool, possible_only: bool = False
) -> Stats | Progress | str | None:
    """A strategy's statistics, or the progress of the job computing them (the page polls until all are there).
    An optimal search that is neither quick nor in the precomputed list (at the game file's sizes) is never
    started by viewing the table (only by opening its plan): the table shows it when stored, or the refusal it
    ended with."""
    params = codebreak_params(name, sizes, strategy, possible_only=possible_only)
    listed = name in PRECOMPUTED_POSSIBLE_ONLY if possible_only else (name, strategy) in PRECOMPUTED_OPTIMAL
    try:
        if strategy in OPTIMAL and not (listed and file_sizes) and not CODEBREAK.quick(params):
            found = peek(CODEBREAK, params)
            return None if found is None else found[1]
        return computed(CODEBREAK, params)[1]
    except Pending as e:
        return e.progress
    except Busy:  # this visitor's other rows are computing: this one waits for the next refresh
        return Progress("queued", 0, 0, "", time.time())
    except (LimitError, JobFailed) as e:
        return str(e)


# ---------------------------------------------------------------- playing Mastermind


RANDOM_CODE = HiddenGame[int](",", lambda secret: {"secret": secret}, lambda data: whole_field(data, "secret"))


def _game_key(name: str, sizes: Sizes) -> str:
    """What a random code's token is bound to."""
    return "codebreak/" + "/".join(map(str, (name, *sizes)))


@bp.get("/play")
def play() -> str:
    """A Mastermind game: guesses in the URL; the code maker random (sealed) or adversarial. Against the
    adversarial maker the guesses are an undo chain (g: every guess and restart, at: how many are in effect)."""
    name, spec, g, sizes = game_args(request.args)
    maker = params.choice(request.args, "maker", ("adversarial", "random"))
    log = log_from_text(params.moves_text(request.args, "g"))
    chain = _guess_chain(g, maker, log)
    guesses = tuple(code_index(g, x) for x in chain.applied)
    token = request.args.get("t", "") if maker == "random" else ""
    if maker == "random" and not token:
        fields = {"game": name, "maker": maker, **size_query(sizes)}
        raise NoGame.of("a game against the random code maker", url_for("codebreak.start"), fields)
    hidden = RANDOM_CODE.open(token, _game_key(name, sizes), ",".join(log)) if maker == "random" else None
    secret = hidden.secret if hidden is not None else None
    r = play_round(g, guesses, secret)
    symbols = sizes[1] or len(set("".join(g.secrets)))
    page = play_page(g, maker, r, secret, symbols, request.args.get("refused", ""))
    return render_template("codebreak/play.html", page=page, view=_play_links(name, sizes, page, chain, log, hidden))


def _guess_chain(g: Game, maker: str, log: tuple[str, ...]) -> Chain:
    """The guesses: against the random maker played forward (the log of guesses and take-backs is what the token
    vouches for); against the adversarial maker an undo chain, every state of it a game (a redo never fails)."""
    if maker == "random":
        return from_log(log)
    chain = chain_from_text(params.moves_text(request.args, "g"), request.args.get("at", ""), request.args.get("u", ""))
    for state in {*chain.states()}:
        play_round(g, tuple(code_index(g, x) for x in state))
    return chain


class CodePlayLinks(NamedTuple):
    """What the play page adds to its model: the game's name, its bar (with the result), the form's fields (the game's
    query and the chain's), the hints asked for, the hint's link, the solver's suggestions, the judgement of the
    last guess, the guesses taken back with their scores."""

    name: str
    bar: Bar
    base: dict[str, str]
    chain: dict[str, str]
    h: int
    hint_url: str
    suggest: dict[str, str | None]
    judged: CodeLesson | Progress | str | None
    taken_back: list[tuple[str, str]]


def _play_links(
    name: str, sizes: Sizes, page: CodePlayPage, chain: Chain, log: tuple[str, ...], hidden: Hidden[int] | None
) -> CodePlayLinks:
    """The play page's links, bar, result, suggestions and judgement."""
    g, r, maker = page.game, page.round, page.maker
    hints = params.hints_used(request.args)
    history = ",".join(log)
    token = request.args.get("t", "") if maker == "random" else ""
    base = {"game": name, "maker": maker, "t": token, **size_query(sizes)}
    keep = {"h": hints or ""}

    def at(c: Chain, **more: object) -> str:
        return link("codebreak.play", {**base, **c.query(MOVES), **keep, **more})

    adversarial = maker == "adversarial"
    moves = chain.shared().query(MOVES) if adversarial else {MOVES: history}  # no undo history, no hints counted
    share = link("codebreak.play", {**base, **moves})
    bar = _bar(name=name, sizes=sizes, page=page, chain=chain, at=at, share=share, hints=hints, hidden=hidden)
    return CodePlayLinks(
        name=name,
        bar=bar,
        base={k: v for k, v in base.items() if v},
        chain=chain.query(MOVES) if adversarial else {MOVES: history},
        h=hints,
        hint_url=at(chain, hint="1", h=hints + 1)
        if adversarial
        else link("codebreak.play", {**base, MOVES: history, "hint": "1", "h": hints + 1}),
        suggest=_suggest(name, sizes, g, r) if params.flag(request.args, "hint") and not r.won else {},
        judged=_judged(name, sizes, g, r) if r.guesses else None,
        taken_back=_taken_back(g, log, hidden.secret if hidden is not None else None) if not adversarial else [],
    )


def _bar(
    name: str,
    sizes: Sizes,
    page: CodePlayPage,
    chain: Chain,
    at: Callable[[Chain], str],
    share: str,
    hints: int,
    hidden: Hidden[int] | None,
) -> Bar:
    """The game's bar: its ID (the guesses, or the sealed token of a random maker's game), undo and redo against
    the adversarial maker (or the random maker's take-back and its form's fields), and the win screen once the code
    is broken."""
    g, r, adversarial = page.game, page.round, page.maker == "adversarial"
    guesses = ",".join(code_text(g, e) for e in r.guesses)  # as the page shows them (digits)
    token = request.args.get("t", "")
    ident = format_id((name, _size_text(sizes)), guesses, token=None if adversarial else token)  # AABB,CDEF or #t
    score = _score(name, sizes, page.maker, len(r.guesses)) if r.won else None
    stats = _stats(name, sizes, page.maker)
    live, sealed = (at, None) if adversarial else (None, _sealed(request.values, hidden))
    return game_bar(ident, share, chain, live, hints=hints, stats=stats, end=score, sealed=sealed)


def _size_text(sizes: Sizes) -> str:
    """A game's sizes as its ID writes them: pegs x colours, or the number of coins ('' for the file's own)."""
    pegs, colours, coins = sizes
    if coins is not None:
        return str(coins)
    return f"{pegs}x{colours}" if pegs is not None and colours is not None else ""


@id_route(bp, 3, "a code-breaking", "game:PxC:guesses, like mastermind:4x6:AABB,CDEF", sealed=True)
def _opened(parts: list[str], token: str | None) -> str:
    """Open the game an ID describes: name:PxC:guesses (the adversarial code maker), or name:PxC#token (a game
    against the random code maker: its latest position)."""
    sizes_text = parts[1]
    query: dict[str, str] = {"game": parts[0]}
    if "x" in sizes_text:
        query["pegs"], _, query["colours"] = sizes_text.partition("x")
    elif sizes_text:
        query["coins"] = sizes_text
    name, spec, g, sizes = game_args(query)
    if token is not None:
        record = RANDOM_CODE.latest(token, _game_key(name, sizes))
        return link("codebreak.play", {**query, "maker": "random", "t": record.token, MOVES: record.history})
    guesses = tuple(code_index(g, x) for x in parts[2].split(",") if x.strip())
    play_round(g, guesses)
    moves = ",".join(code_text(g, e) for e in guesses)
    return link("codebreak.play", {**query, "maker": "adversarial", MOVES: moves})


def _judged(name: str, sizes: Sizes, g: Game, r: Round) -> CodeLesson | Progress | str | None:
    """The last guess's worth against the best guess (a background job when the codes still possible before it
    are many; a refusal when too many); None for games that are not guess-the-code."""
    lp = lesson_params(name, sizes, g, r, peek)
    try:
        return computed(LESSON, lp)
    except Pending as e:
        return e.progress
    except Busy:
        return Progress("queued", 0, 0, "", time.time())
    except (LimitError, JobFailed) as e:
        return str(e)


def _stats(name: str, sizes: Sizes, maker: str) -> StatsKey:
    """What the browser's statistics are kept per: the game, its sizes and the code maker."""
    label = f"{sized_title(game_params(name, sizes))} against the {maker} code maker"  # 'Mastermind 4x6 ...'
    return StatsKey(f"codebreak:{name}:{_size_text(sizes)}:{maker}", label)


def _score(name: str, sizes: Sizes, maker: str, guesses: int) -> Score:
    """The win screen: guesses against the proved best (the least worst case against the adversarial maker, the
    least average against the random one), when the proof is quick or stored."""
    optimum, best_text = None, None
    params = codebreak_params(name, sizes, "optimal-worst" if maker == "adversarial" else "optimal-average")
    found = computed(CODEBREAK, params) if CODEBREAK.quick(params) else peek(CODEBREAK, params)
    if found is not None and maker == "adversarial":
        optimum = found[1].worst
    elif found is not None:  # a random code: the best play's average over every code, not one game's count
        stats = found[1]
        best_text = (
            f"{stats.total / stats.secrets:.4f} guesses on average over the {stats.secrets:,} codes "
            f"({stats.total:,} guesses in all)"
        )
    return Score("You broke the code!", True, guesses, optimum, "guesses", best_text)


_TOPS: dict[str, Node] = {}  # a stored tree's expensive top (`top`), per store key, kept in this process


def _suggest(name: str, sizes: Sizes, g: Game, r: Round) -> dict[str, str | None]:
    """The heuristics' suggestions, read from the tops of their stored trees where the game has followed them
    (a stored result never changes under its key, so each process reads a tree once: Super Mastermind's take
    a fraction of a second each to decode, their tops a few kilobytes to keep)."""
    trees: dict[str, Node | None] = {}
    for s in HEURISTICS:
        params = codebreak_params(name, sizes, s)
        key = CODEBREAK.key(params)
        if (node := _TOPS.get(key)) is None:  # read once: another thread may clear the cache in between
            stored = peek(CODEBREAK, params)
            if stored is None:
                trees[s] = None
                continue
            if len(_TOPS) >= 64:
                _TOPS.clear()
            node = _TOPS[key] = top(g, stored[0])
        trees[s] = node
    return suggestions(g, r, trees)


@bp.post("/start")
def start() -> Response:
    """Start a Mastermind game (a random secret is sealed into the URL)."""
    name, spec, g, sizes = game_args(request.form)
    maker = params.choice(request.form, "maker", ("adversarial", "random"))
    token = ""
    if maker == "random":
        token = RANDOM_CODE.start(_game_key(name, sizes), pysecrets.randbelow(len(g.secrets)))
    return go(link("codebreak.play", {"game": name, "maker": maker, "t": token, **size_query(sizes)}))


@bp.post("/guess")
def guess() -> Response:
    """Add a guess made of one colour per peg (against the adversarial maker: to the undo chain, dropping what
    could have been redone). A guess that is not a code of the game (a peg left empty, a colour repeated where
    codes never repeat one) changes nothing: the game comes back with the reason beside the guess row."""
    name, spec, g, sizes = game_args(request.form)
    length = len(g.secrets[0])
    code = "".join((request.form.get(f"p{i}", "") or "?")[:1] for i in range(length)).upper()
    q = {k: v for k, v in request.form.items() if k in ("game", "maker", "t", "pegs", "colours", "coins")}
    q["h"] = params.hints(request.form)
    random_maker = q.get("maker") == "random"
    log = log_from_text(params.moves_text(request.form, "g"))
    chain = chain_from_text(params.moves_text(request.form, "g"), request.form.get("at", ""), request.form.get("u", ""))
    if refusal(g, code) is not None:
        here = {MOVES: ",".join(log)} if random_maker else chain.query(MOVES)
        return go(link("codebreak.play", {**q, **here, "refused": code}))
    new = code_index(g, code)
    if random_maker:
        hidden = RANDOM_CODE.open(q.get("t", ""), _game_key(name, sizes), ",".join(log))
        new_log = (*log, code_text(g, new))
        r = play_round(g, tuple(code_index(g, x) for x in from_log(new_log).applied), hidden.secret)
        q["t"] = RANDOM_CODE.advance(_game_key(name, sizes), hidden, ",".join(new_log), "won" if r.won else None)
        return go(link("codebreak.play", {**q, MOVES: ",".join(new_log)}))
    chain = chain.play(code_text(g, new))
    play_round(g, tuple(code_index(g, x) for x in chain.applied))
    return go(link("codebreak.play", {**q, **chain.query(MOVES)}))


def _sealed(form: Mapping[str, str], opened: Hidden[int] | None = None) -> Sealed:
    """The random code maker's position a take-back form posts (the adversarial maker's take-backs are links), or
    that a page has opened already (its record read once a view)."""
    name, spec, g, sizes = game_args(form)
    q = {k: v for k, v in form.items() if k in ("game", "maker", "t", "pegs", "colours", "coins")}
    q["h"] = params.hints(form)
    if q.get("maker") != "random":
        raise InputError("take-backs by this form are for the random code maker; the adversarial maker's are links")
    log = log_from_text(params.moves_text(form, "g"))
    hidden = opened or RANDOM_CODE.open(q.get("t", ""), _game_key(name, sizes), ",".join(log))

    def at(history: str, token: str, ending: str) -> str:  # (the record says how it ended)
        return link("codebreak.play", {**q, "t": token, MOVES: history})

    return Sealed(RANDOM_CODE, _game_key(name, sizes), hidden, log, "guess", at, fields={**q, MOVES: ",".join(log)})


take_back_route(bp, _sealed)


def _taken_back(g: Game, log: tuple[str, ...], secret: int | None) -> list[tuple[str, str]]:
    """The guesses taken back in a forward-only game, with the scores that were seen (the random maker's)."""
    return [
        (code, g.outcome_names[g.outcome(code_index(g, code), secret)] if secret is not None else "")
        for code in taken_back(log)
    ]


# ---------------------------------------------------------------- plan navigator


@api.get("/codebreak")
@params.takes("game pegs colours coins strategy max_guesses possible_only tree dot")
def codebreak_json() -> Response:
    """Strategy statistics (and tree) for a shipped game."""
    name, spec, g, sizes = game_args(request.args)
    strategy = strategy_arg(request.args)
    cap = params.whole(request.args, "max_guesses", 0, 1, GUESS_CAP_MAX, "max_guesses") or None
    only = params.flag(request.args, "possible_only")
    root, stats = computed(CODEBREAK, codebreak_params(name, sizes, strategy, cap, only))
    tree, dot = params.flag(request.args, "tree"), params.flag(request.args, "dot")
    report = codebreak_report(name, TreeRequest(g, strategy, cap, only), (root, stats), tree, dot)
    return jsonify(as_json(report))

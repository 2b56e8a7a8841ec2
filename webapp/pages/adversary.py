"""Weigh against an adversary: set-up, play (state in the URL), hints, the end of the game, and the API."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from flask import Blueprint, Response, jsonify, render_template, request, url_for

from solvers.errors import IllegalMoveError, InputError
from solvers.history import (
    MOVES,
    RESTART,
    TAKE_BACK,
    Chain,
    chain_from_text,
    from_log,
    log_from_text,
    positions_in_log,
    taken_back,
)
from solvers.report import as_json
from solvers.weighing import Problem
from solvers.weighing.adversary import Replay, judge, replay
from solvers.weighing.case import Case
from solvers.weighing.knowledge import (
    MAX_WEIGHINGS,
    UserWeighing,
    check_weighing,
    format_weighings,
    honest_outcome,
    parse_weighings,
    placed_weighing,
    placements,
)
from solvers.weighing.report import (
    ADVERSARY_MAX_COINS,
    ADVERSARY_MAX_EXTRA,
    AdversaryPage,
    adversary_page,
    adversary_report,
    budget_range,
    game_budget,
)
from webapp.http import params
from webapp.http.errors import MovedOn, NoGame
from webapp.http.htmx import go, link
from webapp.keys.secretbox import HONEST_SCALE, Hidden, random_secret
from webapp.pages.gamebar import Bar, Score, Sealed, StatsKey, format_id, game_bar, id_route, take_back_route
from webapp.pages.puzzle import Puzzle

bp = Blueprint("adversary", __name__, url_prefix="/adversary")
api = Blueprint("adversary_api", __name__, url_prefix="/api")

PAGE_MIN_COINS, PAGE_MAX_COINS = 3, 1000
MODES = ("adversary", "honest")


@dataclass(frozen=True)
class Setup:
    """A game's fixed settings: the problem, the budget, the mode and (honest mode) the sealed secret."""

    problem: Problem
    budget: int
    minimum: int
    mode: str
    token: str

    def query(self, **more: str) -> dict[str, str]:
        """The canonical query parameters of a position."""
        base = params.query(self.problem, "worst")
        base.pop("objective")
        base.update(budget=str(self.budget), mode=self.mode)
        return {**base, "t": self.token, **more}

    def url(self, **more: str) -> str:
        """The play URL of a position."""
        return link("adversary.play", self.query(**more))


def setup_problem(args: Mapping[str, str], page: bool = True) -> Problem:
    """The problem of the query or form; 400 on anything malformed."""
    lo, hi = (PAGE_MIN_COINS, PAGE_MAX_COINS) if page else (1, ADVERSARY_MAX_COINS)
    n = params.whole(args, "n", None, lo, hi, "The number of coins (n)")
    extra = params.whole(args, "extra", 0, 0, ADVERSARY_MAX_EXTRA, "Extra genuine coins")
    return params.problem({**args, "n": str(n), "extra": str(extra)})


def allowed_budgets(args: Mapping[str, str]) -> tuple[int, int] | str | None:
    """The budgets the set-up form's problem allows, or why it has none (None: no coins given yet)."""
    if not args.get("n", "").strip():
        return None
    try:
        return budget_range(setup_problem(args), MAX_WEIGHINGS)
    except InputError as e:
        return e.message


@bp.get("/budget")
def budget_help() -> str:
    """The line under the budget field, which the set-up form updates as its coins change."""
    return render_template("adversary/_budget.html", allowed=allowed_budgets(request.args))


def parse_setup(args: Mapping[str, str], page: bool = True, need_token: bool = True) -> Setup:
    """Problem, budget and mode from the query or form; 400 on anything malformed."""
    p = setup_problem(args, page)
    raw = args.get("budget", "").strip()
    asked = (min(int(raw), 10**7) if raw.isascii() and raw.isdigit() else -1) if raw else None
    budget, minimum = game_budget(p, asked, MAX_WEIGHINGS)  # any other value: the range this problem allows
    mode = params.choice(args, "mode", MODES)
    token = args.get("t", "") if mode == "honest" else ""
    if mode == "honest" and need_token and not token:
        fields = Setup(p, budget, minimum, mode, "").query()
        fields.pop("t", None)
        raise NoGame.of("a game on the honest scale", url_for("adversary.setup"), fields)
    return Setup(p, budget, minimum, mode, token)


def honest_log(text: str) -> tuple[str, ...]:
    """An honest game's log: its weighings (each written canonically) and take-backs, in the order made."""
    return tuple(
        e if e in (TAKE_BACK, RESTART) else format_weighings(parse_weighings(e)) for e in log_from_text(text, ";")
    )


def chain_arg(args: Mapping[str, str], s: Setup) -> Chain:
    """The undo chain of weighings (w: every weighing and restart, ';'-separated; at: how many are in effect; u:
    take-backs). On the honest scale the game is played forward: w is its log of weighings and take-backs."""
    text = params.moves_text(args, "w")
    if len(text) > 200_000:
        raise InputError("too many weighings")
    if s.mode == "honest":
        return from_log(honest_log(text))
    chain = chain_from_text(text, args.get("at", ""), args.get("u", ""), sep=";")
    for state in {*chain.states()}:  # every state a legal game, so that a redo never fails
        replay(s.problem, s.budget, parse_weighings(";".join(state)))
    return chain


def kind(s: Setup) -> str:
    """What an honest game's token is bound to: the problem and the budget."""
    return f"adversary/{s.problem.to_token()}/{s.budget}"


class AdversaryPosition(NamedTuple):
    """A position named by a request's fields: the setup, the undo chain (or an honest game's log as a chain),
    the honest game's log and sealed secret, and the replay of the weighings in effect."""

    s: Setup
    chain: Chain
    log: tuple[str, ...]
    hidden: Hidden[Case] | None
    r: Replay

    @property
    def ws(self) -> tuple[UserWeighing, ...]:
        """The weighings in effect."""
        return parse_weighings(";".join(self.chain.applied))

    def w_text(self) -> str:
        """What w holds: the honest game's whole log, or the weighings in effect."""
        return ";".join(self.log) if self.hidden is not None else format_weighings(self.ws)


def position(args: Mapping[str, str]) -> AdversaryPosition:
    """The game named by a request's fields: on the honest scale, its sealed secret checked against its log."""
    s = parse_setup(args)
    chain = chain_arg(args, s)
    ws = parse_weighings(";".join(chain.applied))
    if s.mode != "honest":
        return AdversaryPosition(s, chain, (), None, replay(s.problem, s.budget, ws))
    log = honest_log(params.moves_text(args, "w"))
    hidden = HONEST_SCALE.open(s.token, kind(s), ";".join(log))
    secret = hidden.secret
    return AdversaryPosition(
        s, chain, log, hidden, replay(s.problem, s.budget, ws, lambda c, w: honest_outcome(w, secret))
    )


def _chosen(form: Mapping[str, str], s: Setup) -> dict[str, str]:
    """Where the user put each coin (off, left or right), from the form."""
    names = [str(i) for i in range(1, s.problem.coins + 1)] + [f"G{i}" for i in range(1, s.problem.extra + 1)]
    return placements(names, form)


def _page(
    pos: AdversaryPosition,
    guess: str = "",
    hint_level: int = 0,
    error: str | None = None,
    placed: Mapping[str, str] | None = None,
) -> str:
    """Render the play page for a position (an honest game's earlier positions read-only): its model from the
    solvers, its links, bar and result here."""
    hidden = pos.hidden
    secret = hidden.secret if guess and hidden is not None else None
    page = adversary_page(pos.r, pos.ws, Case.from_token(guess) if guess else None, secret, hint_level)
    view = _play_links(pos, page, guess, error, placed or {})
    return render_template("adversary/play.html", page=page, view=view)


def _stats(s: Setup) -> StatsKey:
    """What the browser's statistics count this game under."""
    return StatsKey(
        f"adversary:{s.problem.to_token()}:{s.budget}:{s.mode}",
        f"{s.problem.coins} coins in {s.budget} weighings ({s.mode})",
    )


def _score(s: Setup, page: AdversaryPage) -> Score | None:
    """The end screen once the coin is named (None before)."""
    verdict = page.view.verdict
    if verdict is None:
        return None
    lost = "Not proved: the scale could still say otherwise"
    if s.mode == "honest" or not verdict.fits:
        lost = "Not the coin" if s.mode == "honest" else "Wrong: the scale's answers rule that out"
    title = "You found the coin!" if verdict.win else lost
    return Score(title, verdict.win, len(page.weighings), s.minimum, "weighings")


class AdversaryPlayLinks(NamedTuple):
    """What the play page adds to its model: the set-up, its bar (with the result), the form's fields, the links to the
    earlier positions and to each hint level, a refusal, the coins as placed, and the weighings taken back in
    words."""

    s: Setup
    bar: Bar
    fields: dict[str, str]
    prefixes: list[str]
    hint_url: Callable[[int], str]
    error: str | None
    placed: Mapping[str, str]
    taken_back: list[str]


def _play_links(
    pos: AdversaryPosition, page: AdversaryPage, guess: str, error: str | None, placed: Mapping[str, str]
) -> AdversaryPlayLinks:
    """The play page's links, bar and result."""
    s, chain, log, hidden, _ = pos
    ws = page.weighings
    hints = params.hints_used(request.args) if request.method == "GET" else 0
    shown = params.whole(request.args, "hint", 0, 0, 2, "hint") if request.method == "GET" else 0
    keep = {"h": str(hints) if hints else ""}

    def at(c: Chain, **more: str) -> str:
        return s.url(**c.query(MOVES, ";"), **keep, **more)

    ident = (
        game_id(s, format_weighings(ws))
        if s.mode == "adversary"
        else format_id((s.problem.to_token(), s.budget), token=s.token)
    )
    share = s.url(moves=pos.w_text(), guess=guess)  # a finished game's link shows its end
    live = s.mode == "adversary" and not guess
    sealed = _sealed(request.values, pos) if hidden is not None else None
    bar = game_bar(
        ident, share, chain, at if live else None, hints=hints, stats=_stats(s), end=_score(s, page), sealed=sealed
    )
    if hidden is not None:  # earlier positions of a game played forward: prefixes of its log
        prefixes = [s.url(moves=";".join(log[:cut]), **keep) for cut in positions_in_log(log)]
    else:
        prefixes = [s.url(moves=format_weighings(ws[:i])) for i in range(len(ws) + 1)]
    return AdversaryPlayLinks(
        s=s,
        bar=bar,
        fields={**s.query(**(chain.query(MOVES, ";") if s.mode == "adversary" else {MOVES: pos.w_text()})), **keep},
        prefixes=prefixes,
        # one hint counted per position, whichever levels of it are shown
        hint_url=lambda level: s.url(moves=pos.w_text(), hint=str(level), h=str(hints + (shown == 0))),
        error=error,
        placed=placed,
        taken_back=[_taken_back_text(w, hidden.secret) for w in taken_back(log)] if hidden is not None else [],
    )


def _taken_back_text(w: str, secret: Case) -> str:
    """A weighing taken back on the honest scale, with the answer that was seen."""
    ((left, right),) = parse_weighings(w)
    outcome = honest_outcome((left, right), secret).value.replace("-", " ")
    return f"{', '.join(map(str, left))} against {', '.join(map(str, right))}: {outcome}"


@bp.route("", methods=["GET", "POST"])
def setup() -> Response | str | tuple[str, int]:
    """The set-up form; a valid POST starts a game (303 to its first position)."""
    if request.method == "GET":
        allowed = allowed_budgets(request.args)
        return render_template(
            "adversary/setup.html", form=request.args, error=None, most=MAX_WEIGHINGS, allowed=allowed
        )
    try:
        s = parse_setup(request.form, need_token=False)
    except InputError as e:
        allowed = allowed_budgets(request.form)
        return render_template(
            "adversary/setup.html", form=request.form, error=e.message, most=MAX_WEIGHINGS, allowed=allowed
        ), 400
    if s.mode == "honest":
        token = HONEST_SCALE.start(kind(s), random_secret(s.problem))
        s = Setup(s.problem, s.budget, s.minimum, s.mode, token)
    return go(s.url())


@bp.get("/play")
def play() -> str:
    """A position of the game: the coins, the observer, the history, hints and the end."""
    pos = position(request.args)
    hidden = pos.hidden
    level = params.whole(request.args, "hint", 0, 0, 2, "hint")
    guess = request.args.get("guess", "")
    if guess:
        Case.from_token(guess)
        if hidden is not None and (hidden.standing != "over" or hidden.record.ending != guess):
            raise InputError("on the honest scale the coin is named with the Name it button, once")
    return _page(pos, guess=guess, hint_level=level)


@bp.post("/weigh")
def weigh() -> Response | tuple[str, int]:
    """Add a weighing; an illegal one is refused with a message and costs nothing."""
    pos = position(request.form)
    s, chain, log, hidden, r = pos
    hints = params.hints(request.form)
    typed = {k: request.form.get(k, "") for k in ("left", "right")}
    places: dict[str, str] = {}
    try:
        places = _chosen(request.form, s)
        new = format_weighings((placed_weighing(places),))
        if r.used >= s.budget:
            raise IllegalMoveError(f"the budget of {s.budget} weighings is used up: name the coin")
        check_weighing(r.coins, parse_weighings(new)[0])
        if hidden is not None:
            w_text = ";".join((*log, new))
            s = Setup(s.problem, s.budget, s.minimum, s.mode, HONEST_SCALE.advance(kind(s), hidden, w_text))
            return go(s.url(moves=w_text, h=hints))
    except MovedOn:  # from an older tab: the refusal with the link to the latest position (`take_back_route`)
        raise
    except IllegalMoveError as e:
        return _page(pos, error=str(e), placed={**places, **typed}), 400
    return go(s.url(**chain.play(new).query(MOVES, ";"), h=hints))


def _sealed(form: Mapping[str, str], opened: AdversaryPosition | None = None) -> Sealed:
    """The honest scale's position a take-back form posts (the adversarial scale's take-backs are undo links), or
    that a page has opened already (its record read and replayed once a view)."""
    s, _, log, hidden, _ = opened or position(form)
    if hidden is None:
        raise InputError("take-backs by this form are for the honest scale; the adversarial scale's are links")
    hints = params.hints(form)

    def at(history: str, token: str, ending: str) -> str:
        return Setup(s.problem, s.budget, s.minimum, s.mode, token).url(moves=history, guess=ending, h=hints)

    return Sealed(HONEST_SCALE, kind(s), hidden, log, "weighing", at, fields=s.query(moves=";".join(log), h=hints))


take_back_route(bp, _sealed)


@bp.post("/guess")
def guess() -> Response | tuple[str, int]:
    """Name the coin (and its weight): the game ends."""
    pos = position(request.form)
    s, r, hidden = pos.s, pos.r, pos.hidden
    hints = params.hints(request.form)  # checked before the game's record can end
    coin = request.form.get("coin", "").strip()
    weight = request.form.get("fake_is", "")
    token = "none" if coin == "none" else coin + {"heavier": "h", "lighter": "l"}.get(weight, "")
    try:
        judge(r.coins, Case.from_token(token), s.problem)
        if hidden is not None:
            s = Setup(s.problem, s.budget, s.minimum, s.mode, HONEST_SCALE.finish(kind(s), hidden, token))
    except MovedOn:
        raise
    except (InputError, IllegalMoveError) as e:
        return _page(pos, error=e.message), 400
    # the honest game's whole log; the adversarial game's undo chain as it stands (its take-backs still counted)
    played = {MOVES: pos.w_text()} if hidden is not None else pos.chain.query(MOVES, ";")
    return go(s.url(**played, guess=token, h=hints))


def game_id(s: Setup, weighings: str) -> str:
    """A game against the adversarial scale as a short ID: its problem's token, the budget and the weighings in
    effect (e.g. '12-unknown-identify-0-0:3:1..4-5..8')."""
    return format_id((s.problem.to_token(), s.budget), weighings)


@id_route(bp, 3, "an adversary", "problem:budget:weighings, like 12-unknown-identify-0-0:3:1..4-5..8", sealed=True)
def _opened(parts: list[str], token: str | None) -> str:
    """Open the game an ID describes: problem:budget:weighings (the adversarial scale), or problem:budget#token
    (a game on the honest scale: its latest position)."""
    problem = Problem.from_token(parts[0])
    budget = parts[1]
    base = params.query(problem, "worst")
    base.pop("objective")
    if token is not None:
        probe = parse_setup({**base, "budget": budget, "mode": "honest", "t": token})
        record = HONEST_SCALE.latest(token, kind(probe))
        return link(
            "adversary.play", {**probe.query(), "t": record.token, MOVES: record.history, "guess": record.ending or ""}
        )
    s = parse_setup({**base, "budget": budget, "mode": "adversary"})
    ws = parse_weighings(parts[2])
    replay(s.problem, s.budget, ws)
    return s.url(moves=format_weighings(ws))


@api.get("/adversary")
@params.takes("n weight goal extra maybe_none budget moves w")
def adversary_json() -> Response:
    """Replay weighings against the adversary and report what they prove."""
    s = parse_setup({**request.args, "mode": "adversary"}, page=False)
    r = replay(s.problem, s.budget, params.weighings_arg(request.args))
    return jsonify(as_json(adversary_report(r, s.minimum)))


puzzle = Puzzle(
    area="adversary",
    name="Weigh against an adversary",
    endpoint="adversary.setup",
    blurb="You weigh; the scale answers to make it as hard as it can.",
    picture="A level balance with a question mark above it",
    sources="The scale answers as an adversary (or honestly, with a sealed secret); the solver's figures are "
    "exact. Sources: Dyson (1946), Guy & Nowakowski (1995).",
    blueprints=(bp, api),
    presets=(
        ("12 coins against the adversary", "adversary.play", {"n": "12"}),
        ("39 coins against the adversary", "adversary.play", {"n": "39"}),
    ),
)

"""Weigh against an adversary: set-up, play (state in the URL), hints, the end of the game, and the API."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from flask import Blueprint, Response, jsonify, render_template, request, url_for

from solvers.errors import IllegalMoveError, InputError
from solvers.history import RESTART, Chain, chain_from_text
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
)
from solvers.weighing.report import adversary_report, adversary_view, game_budget, weighing_lesson

from . import params
from .gamebar import Bar, Result, chain_links, split_id
from .htmx import go, link
from .secretbox import HONEST_SCALE, Hidden, random_secret

bp = Blueprint("adversary", __name__, url_prefix="/adversary")
api = Blueprint("adversary_api", __name__, url_prefix="/api")

PAGE_MIN_COINS, PAGE_MAX_COINS = 3, 1000
API_MAX_COINS = 10_000
MAX_EXTRA = 50
MODES = ("adversary", "honest")
PLACES = ("off", "left", "right")


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


def parse_setup(args: Mapping[str, str], page: bool = True, need_token: bool = True) -> Setup:
    """Problem, budget and mode from the query or form; 400 on anything malformed."""
    lo, hi = (PAGE_MIN_COINS, PAGE_MAX_COINS) if page else (1, API_MAX_COINS)
    n = params.whole(args, "n", None, lo, hi, "The number of coins (n)")
    p = params.problem(
        {**args, "n": str(n), "extra": str(params.whole(args, "extra", 0, 0, MAX_EXTRA, "Extra genuine coins"))}
    )
    raw = args.get("budget", "")
    budget, minimum = game_budget(
        p,
        # a loose bound for the parse only: game_budget says the range this problem allows
        params.whole(args, "budget", 0, 0, 10**6, "The weighing budget") if raw.strip() else None,
        MAX_WEIGHINGS,
    )
    mode = params.choice(args, "mode", MODES)
    token = args.get("t", "") if mode == "honest" else ""
    if mode == "honest" and need_token and not token:
        raise InputError("an honest-scale game needs its game token (start a new game)")
    return Setup(p, budget, minimum, mode, token)


def chain_arg(args: Mapping[str, str], s: Setup) -> Chain:
    """The undo chain of weighings (w: every weighing and restart, ';'-separated; at: how many are in effect; u:
    take-backs). On the honest scale the game is played forward: every weighing in w is in effect."""
    text = args.get("w", "")
    if len(text) > 200_000:
        raise InputError("too many weighings")
    if s.mode == "honest":
        chain = chain_from_text(text, sep=";")
        if RESTART in chain.entries:
            raise InputError("a game on the honest scale is played forward: no restart")
        return chain
    chain = chain_from_text(text, args.get("at", ""), args.get("u", ""), sep=";")
    for state in {*chain.states()}:  # every state a legal game, so that a redo never fails
        replay(s.problem, s.budget, parse_weighings(";".join(state)))
    return chain


def in_effect(chain: Chain) -> tuple[UserWeighing, ...]:
    """The weighings in effect."""
    return parse_weighings(";".join(chain.applied))


def weighings_arg(args: Mapping[str, str]) -> tuple[UserWeighing, ...]:
    """Weighings from the w parameter (every one in effect: the API and the Æquitas games)."""
    text = args.get("w", "")
    if len(text) > 200_000:
        raise InputError("too many weighings")
    return parse_weighings(text)


def kind(s: Setup) -> str:
    """What an honest game's token is bound to: the problem and the budget."""
    return f"adversary/{s.problem.to_token()}/{s.budget}"


def hidden_of(s: Setup, ws: tuple[UserWeighing, ...]) -> Hidden[Case] | None:
    """An honest game's sealed secret, checked against the recorded history (None on the adversarial scale)."""
    return HONEST_SCALE.open(s.token, kind(s), format_weighings(ws)) if s.mode == "honest" else None


def play_out(s: Setup, ws: tuple[UserWeighing, ...], hidden: Hidden[Case] | None) -> Replay:
    """Replay the game: the adversary answers, or the honest scale with the sealed secret."""
    if hidden is not None:
        secret = hidden.secret
        return replay(s.problem, s.budget, ws, lambda c, w: honest_outcome(w, secret))
    return replay(s.problem, s.budget, ws)


def position(
    args: Mapping[str, str],
) -> tuple[Setup, tuple[UserWeighing, ...], Hidden[Case] | None, Replay]:
    """The game named by a request's fields: its setup, weighings, sealed secret (honest scale) and replay."""
    s = parse_setup(args)
    ws = in_effect(chain_arg(args, s))
    hidden = hidden_of(s, ws)
    return s, ws, hidden, play_out(s, ws, hidden)


def _chosen(form: Mapping[str, str], s: Setup) -> dict[str, str]:
    """Where the user put each coin (off, left or right), from the form."""
    names = [str(i) for i in range(1, s.problem.coins + 1)] + [f"G{i}" for i in range(1, s.problem.extra + 1)]
    return {name: form.get(f"c{name}", "off") for name in names}


def _page(
    s: Setup,
    ws: tuple[UserWeighing, ...],
    r: Replay,
    guess: str = "",
    hint_level: int = 0,
    error: str | None = None,
    placed: Mapping[str, str] | None = None,
    hidden: Hidden[Case] | None = None,
    chain: Chain | None = None,
) -> str:
    """Render the play page for a position (an honest game's earlier positions read-only)."""
    secret = hidden.secret if guess and hidden is not None else None
    v = adversary_view(r, Case.from_token(guess) if guess else None, secret, hint_level)
    latest = None
    if hidden is not None and hidden.standing != "live" and not guess:
        rec = hidden.record
        latest = Setup(s.problem, s.budget, s.minimum, s.mode, rec.token).url(w=rec.history, guess=rec.ending or "")
    chain = chain or Chain(tuple(format_weighings((w,)) for w in ws), len(ws))
    hints = params.whole(request.args, "h", 0, 0, 10**6, "h") if request.method == "GET" else 0
    adversarial = s.mode == "adversary" and not guess
    keep = {"h": str(hints) if hints else ""}

    def at(c: Chain, **more: str) -> str:
        return s.url(**c.query("w", ";"), **keep, **more)

    bar = Bar(
        game_id(s, format_weighings(ws)) if s.mode == "adversary" else f"{s.problem.to_token()}:{s.budget}#{s.token}",
        url_for("adversary.from_id"),
        s.url(w=format_weighings(ws)),
        *chain_links(chain, at, adversarial),
        chain.undos,
        hints,
    )
    result = None
    if v.verdict is not None:
        title = "You found the coin!" if v.verdict.win else "Not proved: the scale could still say otherwise"
        label = f"{s.problem.coins} coins in {s.budget} weighings ({s.mode})"
        result = Result(
            title,
            v.verdict.win,
            len(ws),
            s.minimum,
            "weighings",
            chain.undos,
            hints,
            f"adversary:{s.problem.to_token()}:{s.budget}:{s.mode}",
            bar.game_id,
            label,
        )
    lesson = None
    if r.steps:
        before = r.steps[-2].after if len(r.steps) >= 2 else r.start
        lesson = weighing_lesson(before, r.steps[-1].weighing)
    return render_template(
        "adversary/play.html",
        lesson=lesson,
        bar=bar,
        result=result,
        fields={**s.query(**(chain.query("w", ";") if s.mode == "adversary" else {"w": format_weighings(ws)})), **keep},
        s=s,
        p=s.problem,
        r=r,
        ws=ws,
        w_text=format_weighings(ws),
        prefixes=[s.url(w=format_weighings(ws[:i])) for i in range(len(ws) + 1)],
        lost=v.lost,
        better=v.better,
        hint_level=hint_level,
        hint_weighing=v.hint,
        hint_url=lambda level: s.url(w=format_weighings(ws), hint=str(level), h=str(hints + 1)),
        verdict=v.verdict,
        secret=secret,
        cases=v.cases,
        error=error,
        placed=placed or {},
        over=bool(guess),
        last_pans=v.last_pans,
        latest=latest,
    )


@bp.route("", methods=["GET", "POST"])
def setup() -> Response | str | tuple[str, int]:
    """The set-up form; a valid POST starts a game (303 to its first position)."""
    if request.method == "GET":
        return render_template("adversary/setup.html", form=request.args, error=None)
    try:
        s = parse_setup(request.form, need_token=False)
    except InputError as e:
        return render_template("adversary/setup.html", form=request.form, error=e.message), 400
    if s.mode == "honest":
        token = HONEST_SCALE.start(kind(s), random_secret(s.problem))
        s = Setup(s.problem, s.budget, s.minimum, s.mode, token)
    return go(s.url())


@bp.get("/play")
def play() -> str:
    """A position of the game: the coins, the observer, the history, hints and the end."""
    s = parse_setup(request.args)
    chain = chain_arg(request.args, s)
    ws = in_effect(chain)
    hidden = hidden_of(s, ws)
    r = play_out(s, ws, hidden)
    level = params.whole(request.args, "hint", 0, 0, 2, "hint")
    guess = request.args.get("guess", "")
    if guess:
        Case.from_token(guess)
        if hidden is not None and (hidden.standing != "over" or hidden.record.ending != guess):
            raise InputError("on the honest scale the coin is named with the Name it button, once")
    return _page(s, ws, r, guess=guess, hint_level=level, hidden=hidden, chain=chain)


@bp.post("/weigh")
def weigh() -> Response | tuple[str, int]:
    """Add a weighing; an illegal one is refused with a message and costs nothing."""
    s, ws, hidden, r = position(request.form)
    places = _chosen(request.form, s)
    try:
        new = placed_weighing(places)
        if r.used >= s.budget:
            raise IllegalMoveError(f"the budget of {s.budget} weighings is used up: name the coin")
        check_weighing(r.coins, new)
        w_text = format_weighings((*ws, new))
        if hidden is not None:
            s = Setup(s.problem, s.budget, s.minimum, s.mode, HONEST_SCALE.advance(kind(s), hidden, w_text))
            return go(s.url(w=w_text))
    except IllegalMoveError as e:
        return _page(s, ws, r, error=str(e), placed=places, hidden=hidden), 400
    chain = chain_arg(request.form, s).play(format_weighings((new,)))
    return go(s.url(**chain.query("w", ";"), h=request.form.get("h", "")))


@bp.post("/guess")
def guess() -> Response | tuple[str, int]:
    """Name the coin (and its weight): the game ends."""
    s, ws, hidden, r = position(request.form)
    coin = request.form.get("coin", "").strip()
    weight = request.form.get("fake_is", "")
    token = "none" if coin == "none" else coin + {"heavier": "h", "lighter": "l"}.get(weight, "")
    try:
        judge(r.coins, Case.from_token(token), s.problem)
        if hidden is not None:
            s = Setup(s.problem, s.budget, s.minimum, s.mode, HONEST_SCALE.finish(kind(s), hidden, token))
    except (InputError, IllegalMoveError) as e:
        return _page(s, ws, r, error=e.message, hidden=hidden), 400
    return go(s.url(w=format_weighings(ws), guess=token))


def game_id(s: Setup, weighings: str) -> str:
    """A game against the adversarial scale as a short ID: its problem's token, the budget and the weighings in
    effect (e.g. '12-unknown-identify-0-0:3:1..4-5..8')."""
    return f"{s.problem.to_token()}:{s.budget}:{weighings}"


@bp.get("/id")
def from_id() -> Response:
    """Open the game an ID describes: problem:budget:weighings (the adversarial scale), or problem:budget#token
    (a game on the honest scale: its latest position)."""
    parts, token = split_id(
        request.args.get("id", ""),
        3,
        "an adversary",
        "problem:budget:weighings, like 12-unknown-identify-0-0:3:1..4-5..8",
    )
    problem = Problem.from_token(parts[0])
    budget = parts[1]
    base = params.query(problem, "worst")
    base.pop("objective")
    if token is not None:
        probe = parse_setup({**base, "budget": budget, "mode": "honest", "t": token})
        record = HONEST_SCALE.latest(token, kind(probe))
        return go(
            link(
                "adversary.play",
                {**probe.query(), "t": record.token, "w": record.history, "guess": record.ending or ""},
            )
        )
    s = parse_setup({**base, "budget": budget, "mode": "adversary"})
    ws = parse_weighings(parts[2])
    replay(s.problem, s.budget, ws)
    return go(s.url(w=format_weighings(ws)))


@api.get("/adversary")
def adversary_json() -> Response:
    """Replay weighings against the adversary and report what they prove."""
    s = parse_setup({**request.args, "mode": "adversary"}, page=False)
    r = play_out(s, weighings_arg(request.args), None)
    return jsonify(as_json(adversary_report(r, s.minimum)))

"""The weighing variants: a balance that may lie, two counterfeits, k pans. Set-up, plan navigator, tables."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping
from typing import NamedTuple

from flask import Blueprint, Response, jsonify, render_template, request, url_for
from flask.typing import ResponseReturnValue

from solvers.errors import IllegalMoveError, InputError, LimitError
from solvers.history import MOVES, Chain, chain_from_text
from solvers.variants.adversary import VariantGame, parse_weighings, play, typed_weighing
from solvers.variants.model import Variant
from solvers.variants.plan import VariantPlan, VariantVerification
from solvers.variants.report import Run, VariantNodeView, VariantRow, bound_name, navigate, runs
from solvers.weighing.knowledge import typed_pan
from webapp.http import params
from webapp.http.htmx import go, link
from webapp.jobs.access import computed, peek
from webapp.jobs.variant_plans import plan_for
from webapp.pages.gamebar import Bar, Score, StatsKey, format_id, game_bar, id_route
from webapp.pages.puzzle import Puzzle
from webapp.results.catalogue import VARIANT_TABLE, VARIANT_TABLES, VariantParams, variant_quick

bp = Blueprint("variants", __name__, url_prefix="/variants")
api = Blueprint("variants_api", __name__, url_prefix="/api")
VARIANT_MAX_PATH = 40


def query(v: Variant, **more: str) -> dict[str, str]:
    """The canonical query of a variant (what URLs carry)."""
    base = {"n": str(v.coins), "weight": v.weight, "lies": str(v.lies), "fakes": str(v.fakes), "pans": str(v.pans)}
    return {**base, **more}


def _path(v: Variant) -> str:
    """The path of readings in the query, checked against the variant's letters."""
    path = request.args.get("path", "")
    if len(path) > VARIANT_MAX_PATH or any(ch not in v.outcomes for ch in path):
        raise InputError(f"path must be a string of the letters {''.join(v.outcomes)}", {"path": path[:40]})
    return path


@bp.get("")
def index() -> str:
    """The variants: a set-up form and the tables."""
    tables = [(t, t.describe().split(", ", 1)[1], link("variants.table", table_query(t))) for t in VARIANT_TABLES]
    return render_template("variants/index.html", form=request.args, tables=tables, reach=_reach())


def _reach() -> list[tuple[str, int]]:
    """Per variant whose table is stored and stops short of 100 coins, the largest number of coins planned (the
    plan form refuses more at once)."""
    out = []
    for t in VARIANT_TABLES:
        rows = peek(VARIANT_TABLE, VariantParams(t.to_token()))
        if rows and any(r.note.startswith("beyond") for r in rows):
            out.append(
                (t.describe().split(", ", 1)[1], max((r.coins for r in rows if r.weighings is not None), default=0))
            )
    return out


@bp.get("/plan")
def plan_page() -> str:
    """One node of a variant's optimal plan: the weighing to make, or the answer."""
    v = params.variant(request.args)
    plan, check = plan_for(v)
    base = query(v)
    page = PlanPage(
        v=v,
        plan=plan,
        check=check,
        view=navigate(plan, _path(v)) if plan.solvable else None,
        query=base,
        bound=bound_name(v),
        url_for_path=lambda q: link("variants.plan_page", query(v, path=q)),
        table_url=link("variants.table", table_query(v)),
        api_url=link("coins_api.coins_json", {**base, "n": str(v.coins)}),
        play_url=link("variants.play_page", base) if variant_quick(v) and plan.solvable else None,
    )
    return render_template("variants/plan.html", page=page)


class PlanPage(NamedTuple):
    """The plan navigator's page: the variant, its plan and the plan's check, the node shown (none when the variant
    cannot be solved), the variant's query, the lower bound's name, a node's link by path, and the links to the
    table, the JSON and (on sizes played within a second) the game against the adversary."""

    v: Variant
    plan: VariantPlan
    check: VariantVerification
    view: VariantNodeView | None
    query: dict[str, str]
    bound: str
    url_for_path: Callable[[str], str]
    table_url: str
    api_url: str
    play_url: str | None


def _table_variant() -> Variant:
    """The variant a table is about (its settings; N is the smallest, as in the table's key)."""
    fakes = params.whole(request.args, "fakes", 1, 1, 2, "fakes")
    return params.variant({**request.args, "n": str(fakes)})


def table_query(v: Variant) -> dict[str, str]:
    """The query naming a variant's table (everything but N)."""
    return {"weight": v.weight, "lies": str(v.lies), "fakes": str(v.fakes), "pans": str(v.pans)}


@bp.get("/table")
def table() -> str:
    """Fewest weighings against N, beside the lower bound: a table and a chart."""
    v = _table_variant()
    rows: tuple[VariantRow, ...] = computed(VARIANT_TABLE, VariantParams(v.to_token()))

    def plan_url(n: int) -> str:
        return link("variants.plan_page", query(Variant(n, v.weight, v.lies, v.fakes, v.pans)))

    title = v.describe().split(", ", 1)[1]
    return render_template("variants/table.html", page=TablePage(v, rows, runs(rows), bound_name(v), title, plan_url))


class TablePage(NamedTuple):
    """A variant's table page: the variant, its rows (N = 1 to 100), the rows grouped into runs of the same figure,
    the lower bound's name, the title, and a size's plan link."""

    v: Variant
    rows: tuple[VariantRow, ...]
    groups: tuple[Run, ...]
    bound: str
    title: str
    plan_url: Callable[[int], str]


@api.get("/variants/table")
@params.takes("weight lies fakes pans")
def table_json() -> Response:
    """A variant's table as JSON: each N with its fewest weighings (null: none or beyond reach) and bound."""
    v = _table_variant()
    rows: tuple[VariantRow, ...] = computed(VARIANT_TABLE, VariantParams(v.to_token()))
    body = {
        "variant": v.describe().split(", ", 1)[1],
        "bound": bound_name(v),
        "rows": [
            {"coins": r.coins, "weighings": r.weighings, "lower_bound": r.lower_bound, "note": r.note} for r in rows
        ],
    }
    return jsonify(body)


@bp.get("/play")
def play_page() -> ResponseReturnValue:
    """Weigh against the adversarial scale: your weighings in the URL (an undo chain), its readings computed from
    them; a weighing typed pan by pan (ranges allowed) is checked and added, or refused beside the pans. Without
    a variant: the set-up, with the classic games one click each."""
    if "n" not in request.args:
        return go(url_for("variants.index") + "#presets-variants")
    v = params.variant(request.args)
    if not variant_quick(v):
        raise LimitError("the adversary game is played on the sizes planned within a second (see the tables)")
    plan, chain = plan_for(v)[0], _chain(v, request.args)
    typed = [request.args.get(f"pan{i}") for i in range(1, v.pans + 1)]
    if all(t is None for t in typed):
        return _play(v, plan, chain)
    if not any(typed):  # the picker without JavaScript: each coin's menu names its pan
        pans = [
            [str(c) for c in range(1, v.coins + 1) if request.args.get(f"c{c}") == f"pan{i}"]
            for i in range(1, v.pans + 1)
        ]
        typed = [",".join(coins) for coins in pans]
    try:
        step = typed_weighing(v, [t or "" for t in typed])
        play(plan, parse_weighings(v, ";".join((*chain.applied, step))))
    except InputError as e:
        return _play(v, plan, chain, error=e.message, typed=[t or "" for t in typed]), 400
    return go(link("variants.play_page", query(v, **chain.play(step).query(MOVES, ";"), h=params.hints(request.args))))


def _chain(v: Variant, args: Mapping[str, str]) -> Chain:
    """The undo chain of a game's weighings (w, at, u); every state a legal game, so that a redo never fails."""
    chain = chain_from_text(params.moves_text(args, "w"), args.get("at", ""), args.get("u", ""), sep=";")
    plan = plan_for(v)[0]
    for state in {*chain.states()}:
        play(plan, parse_weighings(v, ";".join(state)))
    return chain


def _play(v: Variant, plan: VariantPlan, chain: Chain, error: str | None = None, typed: list[str] | None = None) -> str:
    """The play page: the game so far, its bar (undo, redo, ID, share, and the result once the answer is known)."""
    hints = params.hints_used(request.args)
    game = play(plan, parse_weighings(v, ";".join(chain.applied)), hint=params.flag(request.args, "hint"))
    score = None
    if game.answer is not None:
        turns = len(game.turns)
        title = "Found in the fewest weighings" if turns <= game.minimum else "Found"
        score = Score(title, True, turns, game.minimum, "weighings")  # found: a win, scored against the fewest
    bar = game_bar(
        game_id(v, chain.applied),
        link("variants.play_page", query(v, **{MOVES: ";".join(chain.applied)})),
        chain,
        lambda c: link("variants.play_page", query(v, **c.query(MOVES, ";"), h=str(hints or ""))),
        hints=hints,
        stats=StatsKey(f"variants:{v.to_token()}", v.describe()),
        end=score,
    )
    fields = query(v, **chain.query(MOVES, ";"))
    plan_url = link("variants.plan_page", query(v))
    hint_url = link("variants.play_page", {**fields, "hint": "1", "h": str(hints + 1)})
    view = VariantPlayView(
        v=v,
        game=game,
        bar=bar,
        error=error,
        typed=typed or [""] * v.pans,
        fields=fields,
        plan_url=plan_url,
        hint_url=hint_url,
    )
    return render_template("variants/play.html", play=view)


class VariantPlayView(NamedTuple):
    """The variants' play page: the variant, the game so far, its bar (with the result), a refusal with the pans as
    they were typed, the fields the next weighing's form carries and the link to the whole plan."""

    v: Variant
    game: VariantGame
    bar: Bar
    error: str | None
    typed: list[str]
    fields: dict[str, str]
    plan_url: str
    hint_url: str  # the same position with the solver's next weighing shown (counted as a hint)

    @property
    def sides(self) -> list[tuple[str, str]]:
        """The pans as the picker names them (field, label): left and right, or pan 1 to pan k."""
        if self.v.pans == 2:
            return [("pan1", "Left pan"), ("pan2", "Right pan")]
        return [(f"pan{i}", f"Pan {i}") for i in range(1, self.v.pans + 1)]

    @property
    def placed(self) -> dict[str, str]:
        """A refused weighing's pans as they were entered, by field, and each coin's pan."""
        out = {side: text for (side, _), text in zip(self.sides, self.typed, strict=True)}
        names = [str(c) for c in range(1, self.v.coins + 1)]
        for (side, _), text in zip(self.sides, self.typed, strict=True):
            with contextlib.suppress(IllegalMoveError):  # a pan that names no coin rightly keeps its coins off
                out.update(dict.fromkeys(typed_pan(text, names), side))
        return out


def game_id(v: Variant, weighings: tuple[str, ...]) -> str:
    """A game as a short ID: the variant's token and the weighings in effect (e.g. '12-unknown-l1-f1-p2:1,2-3,4')."""
    return format_id((v.to_token(),), ";".join(weighings))


@id_route(bp, 2, "a variants", "variant:weighings, like 12-unknown-l1-f1-p2:1,2-3,4")
def _opened(parts: list[str], _: str | None) -> str:
    """Open the game an ID describes (variant:weighings)."""
    v = Variant.from_token(parts[0])
    parse_weighings(v, parts[1])  # weighings that are none refused here, as every other game's ID is
    return link("variants.play_page", query(v, **{MOVES: parts[1]}))


puzzle = Puzzle(
    area="variants",
    name="Weighing variants",
    endpoint="variants.index",
    blurb="A balance that may lie, two counterfeit coins, a balance with up to five pans: proved plans.",
    picture="A balance with three pans, the middle one lower",
    sources="Every plan shown is proved by exhaustive search and checked by replaying every case before it is shown. "
    "Source: Tošić, 'Two counterfeit coins' (Discrete Mathematics, 1983).",
    blueprints=(bp, api),
    presets=(
        ("Play: 12 coins, a balance that may lie once", "variants.play_page", {"n": "12", "lies": "1"}),
        ("Play: 10 coins, two heavier fakes", "variants.play_page", {"n": "10", "weight": "heavier", "fakes": "2"}),
        ("Play: 13 coins on a three-pan balance", "variants.play_page", {"n": "13", "pans": "3"}),
        ("The plan: 12 coins, a balance that may lie once", "variants.plan_page", {"n": "12", "lies": "1"}),
    ),
)

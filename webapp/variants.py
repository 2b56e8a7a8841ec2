"""The weighing variants: a balance that may lie, two counterfeits, k pans. Set-up, plan navigator, tables."""

from __future__ import annotations

from collections.abc import Mapping

from flask import Blueprint, Response, jsonify, render_template, request
from flask.typing import ResponseReturnValue

from solvers.errors import InputError, LimitError
from solvers.variants.adversary import parse_weighings, play
from solvers.variants.model import MAX_COINS, MAX_LIES, MAX_PANS, Variant
from solvers.variants.plan import Plan, Verification
from solvers.variants.report import Row, bound_name, navigate, runs
from solvers.weighing import WEIGHTS

from . import params
from .catalogue import VARIANT_PLAN, VARIANT_TABLE, VARIANT_TABLES, VariantParams, variant_quick
from .htmx import go, link
from .results import computed, peek

bp = Blueprint("variants", __name__, url_prefix="/variants")
api = Blueprint("variants_api", __name__, url_prefix="/api")
MAX_PATH = 40


def variant(args: Mapping[str, str]) -> Variant:
    """The variant named by n, weight, lies, fakes and pans."""
    n = params.whole(args, "n", None, 1, MAX_COINS, "The number of coins (n)")
    lies = params.whole(args, "lies", 0, 0, MAX_LIES, "lies")
    fakes = params.whole(args, "fakes", 1, 1, 2, "fakes")
    pans = params.whole(args, "pans", 2, 2, MAX_PANS, "pans")
    return Variant(n, params.choice(args, "weight", WEIGHTS), lies, fakes, pans)


def query(v: Variant, **more: str) -> dict[str, str]:
    """The canonical query of a variant (what URLs carry)."""
    base = {"n": str(v.coins), "weight": v.weight, "lies": str(v.lies), "fakes": str(v.fakes), "pans": str(v.pans)}
    return {**base, **more}


def plan_for(v: Variant) -> tuple[Plan, Verification]:
    """The verified plan, from the result store (computed by a job when large). Refused at once, with the largest
    number of coins within reach, where the variant's stored table shows this one beyond the search's reach (a job
    would run for many minutes to the same refusal)."""
    reach = beyond_reach(v)
    if reach is not None:
        raise LimitError(reach)
    plan, check = computed(VARIANT_PLAN, VariantParams(v.to_token()))
    return plan, check


def beyond_reach(v: Variant) -> str | None:
    """Why a variant's plan is refused at once (its table, when stored, shows it beyond the search's reach), or
    None."""
    start = 2 if v.fakes == 2 else 1
    rows = peek(VARIANT_TABLE, VariantParams(Variant(start, v.weight, v.lies, v.fakes, v.pans).to_token()))
    row = next((r for r in rows or () if r.coins == v.coins), None)
    if row is None or row.weighings is not None or not row.note.startswith(("beyond", "not searched")):
        return None
    reached = max((r.coins for r in rows or () if r.weighings is not None), default=0)
    return (
        f"{v.coins} coins are beyond this search's reach for this variant (its table: {row.note}); "
        f"the largest number of coins it plans is {reached}"
    )


def _path(v: Variant) -> str:
    """The path of readings in the query, checked against the variant's letters."""
    path = request.args.get("path", "")
    if len(path) > MAX_PATH or any(ch not in v.outcomes for ch in path):
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
    v = variant(request.args)
    path = _path(v)
    plan, check = plan_for(v)
    view = navigate(plan, path) if plan.solvable else None
    genuine: set[int] = set()
    if view is not None and view.node.pans is not None:
        suspects = {c for s, _ in view.node.hypotheses for c in s.fakes}
        genuine = {c for pan in view.node.pans for c in pan} - suspects
    base = query(v)
    return render_template(
        "variants/plan.html",
        v=v,
        plan=plan,
        check=check,
        view=view,
        genuine=genuine,
        query=base,
        bound=bound_name(v),
        url_for_path=lambda q: link("variants.plan_page", query(v, path=q)),
        table_url=link("variants.table", table_query(v)),
        api_url=link("coins_api.coins_json", {**base, "n": str(v.coins)}),
        play_url=link("variants.play_page", base) if variant_quick(v) and plan.solvable else None,
    )


def _table_variant() -> Variant:
    """The variant a table is about (its settings; N is the smallest, as in the table's key)."""
    fakes = params.whole(request.args, "fakes", 1, 1, 2, "fakes")
    return variant({**request.args, "n": str(fakes)})


def table_query(v: Variant) -> dict[str, str]:
    """The query naming a variant's table (everything but N)."""
    return {"weight": v.weight, "lies": str(v.lies), "fakes": str(v.fakes), "pans": str(v.pans)}


@bp.get("/table")
def table() -> str:
    """Fewest weighings against N, beside the lower bound: a table and a chart."""
    v = _table_variant()
    rows: tuple[Row, ...] = computed(VARIANT_TABLE, VariantParams(v.to_token()))
    return render_template(
        "variants/table.html",
        v=v,
        rows=rows,
        groups=runs(rows),
        bound=bound_name(v),
        title=v.describe().split(", ", 1)[1],
        plan_url=lambda n: link("variants.plan_page", query(Variant(n, v.weight, v.lies, v.fakes, v.pans))),
    )


@api.get("/variants/table")
def table_json() -> Response:
    """A variant's table as JSON: each N with its fewest weighings (null: none or beyond reach) and bound."""
    v = _table_variant()
    rows: tuple[Row, ...] = computed(VARIANT_TABLE, VariantParams(v.to_token()))
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
    """Weigh against the adversarial scale: your weighings in the URL, its readings computed from them."""
    v = variant(request.args)
    if not variant_quick(v):
        raise LimitError("the adversary game is played on the sizes planned within a second (see the tables)")
    done = request.args.get("w", "")
    pans = [request.args.get(f"pan{i}") for i in range(1, v.pans + 1)]
    if any(p is not None for p in pans):
        step = "-".join((p or "").strip() for p in pans)
        parse_weighings(v, step)  # a bad weighing is a 400 here, not in the page it would lead to
        return go(link("variants.play_page", query(v, w=f"{done};{step}" if done else step)))
    game = play(plan_for(v)[0], parse_weighings(v, done))
    return render_template(
        "variants/play.html",
        v=v,
        game=game,
        query=query(v, w=done),
        plan_url=link("variants.plan_page", query(v)),
        restart_url=link("variants.play_page", query(v)),
    )

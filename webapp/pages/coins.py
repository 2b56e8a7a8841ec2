"""Counterfeit-coin pages (set-up form, plan navigator, whole tree, Dyson table) and the JSON API."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from flask import Blueprint, Response, jsonify, render_template, request

from solvers.errors import InputError, PuzzleError
from solvers.history import RESTART, Chain, chain_from_text
from solvers.report import as_json
from solvers.variants.model import refuse_mixed
from solvers.variants.report import report_of
from solvers.weighing import MAX_SCHEME_COINS, Objective, Problem, make_plan, min_weighings
from solvers.weighing.case import Case
from solvers.weighing.dyson import Label, Scheme
from solvers.weighing.plan import Plan, Ranges, describe, size
from solvers.weighing.report import (
    NodePage,
    check_tree_size,
    coins_report,
    node_page,
    node_view,
    scheme_for,
    verification,
)
from solvers.weighing.search import MinResult
from solvers.weighing.verify import Verification
from webapp.http import params
from webapp.http.htmx import go, link
from webapp.jobs.variant_plans import plan_for
from webapp.pages.gamebar import Bar, format_id, game_bar, id_route
from webapp.pages.puzzle import Puzzle

bp = Blueprint("coins", __name__, url_prefix="/coins")
api = Blueprint("coins_api", __name__, url_prefix="/api")

TREE_PAGE_COINS = 40


@bp.app_template_filter("describe_ranges")
def describe_ranges(r: Ranges) -> str:
    """Coin ranges in words with a count, e.g. '1-4 (4 coins)'."""
    n = size(r)
    return f"{describe(r)} ({n:,} coin{'' if n == 1 else 's'})" if n else "none"


def plan_url(endpoint: str, p: Problem, obj: Objective, **more: str) -> str:
    """The canonical URL of a page about a problem."""
    return link(endpoint, params.query(p, obj, **more))


@bp.route("", methods=["GET", "POST"])
def setup() -> Response | str | tuple[str, int]:
    """The set-up form; a valid POST redirects (303) to the plan's first weighing."""
    if request.method == "GET":
        return render_template("coins/setup.html", form=request.args, error=None)
    try:
        p, obj = params.problem(request.form), params.objective(request.form)
        plan = make_plan(p, obj)
    except PuzzleError as e:
        message = e.message
        return render_template("coins/setup.html", form=request.form, error=message), 400
    return go(plan_url("coins.node", plan.problem, obj))


START_AGAIN = "S"  # a restart in a path's undo chain


def _path_arg() -> str:
    """The plan path from the query (letters L, B, R; S: started again, in an undo chain)."""
    path = request.args.get("path", "")
    if len(path) > 64 or any(ch not in "LBR" + START_AGAIN for ch in path):
        raise InputError("path must be a string of the letters L, B and R", {"path": path[:40]})
    return path


def _chain() -> Chain:
    """The outcomes followed as an undo chain: path (every outcome entered and every restart, S), at (how many
    are in effect: the rest can be redone) and u (take-backs)."""
    path = _path_arg()
    entries = ",".join(RESTART if ch == START_AGAIN else ch for ch in path)
    return chain_from_text(entries, request.args.get("at", ""), request.args.get("u", ""))


def _path_query(c: Chain) -> dict[str, str]:
    """A chain as the plan URL writes it (the outcomes and restarts as one word)."""
    q = c.query("path")
    q["path"] = "".join(START_AGAIN if e == RESTART else e for e in c.entries)
    return q


def game_id(p: Problem, obj: Objective, path: str) -> str:
    """A plan node as a short ID: the problem's token, the objective and the outcomes followed (e.g.
    '12-unknown-identify-0-0:worst:LB')."""
    return format_id((p.to_token(), obj), path)


@id_route(bp, 3, "a plan", "problem:objective:outcomes, like 12-unknown-identify-0-0:worst:LB")
def _opened(parts: list[str], _: str | None) -> str:
    """Open the plan node an ID describes (see `game_id`)."""
    p = Problem.from_token(parts[0])
    obj = params.objective({"objective": parts[1]})
    path = parts[2].upper()
    if len(path) > 64 or any(ch not in "LBR" for ch in path):
        raise InputError("the outcomes are the letters L, B and R", {"path": path[:40]})
    node_view(make_plan(p, obj), path)
    return plan_url("coins.node", p, obj, path=path)


@bp.get("/plan")
def node() -> str:
    """One node of the plan: the weighing to make (or the answer) and what is known."""
    p, obj = params.problem(request.args), params.objective(request.args)
    chain = _chain()
    plan = make_plan(p, obj)
    for state in {*chain.states()}:  # the outcomes that can be redone lead somewhere too
        node_view(plan, "".join(state))
    page = node_page(p, obj, plan, verification(p, obj), "".join(chain.applied))
    return render_template("coins/node.html", page=page, view=_node_links(page, chain))


class NodeLinks(NamedTuple):
    """What the navigator page adds to its model: each outcome's path, the problem's query, the link to a path,
    the links to the tree, Dyson's scheme (where offered) and the JSON, and the bar."""

    play_path: dict[str, str]
    query: dict[str, str]
    url_for_path: Callable[[str], str]
    tree_url: str | None
    scheme_url: str | None
    api_url: str
    bar: Bar


def _node_links(page: NodePage, chain: Chain) -> NodeLinks:
    """The navigator page's links and bar."""
    p, obj, path = page.problem, page.objective, "".join(chain.applied)

    def at(c: Chain) -> str:
        return link("coins.node", params.query(p, obj, **_path_query(c)))

    return NodeLinks(
        play_path={o.letter: _path_query(chain.play(o.letter))["path"] for o in page.view.outcomes},
        query=params.query(p, obj),
        url_for_path=lambda q: plan_url("coins.node", p, obj, path=q),
        tree_url=plan_url("coins.tree", p, obj) if p.coins <= TREE_PAGE_COINS else None,
        scheme_url=plan_url("coins.scheme", p, obj) if p.coins <= MAX_SCHEME_COINS else None,
        api_url=plan_url("coins_api.coins_json", p, obj),
        bar=game_bar(game_id(p, obj, path), plan_url("coins.node", p, obj, path=path), chain, at, stats=None),
    )


@bp.get("/tree")
def tree() -> str:
    """The whole plan as a collapsible tree (up to 40 coins)."""
    p, obj = params.problem(request.args), params.objective(request.args)
    check_tree_size(p, TREE_PAGE_COINS)
    plan = make_plan(p, obj)

    def link_to(q: str) -> str:
        return plan_url("coins.node", p, obj, path=q)

    page = TreePage(
        p=p,
        obj=obj,
        plan=plan,
        v=verification(p, obj),
        root=plan.tree(),
        url_for_path=link_to,
        back_url=plan_url("coins.node", p, obj),
    )
    return render_template("coins/tree.html", page=page)


class TreePage(NamedTuple):
    """The whole plan's page: the problem and objective, the plan, its verification, its tree, a node's link by
    path, and the link back to the navigator."""

    p: Problem
    obj: Objective
    plan: Plan
    v: Verification
    root: dict[str, object]
    url_for_path: Callable[[str], str]
    back_url: str


@bp.get("/scheme")
def scheme() -> str:
    """Dyson's non-adaptive scheme: the fixed weighings and the decoding table."""
    p, obj = params.problem(request.args), params.objective(request.args)
    m = min_weighings(p)
    s, note = scheme_for(p)
    table = sorted(s.decode().items()) if s else []
    return render_template(
        "coins/scheme.html",
        page=SchemePage(p=p, obj=obj, m=m, s=s, note=note, table=table, back_url=plan_url("coins.node", p, obj)),
    )


class SchemePage(NamedTuple):
    """Dyson's scheme's page: the problem and objective, the fewest weighings, the scheme (or none, with the note
    saying why), its decoding table (reading -> answer), and the link back to the navigator."""

    p: Problem
    obj: Objective
    m: MinResult
    s: Scheme | None
    note: str | None
    table: list[tuple[Label, Case]]
    back_url: str


@api.get("/coins")
@params.takes("n weight goal extra maybe_none objective tree scheme lies fakes pans")
def coins_json() -> Response:
    """The counterfeit-coin report as JSON (tree=1 adds the whole plan, scheme=1 Dyson's scheme); lies, fakes or
    pans make it a variant's report."""
    if any(request.args.get(k, d) not in ("", d) for k, d in (("lies", "0"), ("fakes", "1"), ("pans", "2"))):
        return _variant_json()
    p, obj = params.problem(request.args), params.objective(request.args)
    want_tree, want_scheme = params.flag(request.args, "tree"), params.flag(request.args, "scheme")
    return jsonify(as_json(coins_report(p, obj, tree=want_tree, scheme=want_scheme)))


def _variant_json() -> Response:
    """A variant's report: the fewest weighings, the bound, the verification, the plan with tree=1."""
    a = request.args
    extra = a.get("extra", "0") not in ("", "0")
    refuse_mixed(
        a.get("goal", "identify"),
        extra,
        params.flag(a, "maybe_none"),
        a.get("objective", "worst"),
        params.flag(a, "scheme"),
    )
    plan, check = plan_for(params.variant(a))
    return jsonify(as_json(report_of(plan, check, tree=params.flag(a, "tree"))))


puzzle = Puzzle(
    area="coins",
    name="Counterfeit coin",
    endpoint="coins.setup",
    blurb="Find the fake among N coins with a balance: optimal plans, verified.",
    picture="A balance tipped to the left, two coins on each pan",
    sources="Every plan shown is checked by replaying every case before it is shown. Sources: Dyson (1946), "
    "Guy & Nowakowski (1995).",
    blueprints=(bp, api),
    presets=(
        ("12 coins, 3 weighings (the classic)", "coins.node", {"n": "12"}),
        ("13 coins, 3 weighings", "coins.node", {"n": "13"}),
        ("39 coins, 4 weighings", "coins.node", {"n": "39"}),
        ("120 coins, 5 weighings", "coins.node", {"n": "120"}),
    ),
)

"""The expensive results the site shows, as named computations for the result store and the job queue, and the
list that `coin-puzzles precompute` (and `make run`, in the background) fills the store with."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from solvers.aequitas.paper import Cell, cells
from solvers.aequitas.report import TableReport, table_report
from solvers.codebreak import HEURISTICS, STRATEGIES, Game, Node, Stats, verify
from solvers.codebreak import build_tree as codebreak_tree
from solvers.codebreak.game import TABLE_CELLS
from solvers.codebreak.strategy import optimal_limit
from solvers.devil import Solution, Variant, solve
from solvers.errors import LimitError
from solvers.pegs import BOARDS, PROBLEMS, Analysis, analyse, board, board_table, class_finals, pegs
from solvers.pegs.report import PegReport, peg_report
from solvers.pegs.table import Row as PegRow
from solvers.progress import Tick
from solvers.variants import model as variant_model
from solvers.variants.plan import Plan, StoredPlan, Verification, restored, stored
from solvers.variants.plan import make_plan as variant_plan
from solvers.variants.plan import verify as verify_variant
from solvers.variants.report import Row
from solvers.variants.report import table as variant_table

from .computations import Computation, Params
from .games import default_sizes, game_spec, load, shipped

QUICK_TABLE_HOLES = 15  # peg tables up to this many holes take well under a second
QUICK_PEGS = 10  # any board with this few coins left is analysed at once
QUICK_DEVIL_CONFIGS = 512  # Devil variants up to 2^9 tables
QUICK_AEQUITAS = 12  # the Æquitas table up to N = 12
QUICK_HEURISTIC_SECRETS = 256
QUICK_OPTIMAL_SECRETS = 30
PRECOMPUTED_OPTIMAL = {  # optimal searches proved within minutes at their files' sizes
    ("mastermind", "optimal-worst"),
    ("mastermind", "optimal-average"),
    ("counterfeit-coin", "optimal-worst"),
    ("counterfeit-coin", "optimal-average"),
    ("bulls-and-cows", "optimal-worst"),
    ("bulls-and-cows", "optimal-average"),
    ("mastermind-black", "optimal-worst"),
    ("mastermind-black", "optimal-average"),
}
LATE_OPTIMAL = {("bulls-and-cows", "optimal-average")}  # minutes: after the quicker results
QUICK_GAME_SECRETS = 1296  # outcome tables up to Mastermind 4x6 take a fraction of a second


def _game_quick(p: Params) -> bool:
    """Small tables, and games scored on demand (no table to fill: Super Mastermind builds in 0.2 s) or refused."""
    n = secrets_count(p)
    return n <= QUICK_GAME_SECRETS or n * n > TABLE_CELLS


def _pegs_table(p: Params, tick: Tick) -> tuple[Any, ...]:
    """Every start of a board."""
    return board_table(str(p["board"]), tick)


def _pegs_report(p: Params, tick: Tick) -> PegReport:
    """The API's thorough analysis of a position."""
    b = board(str(p["board"]))
    return peg_report(b, int(p["position"]), p.get("hole"), bool(p.get("count")), p.get("finish") or None, tick)


def _pegs_analysis(p: Params, tick: Tick) -> Analysis:
    """Solvability, fewest moves where exact, and a solution, for the play page's hints and solutions."""
    b = board(str(p["board"]))
    return analyse(b, int(p["position"]), finish=b.index(p["finish"]) if p.get("finish") else None)


def _pegs_analysis_quick(p: Params) -> bool:
    """Small boards, few coins, or a position the invariant settles at once."""
    b, pos = board(str(p["board"])), int(p["position"])
    return b.size <= QUICK_TABLE_HOLES or pegs(pos) <= QUICK_PEGS or (pegs(pos) > 1 and not class_finals(b, pos))


def _devil(p: Params, tick: Tick) -> Solution:
    """The shortest sure win for a variant, or why there is none."""
    return solve(Variant(int(p["n"]), p["goal"], bool(p["reflections"]), int(p["states"])), tick)


def _devil_quick(p: Params) -> bool:
    """Small variants."""
    return int(int(p["states"]) ** int(p["n"])) <= QUICK_DEVIL_CONFIGS


def _codebreak(p: Params, tick: Tick) -> tuple[Node, Stats]:
    """A strategy's tree and its verified statistics."""
    limit = optimal_limit(str(p["strategy"]))
    if p["strategy"] not in HEURISTICS and secrets_count(p) > limit:
        raise LimitError(f"the {p['strategy']} search is limited to games of {limit:,} secrets")
    g = load(str(p["game"]), p.get("pegs"), p.get("colours"), p.get("coins"))
    tree = codebreak_tree(g, p["strategy"], tick)
    return tree, verify(g, tree)


def secrets_count(p: Params) -> int:
    """How many secrets a game has, from its file and sizes, without building it."""
    spec = game_spec(str(p["game"]))
    if spec.secrets[0] == "coins":
        return 2 * int(p.get("coins") or spec.secrets[1].get("count", "4"))
    length = int(p.get("pegs") or spec.secrets[1].get("length", "4"))
    colours = int(p.get("colours") or spec.secrets[1].get("colours", "6"))
    if spec.secrets[1].get("repeats", "yes") == "yes":
        return int(colours**length)
    return math.perm(colours, length)


def _codebreak_quick(p: Params) -> bool:
    """Heuristics on small games, optimal search on tiny ones (and refusals of games too large for it)."""
    n = secrets_count(p)
    if str(p["strategy"]) not in HEURISTICS and n > optimal_limit(str(p["strategy"])):
        return True
    return n <= (QUICK_HEURISTIC_SECRETS if str(p["strategy"]) in HEURISTICS else QUICK_OPTIMAL_SECRETS)


def _game(p: Params, tick: Tick) -> Game:
    """A built game: its secrets, experiments and outcome table."""
    return load(str(p["game"]), p.get("pegs"), p.get("colours"), p.get("coins"))


def _aequitas(p: Params, tick: Tick) -> tuple[tuple[Cell, ...], TableReport]:
    """The comparison table with the paper, and its report with the certificates of every disagreement."""
    rows = tuple(cells(int(p["max"]), tick))
    return rows, table_report(int(p["max"]), rows)


PEGS_TABLE = Computation(
    "pegs.table",
    _pegs_table,
    lambda p: board(str(p["board"])).size <= QUICK_TABLE_HOLES,
    lambda p: f"the table of starts for {p['board']}",
    tuple[PegRow, ...],
)
PEGS_REPORT = Computation(
    "pegs.report",
    _pegs_report,
    lambda p: board(str(p["board"])).size <= QUICK_TABLE_HOLES,
    lambda p: f"the analysis of a {p['board']} position",
    PegReport,
)
PEGS_ANALYSIS = Computation(
    "pegs.analysis",
    _pegs_analysis,
    _pegs_analysis_quick,
    lambda p: f"a hint for this {p['board']} position",
    Analysis,
)
DEVIL = Computation("devil.solve", _devil, _devil_quick, lambda p: f"the Devil's game for {p['n']} coins", Solution)
CODEBREAK = Computation(
    "codebreak.tree",
    _codebreak,
    _codebreak_quick,
    lambda p: f"the {p['strategy']} strategy for {p['game']}",
    tuple[Node, Stats],
)
GAME = Computation(
    "codebreak.game",
    _game,
    _game_quick,
    lambda p: f"the outcome table of {p['game']}",
    Game,
)
AEQUITAS = Computation(
    "aequitas.table",
    _aequitas,
    lambda p: int(p["max"]) <= QUICK_AEQUITAS,
    lambda p: f"the Æquitas table up to {p['max']} coins",
    tuple[tuple[Cell, ...], TableReport],
)


def _variant(p: Params) -> variant_model.Variant:
    """The variant named by a store key's parameters."""
    return variant_model.Variant.from_token(str(p["variant"]))


def _variant_plan(p: Params, tick: Tick) -> tuple[Plan, Verification]:
    """A variant's optimal plan, verified on every secret and every way the scale may lie."""
    plan = variant_plan(_variant(p), tick)
    check = verify_variant(plan)
    return plan, check


QUICK_VARIANT = {"lies1": 40, "lies2": 10, "fakes": 30, "pans": 40}  # coins planned and verified within ~1 s


def variant_quick(v: variant_model.Variant) -> bool:
    """Variants small enough to plan inside a request."""
    key = f"lies{v.lies}" if v.lies else "fakes" if v.fakes == 2 else "pans"
    return v.coins <= QUICK_VARIANT[key]


def _variant_table(p: Params, tick: Tick) -> tuple[Row, ...]:
    """A variant's table for N = 1..100, each figure proved and its plan verified."""
    return variant_table(_variant(p), tick)


VARIANT_PLAN = Computation(
    "variants.plan",
    _variant_plan,
    lambda p: variant_quick(_variant(p)),
    lambda p: f"the plan for {_variant(p).describe()}",
    tuple[StoredPlan, Verification],
    lambda r: (stored(r[0]), r[1]),
    lambda r: (restored(r[0]), r[1]),
)
VARIANT_TABLE = Computation(
    "variants.table",
    _variant_table,
    lambda p: False,
    lambda p: f"the table for {_variant(p).describe().split(', ', 1)[1]}, N = 1 to 100",
    tuple[Row, ...],
)
COMPUTATIONS: tuple[Computation[Any], ...] = (
    PEGS_TABLE,
    PEGS_REPORT,
    PEGS_ANALYSIS,
    DEVIL,
    CODEBREAK,
    GAME,
    AEQUITAS,
    VARIANT_PLAN,
    VARIANT_TABLE,
)
REGISTRY: dict[str, Computation[Any]] = {c.name: c for c in COMPUTATIONS}  # a queued job names its computation
VARIANT_TABLES = (
    *[variant_model.Variant(1, w, lies=lies) for lies in (1, 2) for w in ("unknown", "heavier")],
    *[variant_model.Variant(2, w, fakes=2) for w in ("heavier", "unknown")],
    *[variant_model.Variant(1, w, pans=k) for k in (3, 4, 5) for w in ("unknown", "heavier")],
)


def devil_params(v: Variant) -> dict[str, Any]:
    """The store's parameters for a Devil variant."""
    return {"n": v.n, "goal": v.goal, "reflections": v.reflections, "states": v.states}


def codebreak_params(game: str, sizes: tuple[int | None, int | None, int | None], strategy: str) -> dict[str, Any]:
    """The store's parameters for a strategy tree."""
    return {"game": game, "pegs": sizes[0], "colours": sizes[1], "coins": sizes[2], "strategy": strategy}


def pegs_problem(name: str, hole: str, finish: str) -> dict[str, Any]:
    """The store's parameters for a classic problem's report (as the solution page asks for it)."""
    b = board(name)
    return {"board": name, "position": b.start(hole), "hole": hole, "count": False, "finish": finish}


def everything() -> Iterator[tuple[Computation[Any], dict[str, Any]]]:
    """Every stored result the site links to, cheapest first (what precompute fills the store with)."""
    for name in sorted(BOARDS, key=lambda k: board(k).size):
        yield PEGS_TABLE, {"board": name}
    for states, top in ((2, 16), (3, 4), (4, 3)):
        for n in range(1, top + 1):
            for goal in ("all-heads", "all-equal"):
                for reflections in (False, True):
                    if states**n <= 1 << 16:
                        yield DEVIL, {"n": n, "goal": goal, "reflections": reflections, "states": states}
    for max_coins in (30, 40):
        yield AEQUITAS, {"max": max_coins}
    later = []
    for game, spec in shipped().items():
        sizes = default_sizes(spec)
        yield GAME, {"game": game, "pegs": sizes[0], "colours": sizes[1], "coins": sizes[2]}
        for strategy in STRATEGIES:
            params = codebreak_params(game, sizes, strategy)
            small = secrets_count(params) <= QUICK_OPTIMAL_SECRETS
            if (game, strategy) in LATE_OPTIMAL:
                later.append(params)
            elif strategy in HEURISTICS or small or (game, strategy) in PRECOMPUTED_OPTIMAL:
                yield CODEBREAK, params
    for params in later:
        yield CODEBREAK, params
    for name, problems in PROBLEMS.items():  # the French board's takes minutes
        for hole, finish in problems:
            yield PEGS_REPORT, pegs_problem(name, hole, finish)
    for v in VARIANT_TABLES:  # minutes each: last
        yield VARIANT_TABLE, {"variant": v.to_token()}

"""The expensive results the site shows, as named computations for the result store and the job queue, and the
list that `coin-puzzles precompute` (and `make run`, in the background) fills the store with."""

from __future__ import annotations

import errno
import shutil
from collections.abc import Callable, Iterator
from typing import Any

from solvers.aequitas.paper import Cell, cells
from solvers.aequitas.report import TableReport, table_report
from solvers.codebreak import HEURISTICS, STRATEGIES, optima
from solvers.devil import Solution, Variant, solve
from solvers.devil.variant import GOALS, Goal
from solvers.errors import LimitError
from solvers.pegs import (
    BOARDS,
    EXACT_MAX_HOLES,
    PROBLEMS,
    Analysis,
    Board,
    analyse,
    board,
    board_table,
    class_finals,
    listed_problem,
    pegs,
    quick_exact,
)
from solvers.pegs.fewest import Means
from solvers.pegs.report import PegReport, peg_report, proved_start
from solvers.pegs.table import Row as PegRow
from solvers.progress import Tick
from solvers.variants import model as variant_model
from solvers.variants.plan import Plan, StoredPlan, Verification, restored, stored
from solvers.variants.plan import make_plan as variant_plan
from solvers.variants.plan import verify as verify_variant
from solvers.variants.report import Row
from solvers.variants.report import table as variant_table

from .codebreak_results import (
    CODEBREAK,
    GAME,
    LARGE_POSSIBLE_ONLY,
    LESSON,
    QUICK_OPTIMAL_SECRETS,
    codebreak_params,
    game_params,
    secrets_count,
)
from .computations import Computation, Params
from .games import default_sizes, shipped

QUICK_TABLE_HOLES = 15  # peg tables up to this many holes take well under a second
QUICK_PEGS = 10  # any board with this few coins left is analysed at once
QUICK_DEVIL_CONFIGS = 512  # Devil variants up to 2^9 tables
QUICK_AEQUITAS = 12  # the Æquitas table up to N = 12
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
# the optimal average guessing possible codes only, at the files' sizes: Mastermind's in a second (Super
# Mastermind's only by `coin-puzzles precompute`: LARGE_POSSIBLE_ONLY)
PRECOMPUTED_POSSIBLE_ONLY = {"mastermind"}


class BoardParams(Params, frozen=True):
    """A peg board's table of starts."""

    board: str


class PositionParams(Params, frozen=True):
    """A peg position's analysis (finish: a hole's label, or '' for anywhere)."""

    board: str
    position: int
    finish: str = ""


class ReportParams(Params, frozen=True):
    """A peg position's thorough report (hole: the start's empty hole; count: count the solutions)."""

    board: str
    position: int
    hole: str | None = None
    count: bool = False
    finish: str | None = None


class DevilParams(Params, frozen=True):
    """A variant of the Devil's game."""

    n: int
    goal: Goal
    reflections: bool
    states: int


class AequitasParams(Params, frozen=True):
    """The Æquitas comparison table up to a number of coins."""

    max: int


class VariantParams(Params, frozen=True):
    """A weighing variant, by its token."""

    variant: str

    def model(self) -> variant_model.Variant:
        """The variant."""
        return variant_model.Variant.from_token(self.variant)


def _pegs_table(p: BoardParams, tick: Tick) -> tuple[PegRow, ...]:
    """Every start of a board."""
    return tuple(board_table(p.board, tick))


SPILLED_STATES = 3_000_000_000  # states a listed problem's search may build at once, on disk (48 GB of files)


def _pegs_report(p: ReportParams, tick: Tick) -> PegReport:
    """The API's thorough analysis of a position. A listed problem's fewest-moves search (PROBLEMS) keeps its
    levels on disk in the instance folder (webapp/peg_spill.py), up to SPILLED_STATES, so that a stopped job resumes
    where it was; any other position's search stays in memory within its usual limit (a visitor's job stopped at
    its time limit leaves no files behind). A full disk ends it with a clear message, its files removed."""
    from . import config
    from .peg_spill import spill_for

    b = board(p.board)
    listed = p.hole is not None and p.finish and p.position == b.start(p.hole) and listed_problem(b, p.hole, p.finish)
    if not listed or b.size <= EXACT_MAX_HOLES:
        return peg_report(b, p.position, p.hole, p.count, p.finish or None, tick)
    spill = spill_for(config.instance_path(), b.name, f"{p.position:x}", str(p.finish))
    try:
        start = LATE_PROBLEMS.get((b.name, p.hole or "", str(p.finish)), 0)
        means = Means(spill, SPILLED_STATES, start)
        report = peg_report(b, p.position, p.hole, p.count, p.finish, tick, means)
    except LimitError:  # out of states: nothing to resume
        spill.clear()
        raise
    except OSError as e:
        if e.errno != errno.ENOSPC:
            raise
        spill.clear()
        free = shutil.disk_usage(config.instance_path()).free
        raise LimitError(
            f"this proof needs more disk than the instance folder has ({free / 2**30:.1f} GB free once its "
            "files were removed; French d3 to a5 needs 13 GB)"
        ) from None
    spill.clear()
    return report


def _pegs_analysis(p: PositionParams, tick: Tick) -> Analysis:
    """Solvability, fewest moves where exact, and a solution, for the play page's hints and solutions."""
    b = board(p.board)
    return analyse(b, p.position, finish=b.index(p.finish) if p.finish else None)


def _pegs_search(p: PositionParams, tick: Tick) -> Analysis:
    """A solution by the thorough depth-first search (its budget 40 times a hint's: most of a minute on the French
    board), where a hint's search ran out of budget."""
    b = board(p.board)
    return analyse(b, p.position, thorough=True, finish=b.index(p.finish) if p.finish else None)


def _pegs_analysis_quick(p: PositionParams) -> bool:
    """Small boards, few coins, or a position the invariant settles at once."""
    b, pos = board(p.board), p.position
    return b.size <= QUICK_TABLE_HOLES or pegs(pos) <= QUICK_PEGS or (pegs(pos) > 1 and not class_finals(b, pos))


def _devil(p: DevilParams, tick: Tick) -> Solution:
    """The shortest sure win for a variant, or why there is none."""
    return solve(Variant(p.n, p.goal, p.reflections, p.states), tick)


def _devil_quick(p: DevilParams) -> bool:
    """Small variants."""
    return int(p.states**p.n) <= QUICK_DEVIL_CONFIGS


def _aequitas(p: AequitasParams, tick: Tick) -> tuple[tuple[Cell, ...], TableReport]:
    """The comparison table with the paper, and its report with the certificates of every disagreement."""
    rows = tuple(cells(p.max, tick))
    return rows, table_report(p.max, rows)


PEGS_TABLE = Computation(
    "pegs.table",
    BoardParams,
    _pegs_table,
    lambda p: board(p.board).size <= QUICK_TABLE_HOLES,
    lambda p: f"the table of starts for {p.board}",
    tuple[PegRow, ...],
)
PEGS_REPORT = Computation(
    "pegs.report",
    ReportParams,
    _pegs_report,
    lambda p: board(p.board).size <= QUICK_TABLE_HOLES,
    lambda p: f"the analysis of a {p.board} position",
    PegReport,
)
PEGS_ANALYSIS = Computation(
    "pegs.analysis",
    PositionParams,
    _pegs_analysis,
    _pegs_analysis_quick,
    lambda p: f"a hint for this {p.board} position",
    Analysis,
    lane=lambda p: "quick",  # a hint's search stops at its budget within seconds
)
PEGS_SEARCH = Computation(
    "pegs.search",
    PositionParams,
    _pegs_search,
    _pegs_analysis_quick,
    lambda p: f"a solution for this {p.board} position",
    Analysis,
)
DEVIL = Computation(
    "devil.solve", DevilParams, _devil, _devil_quick, lambda p: f"the Devil's game for {p.n} coins", Solution
)
AEQUITAS = Computation(
    "aequitas.table",
    AequitasParams,
    _aequitas,
    lambda p: p.max <= QUICK_AEQUITAS,
    lambda p: f"the Æquitas table up to {p.max} coins",
    tuple[tuple[Cell, ...], TableReport],
)


def _variant_plan(p: VariantParams, tick: Tick) -> tuple[Plan, Verification]:
    """A variant's optimal plan, verified on every secret and every way the scale may lie."""
    plan = variant_plan(p.model(), tick)
    check = verify_variant(plan)
    return plan, check


QUICK_VARIANT = {"lies1": 40, "lies2": 10, "fakes": 30, "pans": 40}  # coins planned and verified within ~1 s


def variant_quick(v: variant_model.Variant) -> bool:
    """Variants small enough to plan inside a request."""
    key = f"lies{v.lies}" if v.lies else "fakes" if v.fakes == 2 else "pans"
    return v.coins <= QUICK_VARIANT[key]


def _variant_table(p: VariantParams, tick: Tick) -> tuple[Row, ...]:
    """A variant's table for N = 1..100, each figure proved and its plan verified."""
    return variant_table(p.model(), tick)


VARIANT_PLAN = Computation(
    "variants.plan",
    VariantParams,
    _variant_plan,
    lambda p: variant_quick(p.model()),
    lambda p: f"the plan for {p.model().describe()}",
    tuple[StoredPlan, Verification],
    lambda r: (stored(r[0]), r[1]),
    lambda r: (restored(r[0]), r[1]),
)
VARIANT_TABLE = Computation(
    "variants.table",
    VariantParams,
    _variant_table,
    lambda p: False,
    lambda p: f"the table for {p.model().describe().split(', ', 1)[1]}, N = 1 to 100",
    tuple[Row, ...],
)
COMPUTATIONS: tuple[Computation[Any, Any], ...] = (
    PEGS_TABLE,
    PEGS_REPORT,
    PEGS_ANALYSIS,
    PEGS_SEARCH,
    DEVIL,
    CODEBREAK,
    LESSON,
    GAME,
    AEQUITAS,
    VARIANT_PLAN,
    VARIANT_TABLE,
)
REGISTRY: dict[str, Computation[Any, Any]] = {c.name: c for c in COMPUTATIONS}  # a queued job names its computation


def from_key(key: str) -> tuple[Computation[Any, Any], Params] | None:
    """A store key read back (the inverse of `Computation.key`): its computation and parameters, or None when the
    key is no computation's of this version."""
    import json

    import msgspec

    name, _, rest = key.partition("@")
    c = REGISTRY.get(name)
    try:
        return (c, c.parse(json.loads(rest.partition(":")[2]))) if c is not None else None
    except (ValueError, TypeError, msgspec.ValidationError):
        return None


VARIANT_TABLES = (
    *[variant_model.Variant(1, w, lies=lies) for lies in (1, 2) for w in ("unknown", "heavier")],
    *[variant_model.Variant(2, w, fakes=2) for w in ("heavier", "unknown")],
    *[variant_model.Variant(1, w, pans=k) for k in (3, 4, 5) for w in ("unknown", "heavier")],
)


def devil_params(v: Variant) -> DevilParams:
    """The store's parameters for a Devil variant."""
    return DevilParams(v.n, v.goal, v.reflections, v.states)


def pegs_problem(name: str, hole: str, finish: str) -> ReportParams:
    """The store's parameters for a classic problem's report (as the solution page asks for it)."""
    return ReportParams(name, board(name).start(hole), hole, False, finish)


def settled_start(
    b: Board, hole: str, finish: str | None, look: Callable[[ReportParams], PegReport | None]
) -> Analysis | None:
    """A start's proved fewest-move solution from the stored proofs of the listed problems (look: a stored report,
    or None), for a finish hole or, once every finish its position class allows is proved, anywhere; None when
    the stored proofs do not settle it (or on boards the exact analysis answers at once)."""
    if quick_exact(b, b.start(hole)):
        return None
    finishes = [finish] if finish else [b.labels[f] for f in class_finals(b, b.start(hole))]
    reports: dict[str, PegReport | None] = {}
    for f in finishes:
        listed = listed_problem(b, hole, f)
        try:
            reports[f] = look(pegs_problem(b.name, *listed)) if listed else None
        except LimitError:  # a stored refusal (out of states): not settled
            reports[f] = None
    return proved_start(b, hole, finish, reports)


# Most of an hour of both cores and 13 GB of disk each, resumed after a restart: only in `make precompute`, last
# (docs/puzzles/pegs.md); each with the limit its search starts from. Any start gives a proof (solvers/pegs/meet.py
# `fewest_meet`); d3 to a5's searches with limits up to 19 were seen to fail on 2026-11-25 (its in-memory search
# then ran out of room at 20), so it starts at 20 rather than spend an hour on them again.
LATE_PROBLEMS = {("french", "d3", "a5"): 20}
# The listed problems `make run`'s background queue proves: the centre game only (17 s here). The other 20 English
# problems (9 minutes of both cores together) and the French board's (minutes to hours each, up to 5.6 GB) are left
# to `make precompute`, so that the queue fills within 15 minutes of start on two cores (with them all it took 17);
# a visitor opening one queues it (the table says which are proved, being computed, or not computed yet).
BACKGROUND_PROBLEMS = {("english", "d4", "d4")}
Item = tuple[Computation[Any, Any], Params]  # a computation and its parameters


def everything(large: bool = False) -> Iterator[Item]:
    """Every stored result the site links to, cheapest first (what precompute fills the store with). Only when
    large (`coin-puzzles precompute`, not the background queue of `make run`: they would hold both cores for long
    on every new install): the Mastermind optima table's games above `optima.AUTOMATIC_SECRETS` secrets (minutes
    each), the weighing variants' tables (VARIANT_TABLES: a minute to beyond ten each), the listed peg problems
    but BACKGROUND_PROBLEMS, those of LATE_PROBLEMS last (the longest, resumable),
    and Super Mastermind's optimum guessing possible codes only (LARGE_POSSIBLE_ONLY: a minute from its snapshot,
    but 6.6 GB over three processes, too much beside the site's other jobs); the table's sizes not proved yet
    (`optima.FRONTIER`: days) after all of them. A long proof with a snapshot in webapp/data/proofs resumes from it
    (`codebreak_results.shipped_entries`)."""
    for name in sorted(BOARDS, key=lambda k: board(k).size):
        yield PEGS_TABLE, BoardParams(name)
    for states, top in ((2, 16), (3, 4), (4, 3)):
        for n in range(1, top + 1):
            for goal in GOALS:
                for reflections in (False, True):
                    if states**n <= 1 << 16:
                        yield DEVIL, DevilParams(n, goal, reflections, states)
    for max_coins in (30, 40):
        yield AEQUITAS, AequitasParams(max_coins)
    later = []
    for game, spec in shipped().items():
        sizes = default_sizes(spec)
        yield GAME, game_params(game, sizes)
        for strategy in STRATEGIES:
            params = codebreak_params(game, sizes, strategy)
            small = secrets_count(params) <= QUICK_OPTIMAL_SECRETS
            if (game, strategy) in LATE_OPTIMAL:
                later.append(params)
            elif strategy in HEURISTICS or small or (game, strategy) in PRECOMPUTED_OPTIMAL:
                yield CODEBREAK, params
    for params in later:
        yield CODEBREAK, params
    for game in sorted(PRECOMPUTED_POSSIBLE_ONLY):
        yield CODEBREAK, codebreak_params(game, default_sizes(shipped()[game]), "optimal-average", possible_only=True)
    for name, problems in PROBLEMS.items():
        for hole, finish in problems:
            if (name, hole, finish) not in LATE_PROBLEMS and (large or (name, hole, finish) in BACKGROUND_PROBLEMS):
                yield PEGS_REPORT, pegs_problem(name, hole, finish)
    for v in VARIANT_TABLES if large else ():  # a minute to beyond ten each (lies 2, heavier or lighter)
        yield VARIANT_TABLE, VariantParams(v.to_token())
    table = optima.sizes(optima.MAX_SECRETS if large else optima.AUTOMATIC_SECRETS)
    for size in [s for s in table if s not in optima.FRONTIER]:
        yield from _optima_cell(size)
    for name, hole, finish in sorted(LATE_PROBLEMS) if large else ():
        yield PEGS_REPORT, pegs_problem(name, hole, finish)
    for game in sorted(LARGE_POSSIBLE_ONLY) if large else ():
        yield CODEBREAK, codebreak_params(game, default_sizes(shipped()[game]), "optimal-average", possible_only=True)
    for size in [s for s in table if s in optima.FRONTIER]:  # not proved yet anywhere: after everything else
        yield from _optima_cell(size)


def _optima_cell(size: tuple[int, int]) -> Iterator[Item]:
    """The two proofs of a cell of the Mastermind optima table."""
    for strategy in ("optimal-average", "optimal-worst"):
        yield CODEBREAK, codebreak_params("mastermind", (*size, None), strategy)

"""The expensive results the site shows, as named computations for the result store and the job queue, and the
list that `coin-puzzles precompute` (and `make run`, in the background) fills the store with."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import msgspec

from solvers.aequitas.paper import PaperCell, cells
from solvers.aequitas.report import TableReport, table_report
from solvers.checkpoint import Checkpoint
from solvers.devil import DevilVariant, Solution, solve
from solvers.devil.variant import DevilGoal
from solvers.errors import LimitError
from solvers.pegs import (
    EXACT_MAX_HOLES,
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
from solvers.pegs.report import PegReport, counted, on_proved_path, peg_report, proved_start
from solvers.pegs.shipped import shipped_start
from solvers.pegs.table import PegRow
from solvers.progress import Tick
from solvers.variants import model as variant_model
from solvers.variants.plan import StoredPlan, VariantPlan, VariantVerification, restored, stored
from solvers.variants.plan import make_plan as variant_plan
from solvers.variants.plan import verify as verify_variant
from solvers.variants.report import VariantRow
from solvers.variants.report import table as variant_table
from webapp.results.codebreak_results import (
    CODEBREAK,
    GAME,
    LESSON,
    SECOND,
)
from webapp.results.computations import Computation, Params
from webapp.results.peg_spill import report_on_disk

QUICK_TABLE_HOLES = 15  # peg tables up to this many holes take well under a second
QUICK_PEGS = 10  # any board with this few coins left is analysed at once
QUICK_DEVIL_CONFIGS = 512  # Devil variants up to 2^9 tables
QUICK_AEQUITAS = 12  # the Æquitas table up to N = 12


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
    goal: DevilGoal
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


QUICK_VARIANT = {"lies1": 40, "lies2": 10, "fakes": 30, "pans": 40}  # coins planned and verified within ~1 s


def variant_quick(v: variant_model.Variant) -> bool:
    """Variants small enough to plan inside a request."""
    key = f"lies{v.lies}" if v.lies else "fakes" if v.fakes == 2 else "pans"
    return v.coins <= QUICK_VARIANT[key]


class PegsTable(Computation[BoardParams, tuple[PegRow, ...]]):
    """Every start of a board."""

    name, params, stored_as = "pegs.table", BoardParams, tuple[PegRow, ...]

    def run(self, p: BoardParams, tick: Tick, checkpoint: Checkpoint | None = None) -> tuple[PegRow, ...]:
        return tuple(board_table(p.board, tick))

    def quick(self, p: BoardParams) -> bool:
        return board(p.board).size <= QUICK_TABLE_HOLES

    def title(self, p: BoardParams) -> str:
        return f"the table of starts for the {board(p.board).title}"


class PegsReport(Computation[ReportParams, PegReport]):
    """The API's thorough analysis of a position. A listed problem's fewest-moves search (PROBLEMS) keeps its
    levels on disk in the instance folder (`peg_spill.report_on_disk`), so that a stopped job resumes where it was;
    any other position's search stays in memory within its usual limit (a visitor's job stopped at its time limit
    leaves no files behind)."""

    name, params, stored_as = "pegs.report", ReportParams, PegReport

    def run(self, p: ReportParams, tick: Tick, checkpoint: Checkpoint | None = None) -> PegReport:
        b = board(p.board)
        listed = (
            p.hole is not None and p.finish and p.position == b.start(p.hole) and listed_problem(b, p.hole, p.finish)
        )
        if not listed or b.size <= EXACT_MAX_HOLES:
            return peg_report(b, p.position, p.hole, p.count, p.finish or None, tick)
        return report_on_disk(b, p.position, p.hole or "", str(p.finish), p.count, tick)

    def check(self, p: ReportParams) -> None:
        counted(board(p.board), p.count, p.finish)

    def quick(self, p: ReportParams) -> bool:
        return board(p.board).size <= QUICK_TABLE_HOLES

    def title(self, p: ReportParams) -> str:
        return f"the analysis of a position on the {board(p.board).title}"


class PegsAnalysis(Computation[PositionParams, Analysis]):
    """Solvability, fewest moves where exact, and a solution, for the play page's hints and solutions (the quick
    lane: a hint's search stops at its budget within seconds)."""

    name, params, stored_as = "pegs.analysis", PositionParams, Analysis

    def run(self, p: PositionParams, tick: Tick, checkpoint: Checkpoint | None = None) -> Analysis:
        b = board(p.board)
        return analyse(b, p.position, finish=b.index(p.finish) if p.finish else None)

    def quick(self, p: PositionParams) -> bool:
        """Small boards, few coins, or a position the invariant settles at once."""
        b, pos = board(p.board), p.position
        return b.size <= QUICK_TABLE_HOLES or pegs(pos) <= QUICK_PEGS or (pegs(pos) > 1 and not class_finals(b, pos))

    def title(self, p: PositionParams) -> str:
        return f"the best moves from this position on the {board(p.board).title}"  # for a hint or a solution

    def lane(self, p: PositionParams) -> str:
        return "quick"


class PegsSearch(Computation[PositionParams, Analysis]):
    """A solution by the thorough depth-first search (its budget 40 times a hint's: most of a minute on the French
    board), where a hint's search ran out of budget; quick where a hint is (`PegsAnalysis.quick`)."""

    name, params, stored_as = "pegs.search", PositionParams, Analysis

    def run(self, p: PositionParams, tick: Tick, checkpoint: Checkpoint | None = None) -> Analysis:
        b = board(p.board)
        return analyse(b, p.position, thorough=True, finish=b.index(p.finish) if p.finish else None)

    def quick(self, p: PositionParams) -> bool:
        return PEGS_ANALYSIS.quick(p)

    def title(self, p: PositionParams) -> str:
        return f"a solution for this position on the {board(p.board).title}"


class Devil(Computation[DevilParams, Solution]):
    """The shortest sure win for a variant of the Devil's game, or why there is none."""

    name, params, stored_as = "devil.solve", DevilParams, Solution

    def run(self, p: DevilParams, tick: Tick, checkpoint: Checkpoint | None = None) -> Solution:
        return solve(DevilVariant(p.n, p.goal, p.reflections, p.states), tick)

    def quick(self, p: DevilParams) -> bool:
        return int(p.states**p.n) <= QUICK_DEVIL_CONFIGS

    def title(self, p: DevilParams) -> str:
        return f"the Devil's game for {p.n} coins"


class Aequitas(Computation[AequitasParams, tuple[tuple[PaperCell, ...], TableReport]]):
    """The comparison table with the paper, and its report with the certificates of every disagreement."""

    name, params, stored_as = "aequitas.table", AequitasParams, tuple[tuple[PaperCell, ...], TableReport]

    def run(
        self, p: AequitasParams, tick: Tick, checkpoint: Checkpoint | None = None
    ) -> tuple[tuple[PaperCell, ...], TableReport]:
        rows = tuple(cells(p.max, tick))
        return rows, table_report(p.max, rows)

    def quick(self, p: AequitasParams) -> bool:
        return p.max <= QUICK_AEQUITAS

    def title(self, p: AequitasParams) -> str:
        return f"the Æquitas table up to {p.max} coins"


class VariantPlanOf(Computation[VariantParams, tuple[VariantPlan, VariantVerification]]):
    """A variant's optimal plan, verified on every secret and every way the scale may lie (stored without its
    search: `StoredPlan`)."""

    name, params, stored_as = "variants.plan", VariantParams, tuple[StoredPlan, VariantVerification]

    def run(
        self, p: VariantParams, tick: Tick, checkpoint: Checkpoint | None = None
    ) -> tuple[VariantPlan, VariantVerification]:
        plan = variant_plan(p.model(), tick)
        return plan, verify_variant(plan)

    def quick(self, p: VariantParams) -> bool:
        return variant_quick(p.model())

    def title(self, p: VariantParams) -> str:
        return f"the plan for {p.model().describe()}"

    def dump(self, value: tuple[VariantPlan, VariantVerification]) -> object:
        return stored(value[0]), value[1]

    def load(self, kept: Any) -> tuple[VariantPlan, VariantVerification]:
        return restored(kept[0]), kept[1]


class VariantTable(Computation[VariantParams, tuple[VariantRow, ...]]):
    """The table of a variant's family for N = 1 to 100 coins."""

    name, params, stored_as = "variants.table", VariantParams, tuple[VariantRow, ...]

    def run(self, p: VariantParams, tick: Tick, checkpoint: Checkpoint | None = None) -> tuple[VariantRow, ...]:
        return variant_table(p.model(), tick)

    def quick(self, p: VariantParams) -> bool:
        return False

    def title(self, p: VariantParams) -> str:
        return f"the table for {p.model().describe().split(', ', 1)[1]}, N = 1 to 100"


PEGS_TABLE, PEGS_REPORT, PEGS_ANALYSIS, PEGS_SEARCH = PegsTable(), PegsReport(), PegsAnalysis(), PegsSearch()
DEVIL, AEQUITAS, VARIANT_PLAN, VARIANT_TABLE = Devil(), Aequitas(), VariantPlanOf(), VariantTable()


COMPUTATIONS: tuple[Computation[Any, Any], ...] = (
    PEGS_TABLE,
    PEGS_REPORT,
    PEGS_ANALYSIS,
    PEGS_SEARCH,
    DEVIL,
    CODEBREAK,
    LESSON,
    SECOND,
    GAME,
    AEQUITAS,
    VARIANT_PLAN,
    VARIANT_TABLE,
)
REGISTRY: dict[str, Computation[Any, Any]] = {c.name: c for c in COMPUTATIONS}  # a queued job names its computation


def from_key(key: str) -> tuple[Computation[Any, Any], Params] | None:
    """A store key read back (the inverse of `Computation.key`): its computation and parameters, or None when the
    key is no computation's of this version."""
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


def devil_params(v: DevilVariant) -> DevilParams:
    """The store's parameters for a Devil variant."""
    return DevilParams(v.n, v.goal, v.reflections, v.states)


def pegs_problem(name: str, hole: str, finish: str) -> ReportParams:
    """The store's parameters for a classic problem's report (as the solution page asks for it)."""
    return ReportParams(name, board(name).start(hole), hole, False, finish)


def settled_start(
    b: Board, hole: str, finish: str | None, look: Callable[[ReportParams], PegReport | None]
) -> Analysis | None:
    """A start's proved fewest-move solution from the stored proofs of the listed problems (look: a stored report,
    or None), for a finish hole or, once every finish its position class allows is proved, anywhere; else from a
    proof shipped in the package (`solvers/pegs/shipped.py`: the French showcase before `make precompute` has run);
    None when neither settles it (or on boards the exact analysis answers at once)."""
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
    return proved_start(b, hole, finish, reports) or shipped_start(b, hole, finish)


def nearest_finish(
    b: Board, hole: str, position: int, searched: Analysis, look: Callable[[ReportParams], PegReport | None]
) -> tuple[str | None, Analysis]:
    """Finishing anywhere, where the search's solution from a position of the game from hole is not proved the
    fewest (and `settled_start` gives nothing yet: not every finish is proved): the shortest of the proved
    fewest-move solutions to one finish the start allows that the game is still on (`on_proved_path`; from the
    start, each), with that finish, if it is no longer than the search's (the fewest to that finish, not proved the
    fewest anywhere); else (None, searched)."""
    if searched.method in ("exact", "bidirectional"):
        return None, searched
    start, found = b.start(hole), []
    for f in (b.labels[x] for x in class_finals(b, start)):
        a = settled_start(b, hole, f, look)
        rest = a if a is None or position == start else on_proved_path(b, start, a, position, f)
        if rest is not None and rest.solution:
            found.append((f, rest))
    best = min(found, key=lambda found: len(found[1].solution), default=None)
    if best is None or searched.solution and len(best[1].solution) > len(searched.solution):
        return None, searched
    return best

"""The expensive results the site shows, as named computations for the result store and the job queue, and the
list that `coin-puzzles precompute` (and `make run`, in the background) fills the store with."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any, ClassVar

from solvers.aequitas.paper import Cell, cells
from solvers.aequitas.report import TableReport, table_report
from solvers.codebreak import HEURISTICS, STRATEGIES, Game, Node, Stats, optima, verify
from solvers.codebreak import build_tree as codebreak_tree
from solvers.codebreak.game import TABLE_CELLS
from solvers.codebreak.lesson import Lesson, alive_after, every_first_alike, lesson
from solvers.codebreak.strategy import optimal_limit
from solvers.devil import Solution, Variant, solve
from solvers.devil.variant import GOALS, Goal
from solvers.errors import LimitError, one_of
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

from .computations import Computation, Params, current_checkpoint
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


class GameParams(Params, frozen=True):
    """A code-breaking game from its file, with its sizes overridden where given."""

    game: str
    pegs: int | None = None
    colours: int | None = None
    coins: int | None = None

    def load(self) -> Game:
        """The game built."""
        return load(self.game, self.pegs, self.colours, self.coins)


class StrategyParams(GameParams, frozen=True, kw_only=True):
    """A strategy's tree for a code-breaking game (the optimal average within max_guesses experiments if set)."""

    OMIT_IF_NONE: ClassVar[tuple[str, ...]] = ("max_guesses",)
    strategy: str
    max_guesses: int | None = None


class LessonParams(GameParams, frozen=True, kw_only=True):
    """What a guess was worth: the guesses made (the last is judged) and the scores of all but the last."""

    guesses: str
    scores: str

    def history(self, g: Game) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The guesses and the known scores as indices (a placeholder score for the judged guess)."""
        guesses = tuple(g.experiments.index(x) for x in self.guesses.split(","))
        scores = tuple(g.outcome_names.index(x) for x in self.scores.split(",") if x)
        return guesses, (*scores, 0)


class AequitasParams(Params, frozen=True):
    """The Æquitas comparison table up to a number of coins."""

    max: int


class VariantParams(Params, frozen=True):
    """A weighing variant, by its token."""

    variant: str

    def model(self) -> variant_model.Variant:
        """The variant."""
        return variant_model.Variant.from_token(self.variant)


def _game_quick(p: GameParams) -> bool:
    """Small tables, and games scored on demand (no table to fill: Super Mastermind builds in 0.2 s) or refused."""
    n = secrets_count(p)
    return n <= QUICK_GAME_SECRETS or n * n > TABLE_CELLS


def _pegs_table(p: BoardParams, tick: Tick) -> tuple[PegRow, ...]:
    """Every start of a board."""
    return tuple(board_table(p.board, tick))


def _pegs_report(p: ReportParams, tick: Tick) -> PegReport:
    """The API's thorough analysis of a position."""
    return peg_report(board(p.board), p.position, p.hole, p.count, p.finish or None, tick)


def _pegs_analysis(p: PositionParams, tick: Tick) -> Analysis:
    """Solvability, fewest moves where exact, and a solution, for the play page's hints and solutions."""
    b = board(p.board)
    return analyse(b, p.position, finish=b.index(p.finish) if p.finish else None)


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


def _codebreak(p: StrategyParams, tick: Tick) -> tuple[Node, Stats]:
    """A strategy's tree and its verified statistics."""
    limit = optimal_limit(p.strategy)
    if p.strategy not in HEURISTICS and secrets_count(p) > limit:
        raise LimitError(f"the {p.strategy} search is limited to games of {limit:,} secrets")
    g = p.load()
    strategy = one_of(p.strategy, STRATEGIES, "strategy")
    tree = codebreak_tree(g, strategy, tick, p.max_guesses, checkpoint=current_checkpoint())  # a job resumes
    return tree, verify(g, tree)


def secrets_count(p: GameParams) -> int:
    """How many secrets a game has, from its file and sizes, without building it."""
    spec = game_spec(p.game)
    if spec.secrets[0] == "coins":
        return 2 * (p.coins or int(spec.secrets[1].get("count", "4")))
    length = p.pegs or int(spec.secrets[1].get("length", "4"))
    colours = p.colours or int(spec.secrets[1].get("colours", "6"))
    if spec.secrets[1].get("repeats", "yes") == "yes":
        return int(colours**length)
    return math.perm(colours, length)


def _codebreak_quick(p: StrategyParams) -> bool:
    """Heuristics on small games, optimal search on tiny ones (and refusals of games too large for it)."""
    n = secrets_count(p)
    if p.strategy not in HEURISTICS and n > optimal_limit(p.strategy):
        return True
    return n <= (QUICK_HEURISTIC_SECRETS if p.strategy in HEURISTICS else QUICK_OPTIMAL_SECRETS)


LESSON_MAX_SECRETS = 700  # codes still possible before a judged guess: the search behind a lesson stays in seconds
FIRST_LESSON_MAX_SECRETS = 1_296  # a first guess, searched under the symmetries fixing it: any of Mastermind 4x6's
QUICK_LESSON_SECRETS = 64


def _lesson_limit(p: LessonParams) -> int:
    """The most codes a guess is judged on: a first guess is searched under the symmetries that fix it (every first
    guess of Mastermind 4x6 in at most 1.3 s here), a later one without them; a first guess of a game whose
    first guesses are all alike needs no search."""
    if "," in p.guesses:
        return LESSON_MAX_SECRETS
    return 10**9 if every_first_alike(p.load()) else FIRST_LESSON_MAX_SECRETS


def _lesson(p: LessonParams, tick: Tick) -> Lesson:
    """The last guess against the best one, by the optimal search on the codes still possible."""
    left, limit = _codes_before(p), _lesson_limit(p)
    if left > limit:
        if "," not in p.guesses:
            raise LimitError(f"a first guess is judged in games of at most {limit:,} codes ({left:,} here)")
        raise LimitError(f"a guess is judged when at most {limit:,} codes are still possible before it ({left:,} here)")
    g = p.load()
    return lesson(g, *p.history(g), large=left > QUICK_LESSON_SECRETS)


def _codes_before(p: LessonParams) -> int:
    """How many codes were still possible before the judged guess."""
    g = p.load()
    guesses, scores = p.history(g)
    return len(alive_after(g, guesses[:-1], scores[:-1]))


def _lesson_quick(p: LessonParams) -> bool:
    """Few codes still possible (or more than are judged: refused at once)."""
    left = _codes_before(p)
    alike = "," not in p.guesses and every_first_alike(p.load())
    return alike or left <= QUICK_LESSON_SECRETS or left > _lesson_limit(p)


def _game(p: GameParams, tick: Tick) -> Game:
    """A built game: its secrets, experiments and outcome table."""
    return p.load()


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
)
DEVIL = Computation(
    "devil.solve", DevilParams, _devil, _devil_quick, lambda p: f"the Devil's game for {p.n} coins", Solution
)
CODEBREAK = Computation(
    "codebreak.tree",
    StrategyParams,
    _codebreak,
    _codebreak_quick,
    lambda p: f"the {p.strategy} strategy for {p.game}" + (f" within {p.max_guesses} guesses" if p.max_guesses else ""),
    tuple[Node, Stats],
)
GAME = Computation(
    "codebreak.game",
    GameParams,
    _game,
    _game_quick,
    lambda p: f"the outcome table of {p.game}",
    Game,
)
LESSON = Computation(
    "codebreak.lesson",
    LessonParams,
    _lesson,
    _lesson_quick,
    lambda p: f"the worth of the guess {p.guesses.rsplit(',', 1)[-1]}",
    Lesson,
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
    DEVIL,
    CODEBREAK,
    LESSON,
    GAME,
    AEQUITAS,
    VARIANT_PLAN,
    VARIANT_TABLE,
)
REGISTRY: dict[str, Computation[Any, Any]] = {c.name: c for c in COMPUTATIONS}  # a queued job names its computation
VARIANT_TABLES = (
    *[variant_model.Variant(1, w, lies=lies) for lies in (1, 2) for w in ("unknown", "heavier")],
    *[variant_model.Variant(2, w, fakes=2) for w in ("heavier", "unknown")],
    *[variant_model.Variant(1, w, pans=k) for k in (3, 4, 5) for w in ("unknown", "heavier")],
)


def devil_params(v: Variant) -> DevilParams:
    """The store's parameters for a Devil variant."""
    return DevilParams(v.n, v.goal, v.reflections, v.states)


def game_params(game: str, sizes: tuple[int | None, int | None, int | None]) -> GameParams:
    """The store's parameters for a built game."""
    return GameParams(game, *sizes)


def codebreak_params(
    game: str, sizes: tuple[int | None, int | None, int | None], strategy: str, max_guesses: int | None = None
) -> StrategyParams:
    """The store's parameters for a strategy tree."""
    return StrategyParams(game, *sizes, strategy=strategy, max_guesses=max_guesses)


def pegs_problem(name: str, hole: str, finish: str) -> ReportParams:
    """The store's parameters for a classic problem's report (as the solution page asks for it)."""
    return ReportParams(name, board(name).start(hole), hole, False, finish)


Item = tuple[Computation[Any, Any], Params]  # a computation and its parameters


def everything(large: bool = False) -> Iterator[Item]:
    """Every stored result the site links to, cheapest first (what precompute fills the store with); the
    Mastermind optima table's games above `optima.AUTOMATIC_SECRETS` secrets (minutes to hours each) only when
    large (`coin-puzzles precompute`, not the background queue of `make run`)."""
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
    for name, problems in PROBLEMS.items():  # the French board's takes minutes
        for hole, finish in problems:
            yield PEGS_REPORT, pegs_problem(name, hole, finish)
    for v in VARIANT_TABLES:  # minutes each: last
        yield VARIANT_TABLE, VariantParams(v.to_token())
    for size in optima.sizes(optima.MAX_SECRETS if large else optima.AUTOMATIC_SECRETS):
        for strategy in ("optimal-average", "optimal-worst"):
            yield CODEBREAK, codebreak_params("mastermind", (*size, None), strategy)

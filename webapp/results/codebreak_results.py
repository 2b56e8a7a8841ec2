"""The code-breaking results the site stores (strategy trees, outcome tables, lessons) as named computations for
the result store and the job queue. Apart from the catalogue of every other puzzle, so that the command line
looks up a stored tree without importing every solver."""

from __future__ import annotations

import gzip
import math
from collections.abc import Callable
from typing import Any, ClassVar

from solvers.checkpoint import Checkpoint, Entry
from solvers.codebreak import HEURISTICS, STRATEGIES, Game, Node, Stats, optima
from solvers.codebreak.game import TABLE_CELLS
from solvers.codebreak.lesson import (
    CodeLesson,
    alive_after,
    best_after_first,
    every_first_alike,
    lesson,
)
from solvers.codebreak.optimal.entries import parse_entries, snapshot_name
from solvers.codebreak.play import Round
from solvers.codebreak.second import SecondTotals, second_totals, second_worth
from solvers.codebreak.solve import TreeRequest, solve
from solvers.codebreak.strategy import STRATEGY_NAMES, Proving, check_options, limit_message, optimal_limit
from solvers.errors import InputError, LimitError, one_of
from solvers.progress import Tick
from webapp.config import ROOT
from webapp.results.cluster import search_run
from webapp.results.computations import Computation, Params
from webapp.results.games import game_spec, load

LONG_PROOF_NODES = 10**12  # the work of the optima table's proofs (precompute jobs of minutes to hours): no cap
# the optimal average guessing possible codes only, at the files' sizes, that only `coin-puzzles precompute` runs
# (Super Mastermind's: 32,768 secrets; from its snapshot a minute of both cores, but 6.6 GB over three processes: the
# 1 GiB outcome table in each and the first guesses' symmetry maps), its work not capped either
LARGE_POSSIBLE_ONLY = {"super-mastermind"}
PROOFS = ROOT / "webapp" / "data" / "proofs"  # the long proofs' snapshots in git
QUICK_HEURISTIC_SECRETS = 256
QUICK_OPTIMAL_SECRETS = 30

QUICK_GAME_SECRETS = 8000  # every tabled game builds within 0.31 s here (Mastermind 5x6's 60 million outcomes;
# Bulls and Cows' 0.2 s): less than decoding a stored table took (0.4 s for Bulls and Cows', 6.1 s for 5x6's), so
# a page builds its game in its process and keeps it


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

    OMIT_IF_NONE: ClassVar[tuple[str, ...]] = ("max_guesses", "possible_only")
    strategy: str
    max_guesses: int | None = None
    possible_only: bool | None = None  # True: only codes still possible are guessed


class LessonParams(GameParams, frozen=True, kw_only=True):
    """What a guess was worth: the guesses made (the last is judged) and the scores of all but the last; best and
    best_guess: the best total and a best guess where a stored proof gives them (`best_after_first`, or the stored
    totals of every second guess, `second_worth`, which give the judged guess's total too)."""

    OMIT_IF_NONE: ClassVar[tuple[str, ...]] = ("best", "best_guess", "total")
    guesses: str
    scores: str
    best: int | None = None
    best_guess: str | None = None
    total: int | None = None  # the judged guess's own total, where stored totals give it (`second_worth`)

    def history(self, g: Game) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The guesses and the known scores as indices (a placeholder score for the judged guess)."""
        guesses = tuple(g.experiments.index(x) for x in self.guesses.split(","))
        scores = tuple(g.outcome_names.index(x) for x in self.scores.split(",") if x)
        return guesses, (*scores, 0)

    def known(self, g: Game) -> tuple[int, int] | None:
        """The best total and a best guess given (None: the search finds them)."""
        if self.best is None or self.best_guess is None:
            return None
        return self.best, g.experiments.index(self.best_guess)


def _game_quick(p: GameParams) -> bool:
    """Small tables, and games scored on demand (no table to fill: Super Mastermind builds in 0.2 s) or refused."""
    n = secrets_count(p)
    return n <= QUICK_GAME_SECRETS or n * n > TABLE_CELLS


def _codebreak(p: StrategyParams, tick: Tick, checkpoint: Checkpoint | None = None) -> tuple[Node, Stats]:
    """A strategy's tree and its verified statistics (`solve`); a job passes its checkpoint in the store. The proofs
    of the optima table and Super Mastermind's possible-only proof run for hours: their work is not capped, and
    they resume from their snapshots in git."""
    only = bool(p.possible_only)
    in_table = p.game == "mastermind" and (p.pegs, p.colours) in optima.sizes() and not (p.max_guesses or only)
    long = in_table or (only and p.game in LARGE_POSSIBLE_ONLY and not p.max_guesses)
    shipped = shipped_entries(p) if long and p.strategy == "optimal-average" else []
    strategy = one_of(p.strategy, STRATEGIES, "strategy")
    # where the proof runs is the job's choice (COIN_PUZZLES_JOBS processes, or COIN_PUZZLES_CLUSTER's cluster)
    proving = Proving(node_limit=LONG_PROOF_NODES if long else None, run=search_run())
    request = TreeRequest(
        game=p.load(),
        strategy=strategy,
        max_guesses=p.max_guesses,
        possible_only=only,
        proving=proving,
        shipped=tuple(shipped),
    )
    return solve(request, tick, checkpoint)


def _refuse_large(p: StrategyParams) -> None:
    """Options a job would refuse, and optimal searches of games past their sizes, refused before a job is queued
    (the game's size from its file, without building it)."""
    check_options(p.strategy, p.max_guesses, bool(p.possible_only))
    if p.strategy not in HEURISTICS and secrets_count(p) > optimal_limit(p.strategy, bool(p.possible_only)):
        raise LimitError(limit_message(p.strategy, bool(p.possible_only)))


def shipped_entries(p: StrategyParams) -> list[Entry]:
    """The table entries of a long proof's snapshot kept in git (webapp/data/proofs, written by make frontier and
    benchmarks/optima.py as their runs settle the parts of first guesses, sessions long): the site's job resumes
    from them instead of proving again from scratch; none if the proof has no snapshot."""
    path = PROOFS / f"{snapshot_name(p.game, p.pegs, p.colours, bool(p.possible_only))}.jsonl.gz"
    return parse_entries(gzip.decompress(path.read_bytes()).decode()) if path.is_file() else []


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
    if p.strategy not in HEURISTICS and n > optimal_limit(p.strategy, bool(p.possible_only)):
        return True
    return n <= (QUICK_HEURISTIC_SECRETS if p.strategy in HEURISTICS else QUICK_OPTIMAL_SECRETS)


# codes still possible before a judged guess: every set a first guess of Bulls and Cows leaves (1,440 at most; the
# two largest take one to two minutes of a job here, the rest seconds)
LESSON_MAX_SECRETS = 1_440
FIRST_LESSON_MAX_SECRETS = 1_296  # a first guess, searched under the symmetries fixing it: any of Mastermind 4x6's
QUICK_LESSON_SECRETS = 64
# a later guess judged on at most this many codes goes to the quick lane (152 codes: 4 s here; 312: about a minute,
# on the visitors' queue instead); a first guess is judged under its symmetries, every one of 4x6's within 1.3 s
QUICK_LANE_LESSON_SECRETS = 160


def _lesson_limit(p: LessonParams) -> int:
    """The most codes a guess is judged on: a first guess is searched under the symmetries that fix it (every first
    guess of Mastermind 4x6 in at most 1.3 s here), a later one without them; a first guess of a game whose
    first guesses are all alike needs no search."""
    if "," in p.guesses:
        return LESSON_MAX_SECRETS
    return 10**9 if every_first_alike(p.load()) else FIRST_LESSON_MAX_SECRETS


def _lesson(p: LessonParams, tick: Tick) -> CodeLesson:
    """The last guess against the best one, by the optimal search on the codes still possible."""
    left, limit = _codes_before(p), _lesson_limit(p)
    if left > limit:
        if "," not in p.guesses:
            raise LimitError(f"a first guess is judged in games of at most {limit:,} codes ({left:,} here)")
        raise LimitError(f"a guess is judged when at most {limit:,} codes are still possible before it ({left:,} here)")
    g = p.load()
    return lesson(g, *p.history(g), large=left > QUICK_LESSON_SECRETS, best=p.known(g), total=p.total)


def lesson_params(
    name: str, sizes: tuple[int | None, int | None, int | None], g: Game, r: Round, look: Callable[..., Any]
) -> LessonParams:
    """The lesson of a round's last guess; for a second guess in a game whose first guesses are all alike, with
    what the stored results give (look(computation, params): a stored result, or None): the stored totals of every
    second guess give its total and the best (nothing left to search), else the optimal-average tree gives the
    best, so that the job only searches the judged guess."""
    scores = ",".join(g.outcome_names[o] for o in r.outcomes[:-1])
    guesses = ",".join(g.secrets[e] for e in r.guesses)
    if len(r.guesses) == 2 and every_first_alike(g):
        totals = look(SECOND, game_params(name, sizes))
        worth = second_worth(g, totals, r.guesses[0], r.outcomes[0], r.guesses[1]) if totals is not None else None
        if worth is not None:
            best_guess = g.experiments[worth.best_guess]
            return LessonParams(
                name, *sizes, guesses=guesses, scores=scores, best=worth.best, best_guess=best_guess, total=worth.total
            )
        tree = look(CODEBREAK, codebreak_params(name, sizes, "optimal-average"))
        best = best_after_first(g, r.guesses[0], r.outcomes[0], tree[0]) if tree is not None else None
        if best is not None:
            return LessonParams(
                name, *sizes, guesses=guesses, scores=scores, best=best[0], best_guess=g.experiments[best[1]]
            )
    return LessonParams(name, *sizes, guesses=guesses, scores=scores)


def sized_title(p: GameParams) -> str:
    """A game's title with its sizes, for people ('Mastermind 4x6', 'the counterfeit coin with 12 coins')."""
    title = game_spec(p.game).title
    if p.coins is not None:
        return f"{title} with {p.coins} coins"
    return (
        f"{title} {p.pegs}x{p.colours}" if p.pegs is not None and p.colours is not None and "(" not in title else title
    )


def _codes_before(p: LessonParams) -> int:
    """How many codes were still possible before the judged guess."""
    g = p.load()
    guesses, scores = p.history(g)
    return len(alive_after(g, guesses[:-1], scores[:-1]))


def _lesson_quick(p: LessonParams) -> bool:
    """Few codes still possible (or more than are judged: refused at once), or nothing to search."""
    if p.total is not None and p.best is not None:
        return True
    left = _codes_before(p)
    alike = "," not in p.guesses and every_first_alike(p.load())
    return alike or left <= QUICK_LESSON_SECRETS or left > _lesson_limit(p)


def _second(p: GameParams, tick: Tick, checkpoint: Checkpoint | None = None) -> SecondTotals:
    """The totals of every second guess of a game whose first guesses are all alike (a search per class of second
    guess and outcome: minutes), keeping the sets it proves in the job's checkpoint as it goes."""
    g = p.load()
    if not every_first_alike(g):
        raise InputError("every second guess is judged at once only in games whose first guesses are all alike")
    from solvers.codebreak.optimal.average_search import AverageSearch  # compiled kernels: the job's
    from solvers.codebreak.optimal.table import Tuning

    return second_totals(AverageSearch(g, Tuning(cache_bits=None), checkpoint=checkpoint), tick)


class CodebreakTree(Computation[StrategyParams, tuple[Node, Stats]]):
    """A strategy's tree and its verified statistics (`solve`), resumed from the job's checkpoint in the store."""

    name, params, stored_as = "codebreak.tree", StrategyParams, tuple[Node, Stats]

    def run(self, p: StrategyParams, tick: Tick, checkpoint: Checkpoint | None = None) -> tuple[Node, Stats]:
        return _codebreak(p, tick, checkpoint)

    def quick(self, p: StrategyParams) -> bool:
        return _codebreak_quick(p)

    def title(self, p: StrategyParams) -> str:
        within = f" within {p.max_guesses} guesses" if p.max_guesses else ""
        return f"{STRATEGY_NAMES[p.strategy]} for {sized_title(p)}{within}"

    def check(self, p: StrategyParams) -> None:
        _refuse_large(p)


class GameTable(Computation[GameParams, Game]):
    """A built game: its secrets, experiments and outcome table."""

    name, params, stored_as = "codebreak.game", GameParams, Game

    def run(self, p: GameParams, tick: Tick, checkpoint: Checkpoint | None = None) -> Game:
        return p.load()

    def quick(self, p: GameParams) -> bool:
        return _game_quick(p)

    def title(self, p: GameParams) -> str:
        return f"the outcome table of {sized_title(p)}"


class SecondGuesses(Computation[GameParams, SecondTotals]):
    """The totals of every second guess (`_second`), resumed from the job's checkpoint in the store."""

    name, params, stored_as = "codebreak.second", GameParams, SecondTotals

    def run(self, p: GameParams, tick: Tick, checkpoint: Checkpoint | None = None) -> SecondTotals:
        return _second(p, tick, checkpoint)

    def quick(self, p: GameParams) -> bool:
        return False

    def title(self, p: GameParams) -> str:
        return f"the worth of every second guess in {sized_title(p)}"


class Lesson(Computation[LessonParams, CodeLesson]):
    """What a guess was worth (`_lesson`); in the quick lane when few codes were still possible before it."""

    name, params, stored_as = "codebreak.lesson", LessonParams, CodeLesson

    def run(self, p: LessonParams, tick: Tick, checkpoint: Checkpoint | None = None) -> CodeLesson:
        return _lesson(p, tick)

    def quick(self, p: LessonParams) -> bool:
        return _lesson_quick(p)

    def title(self, p: LessonParams) -> str:
        return f"the worth of the guess {p.guesses.rsplit(',', 1)[-1]}"

    def lane(self, p: LessonParams) -> str:
        return "quick" if "," not in p.guesses or _codes_before(p) <= QUICK_LANE_LESSON_SECRETS else "visitors"


CODEBREAK, GAME, SECOND, LESSON = CodebreakTree(), GameTable(), SecondGuesses(), Lesson()


def game_params(game: str, sizes: tuple[int | None, int | None, int | None]) -> GameParams:
    """The store's parameters for a built game."""
    return GameParams(game, *sizes)


def codebreak_params(
    game: str,
    sizes: tuple[int | None, int | None, int | None],
    strategy: str,
    max_guesses: int | None = None,
    possible_only: bool = False,
) -> StrategyParams:
    """The store's parameters for a strategy tree."""
    return StrategyParams(game, *sizes, strategy=strategy, max_guesses=max_guesses, possible_only=possible_only or None)

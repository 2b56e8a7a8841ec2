"""What the precomputation fills the result store with, and in what order (`everything`): `make run`'s background
queue takes the results that fill within minutes on two cores; `coin-puzzles precompute` (`make precompute`) adds
the long ones. The computations themselves are listed in `catalogue`."""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from solvers.codebreak import HEURISTICS, STRATEGIES, optima
from solvers.devil.variant import DEVIL_GOALS
from solvers.pegs import BOARDS, PROBLEMS, board
from webapp.config import setting
from webapp.results.catalogue import (
    AEQUITAS,
    DEVIL,
    PEGS_REPORT,
    PEGS_TABLE,
    VARIANT_TABLE,
    VARIANT_TABLES,
    AequitasParams,
    BoardParams,
    DevilParams,
    VariantParams,
    pegs_problem,
)
from webapp.results.codebreak_results import (
    CODEBREAK,
    GAME,
    LARGE_POSSIBLE_ONLY,
    QUICK_OPTIMAL_SECRETS,
    SECOND,
    codebreak_params,
    game_params,
    secrets_count,
)
from webapp.results.computations import Computation, Params
from webapp.results.games import default_sizes, shipped
from webapp.store import BUDGET_MB, GAME_BUDGET_MB, GAME_KEEP_DAYS, Budget

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
# games whose second guesses are all judged in advance (`second.second_totals`: a search per class of second guess
# and outcome of the first, minutes), after their optimal-average trees: a second guess's lesson is then a lookup
SECOND_GUESS_GAMES = ("bulls-and-cows",)
# the optimal average guessing possible codes only, at the files' sizes: Mastermind's in a second (Super
# Mastermind's only by `coin-puzzles precompute`: LARGE_POSSIBLE_ONLY)
PRECOMPUTED_POSSIBLE_ONLY = {"mastermind"}

# The listed peg problems that take the longest (their time and disk: docs/performance.md), resumed after a restart:
# only `make precompute` queues them, last.
LATE_PROBLEMS = {("french", "d3", "a5")}
# The listed problems `make run`'s background queue proves: the centre game only. The others are left to `make
# precompute`, so that the queue fills within minutes of a start on two cores; a visitor opening one queues it (the
# table says which are proved, being computed, or not computed yet).
BACKGROUND_PROBLEMS = {("english", "d4", "d4")}
OPTIMA_FIRST = 1024  # secrets: the optima table's games up to this size are proved first (each under a second, all
# 50 proofs in 2.0 s here, 2026-12-01; 4x7 and 5x5 take 8-9 s each, so the rest keep their place)
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
    (`codebreak_results.shipped_entries`). The optima table's games of at most OPTIMA_FIRST secrets come first (a
    fresh server's table showed them queued for minutes behind the rest)."""
    table = optima.sizes(optima.OPTIMA_MAX_SECRETS if large else optima.AUTOMATIC_SECRETS)
    first = [size for size in optima.sizes(OPTIMA_FIRST) if size not in optima.FRONTIER]
    for size in first:
        yield from _optima_cell(size)
    for name in sorted(BOARDS, key=lambda k: board(k).size):
        yield PEGS_TABLE, BoardParams(name)
    for states, top in ((2, 16), (3, 4), (4, 3)):
        for n in range(1, top + 1):
            for goal in DEVIL_GOALS:
                for reflections in (False, True):
                    if states**n <= 1 << 16:
                        yield DEVIL, DevilParams(n, goal, reflections, states)
    for max_coins in (30, 40):
        yield AEQUITAS, AequitasParams(max_coins)
    later = []
    for game, spec in shipped().items():
        sizes = default_sizes(spec)
        if not GAME.quick(game_params(game, sizes)):  # a quick table is built where it is used, never stored
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
    for game in SECOND_GUESS_GAMES:
        yield SECOND, game_params(game, default_sizes(shipped()[game]))
    for game in sorted(PRECOMPUTED_POSSIBLE_ONLY):
        yield CODEBREAK, codebreak_params(game, default_sizes(shipped()[game]), "optimal-average", possible_only=True)
    for name, problems in PROBLEMS.items():
        for hole, finish in problems:
            if (name, hole, finish) not in LATE_PROBLEMS and (large or (name, hole, finish) in BACKGROUND_PROBLEMS):
                yield PEGS_REPORT, pegs_problem(name, hole, finish)
    for v in VARIANT_TABLES if large else ():  # a minute to beyond ten each (lies 2, heavier or lighter)
        yield VARIANT_TABLE, VariantParams(v.to_token())
    for size in [s for s in table if s not in optima.FRONTIER and s not in first]:
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


@lru_cache(maxsize=1)
def _listed_keys() -> frozenset[str]:
    """The store keys of everything the site lists but the Mastermind sizes proved nowhere yet (days each: a
    visitor who starts one asks for it explicitly); a third of a second, once per process."""
    frontier = {c.key(p) for size in optima.FRONTIER for c, p in _optima_cell(size)}
    return frozenset(c.key(p) for c, p in everything(large=True)) - frontier


def listed(key: str) -> bool:
    """Whether a result is one the site lists (and precomputes): a page that shows it is a page of the site, which
    a visitor merely opens, so its job is the server's, counted against no visitor's limits."""
    return key in _listed_keys()


def kept(key: str) -> bool:
    """Whether a store entry is kept whatever the store's budget: a result the site lists, or a page of its
    checkpoint (a long proof's, kept until it ends). Everything else is what visitors caused: results the site does
    not list, rendered answers (players' games are a class of their own: `store.Budget`)."""
    return listed(key.split(":checkpoint", 1)[0])


def store_budget() -> Budget:
    """The budget of the entries visitors cause: their results within COIN_PUZZLES_STORE_BUDGET_MB (default
    BUDGET_MB; 0: no limit), players' games within COIN_PUZZLES_GAME_BUDGET_MB (default GAME_BUDGET_MB), each kept
    at least COIN_PUZZLES_GAME_KEEP_DAYS (default GAME_KEEP_DAYS) after its last move or view."""
    days = setting("COIN_PUZZLES_GAME_KEEP_DAYS", GAME_KEEP_DAYS)
    return Budget(
        setting("COIN_PUZZLES_STORE_BUDGET_MB", BUDGET_MB) << 20,
        kept,
        setting("COIN_PUZZLES_GAME_BUDGET_MB", GAME_BUDGET_MB) << 20,
        days * 86400.0,
    )

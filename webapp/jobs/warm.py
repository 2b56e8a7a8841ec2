"""Warm-up: every compiled kernel of the solvers, compiled once per install into Numba's disk cache (`solvers.jit`)
by solving small instances through the same code paths as the site and the command line, so that no user command,
request or job pays for a compile. `make run` and `make test` run it (`coin-puzzles warm-up`) with its progress."""

from __future__ import annotations

import sys
from collections.abc import Callable

from solvers.codebreak import STRATEGIES, Proving, build, build_tree, verify
from webapp.results.games import game_spec, load


def _codebreak(name: str, pegs: int | None, colours: int | None, coins: int | None = None) -> None:
    from solvers.codebreak.optimal.average_search import AverageSearch

    game = load(name, pegs, colours, coins)
    for strategy in STRATEGIES:
        verify(game, build_tree(game, strategy))
        if strategy.startswith("optimal"):  # small games are searched in plain Python: the compiled search too
            verify(game, build_tree(game, strategy, proving=Proving(compiled=True)))
    AverageSearch(game).load_kernels()  # those only a search on several processes calls
    if game.must_hit:  # a guess judged mid-game: its candidates and parts under the symmetries of the guesses made
        from solvers.codebreak.lesson import lesson

        table, secret = game.dense(), len(game.secrets) - 1
        guesses = (0, 1, 2)
        lesson(game, guesses, tuple(int(table[e, secret]) for e in guesses))


def _untabled() -> None:
    """A sequence game scored on the fly (the large games: no outcome table)."""
    game = build(game_spec("mastermind", files=True), {"length": 2, "colours": 3}, untabled=True)
    verify(game, build_tree(game, "knuth"))


def _pegs() -> None:
    """The compiled depth-first search and the bidirectional fewest-moves search (levels large enough for its
    parallel expansion), on an English game with 20 coins left."""
    from solvers.pegs import analyse, apply_jump, board, legal_jumps, pegs

    b = board("english")
    pos = b.start("d4")
    while pegs(pos) > 20:
        pos = apply_jump(pos, next(iter(legal_jumps(b, pos))))
    analyse(b, pos, thorough=True, budget=100_000)
    for finish in range(b.size):
        if analyse(b, pos, finish=finish, fewest=True).solvable:
            break


STEPS: tuple[tuple[str, Callable[[], None]], ...] = (
    ("Mastermind 2x3", lambda: _codebreak("mastermind", 2, 3)),
    ("black-peg Mastermind 2x3", lambda: _codebreak("mastermind-black", 2, 3)),
    ("Bulls and Cows 2x4", lambda: _codebreak("bulls-and-cows", 2, 4)),
    ("counterfeit coin, 4 coins", lambda: _codebreak("counterfeit-coin", None, None, 4)),
    ("untabled scoring", _untabled),
)


def _pegs_counts() -> tuple[int, int]:
    """The peg kernels (no kernel in common with the code-breaking ones, so they compile in a process of their
    own beside them without two processes ever writing one cache entry); that process's counts."""
    from solvers.jit import compile_counts

    _pegs()
    return compile_counts()


def load_here() -> None:
    """The code-breaking kernels loaded from the disk cache into this process (0.6 s here), so that the job
    processes it forks find them loaded: a guess's worth of Mastermind 4x6 in 0.17 s instead of 0.5 s, within the
    moment a page waits for the quick lane's job."""
    for _, step in STEPS:
        step()


def warm(progress: bool = True) -> tuple[int, int]:
    """Run every step, the peg solitaire one in a second process; (kernels loaded from the cache, compiled)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from tqdm import tqdm

    from solvers.jit import compile_counts

    spawn = multiprocessing.get_context("spawn")  # a fresh interpreter: nothing compiled is shared by a fork
    with (
        ProcessPoolExecutor(1, mp_context=spawn) as pool,
        tqdm(total=len(STEPS) + 1, unit="step", file=sys.stderr, disable=not progress, desc="compiling kernels") as bar,
    ):
        pegs = pool.submit(_pegs_counts)
        for title, step in STEPS:
            bar.set_postfix_str(title)
            step()
            bar.update()
        bar.set_postfix_str("peg solitaire")
        loaded, compiled = pegs.result()
        bar.update()
    here = compile_counts()
    return here[0] + loaded, here[1] + compiled

"""The coin-puzzles command line: one subcommand per puzzle (text, or --json with the API's fields), and the
running of the site (`serve`, `worker`, `precompute`, ... in `admin`).

Each subcommand turns its arguments into solver values, calls the solver's typed report and prints it; every
solver refusal (a `PuzzleError`) is printed as one line on stderr with exit status 2. A call imports only what its
subcommand needs: the parser builds the arguments of the chosen subcommand alone (its choices come from its
solver), so `--help` imports no solver, no Flask and no Numba.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, TypeVar

from solvers.errors import InputError, Paused, PuzzleError
from webapp.commands.arguments import whole

if TYPE_CHECKING:
    from solvers.codebreak import Node, Stats
    from solvers.report import Report
    from solvers.weighing import Problem
    from webapp.results.computations import Computation, P


R = TypeVar("R")
STORED_FROM_SECRETS = 1000  # code-breaking games this large are looked up in the result store first


class _Parser(argparse.ArgumentParser):
    """An argument parser that raises instead of exiting, so main() owns the exit status."""

    def error(self, message: str) -> None:  # type: ignore[override]
        """Raise with argparse's message."""
        raise InputError(message)


def _problem(args: argparse.Namespace) -> Problem:
    """The counterfeit-coin problem named by the shared arguments."""
    from solvers.weighing import Problem

    return Problem(whole(args.n, "N"), args.weight, args.goal, whole(args.extra, "--extra"), args.maybe_none)


def weigh(args: argparse.Namespace) -> Report:
    """The optimal weighing plan for a counterfeit-coin problem (or a variant: lies, two fakes, k pans)."""
    from solvers.weighing.report import coins_report

    lies, fakes, pans = whole(args.lies, "--lies"), whole(args.fakes, "--fakes"), whole(args.pans, "--pans")
    if (lies, fakes, pans) != (0, 1, 2):
        from solvers.variants.model import Variant, refuse_mixed
        from solvers.variants.report import variant_report

        refuse_mixed(args.goal, whole(args.extra, "--extra"), args.maybe_none, args.objective, args.scheme)
        return variant_report(Variant(whole(args.n, "N"), args.weight, lies, fakes, pans), tree=args.tree)

    return coins_report(_problem(args), args.objective, tree=args.tree, scheme=args.scheme)


def adversary(args: argparse.Namespace) -> Report:
    """Weighings replayed against the adversarial scale, and what they prove."""
    from solvers.weighing.adversary import replay
    from solvers.weighing.knowledge import MAX_WEIGHINGS, parse_weighings
    from solvers.weighing.report import ADVERSARY_MAX_COINS, ADVERSARY_MAX_EXTRA, adversary_report, game_budget

    p = _problem(args)
    if p.coins > ADVERSARY_MAX_COINS or p.extra > ADVERSARY_MAX_EXTRA:
        raise InputError(
            f"the adversary game takes up to {ADVERSARY_MAX_COINS:,} coins and {ADVERSARY_MAX_EXTRA} extra coins"
        )
    budget, minimum = game_budget(p, whole(args.budget, "--budget") if args.budget else None, MAX_WEIGHINGS)
    return adversary_report(replay(p, budget, parse_weighings(args.weighings)), minimum)


def aequitas(args: argparse.Namespace) -> Report:
    """A starting position's Grundy value and winning moves, or the whole table beside the paper."""
    from solvers.aequitas.report import (
        AEQUITAS_MAX_COINS,
        PAPER_MISERE,
        position_report,
        table_report,
        without_certificates,
    )

    if args.table:
        max_coins = whole(args.max_coins, "--max-coins")
        if not 1 <= max_coins <= AEQUITAS_MAX_COINS:
            raise InputError(f"--max-coins must be 1 to {AEQUITAS_MAX_COINS}")
        report = table_report(max_coins)
        return report if args.certificates else without_certificates(report)
    convention = args.convention or (PAPER_MISERE if args.misere else "normal")
    if args.misere and convention == "normal":
        raise InputError("--misere and --convention normal disagree")
    light = None if args.light is None else whole(args.light, "--light")
    heavy = None if args.heavy is None else whole(args.heavy, "--heavy")
    coins = whole(args.coins, "--coins")
    return position_report(args.game, coins, args.extra, convention, light=light, heavy=heavy, fake=args.fake)


def devil(args: argparse.Namespace) -> Report:
    """The Devil's game: the shortest sure win, or why there is none."""
    from solvers.devil import DevilVariant
    from solvers.devil.report import devil_report

    v = DevilVariant(whole(args.n, "N"), args.goal, args.reflections, whole(args.states, "--states"))
    return devil_report(v, args.moves)


def pegs(args: argparse.Namespace) -> Report:
    """The peg board: solvability, finals, fewest moves, a solution and counts."""
    from solvers.pegs import board, finish_label, from_token, quick_exact
    from solvers.pegs.report import peg_report

    b = board(args.board)
    if not args.hole and not args.position:
        raise InputError("give --hole or --position")
    if args.finish == "start" and not args.hole:
        raise InputError("--finish start needs --hole")
    pos = from_token(b, args.position) if args.position else b.start(args.hole)
    finish = finish_label(b, args.hole, args.finish) or None
    # the large boards' problems take minutes (the French board's classic one): stored by make run or precompute
    if quick_exact(b, pos):
        return peg_report(b, pos, args.hole or None, args.count, finish)
    from solvers.pegs.report import settled_report
    from webapp.results.catalogue import PEGS_REPORT, ReportParams, settled_start

    if args.hole and not args.position and not args.count:
        settled = settled_start(b, args.hole, finish, lambda p: _stored(PEGS_REPORT, p))
        if settled is not None:
            return settled_report(b, args.hole, finish, settled)
    params = ReportParams(b.name, pos, args.hole or None, args.count, finish)
    report = _stored(PEGS_REPORT, params) or peg_report(b, pos, args.hole or None, args.count, finish)
    if not report.proved:
        print(
            "coin-puzzles: fewest moves not proved here ("
            + ("a solution was found by search" if report.solvable else "the search found none")
            + f"). On the {b.name} board they are proved for the classic problems' starts and finishes (and, once "
            "every finish a start allows is proved, for finishing anywhere) by searches of minutes each, French d3 "
            "to a5 the longest: `coin-puzzles precompute` keeps them in the store, where this command reads them.",
            file=sys.stderr,
        )
    return report


def _stored(c: Computation[P, R], params: P) -> R | None:
    """A result from the store (`make run` or `precompute` put it there) or shipped in the package, else None (both
    verified before use); the caller imports the catalogue (every solver) only when it asks."""
    from webapp.jobs.shipped import kept, lookup
    from webapp.results.computations import unpack
    from webapp.store import default_store

    try:
        found = kept(default_store(), c, params)
    except (OSError, ConnectionError):
        return lookup(c, params)  # no store reachable: what is shipped, else compute here
    return None if found is None else unpack(found)


def codebreak(args: argparse.Namespace) -> Report:
    """A code-breaking strategy's verified statistics (and tree)."""
    from solvers.codebreak.report import codebreak_report
    from solvers.codebreak.solve import TreeRequest
    from webapp.results.codebreak_results import LARGE_POSSIBLE_ONLY
    from webapp.results.games import analysis, load

    pegs_, colours, coins = (
        None if v is None else whole(v, name)
        for v, name in ((args.pegs, "--pegs"), (args.colours, "--colours"), (args.coins, "--coins"))
    )
    g = load(args.game, pegs_, colours, coins)
    # large games' trees take minutes (optimal 4x6 and more): stored by make run or precompute; smaller ones are
    # computed here sooner than the store is opened
    cap = None if args.max_guesses is None else whole(args.max_guesses, "--max-guesses")
    large = len(g.secrets) >= STORED_FROM_SECRETS
    only = bool(args.possible_only)
    found = _stored_tree(args.game, (pegs_, colours, coins), args.strategy, cap, only) if large else None
    if found is None and only and args.strategy == "optimal-average" and args.game in LARGE_POSSIBLE_ONLY:
        from solvers.errors import LimitError

        raise LimitError(
            f"{args.game}'s optimum guessing possible codes only is a proof of hours: `coin-puzzles precompute` "
            "stores it (resumable), then this command reads it"
        )
    if found is None:
        from webapp.jobs.halting import halt_on_signals
        from webapp.results.cluster import search_run  # a proof here: as COIN_PUZZLES_JOBS, COIN_PUZZLES_CLUSTER say

        halt_on_signals()  # Ctrl+C stops the proof within a second (its kernels run no Python signal handler)
        run = search_run()
        found = analysis(args.game, pegs_, colours, coins, args.strategy, max_guesses=cap, possible_only=only, run=run)
    root, stats = found
    asked = TreeRequest(g, args.strategy, cap, only)
    return codebreak_report(args.game, asked, (root, stats), args.tree, args.dot)


def _stored_tree(
    game: str, sizes: tuple[int | None, ...], strategy: str, max_guesses: int | None = None, possible_only: bool = False
) -> tuple[Node, Stats] | None:
    """A shipped game's strategy from the result store when `make run` or `precompute` has put it there (the
    optimal 4x6 searches take minutes), else None. Stored trees were verified before they were stored."""
    from webapp.results.codebreak_results import CODEBREAK, codebreak_params
    from webapp.results.games import default_sizes, shipped

    spec = shipped().get(game)
    if spec is None:
        return None
    pegs_, colours, coins = (
        given if given is not None else own for given, own in zip(sizes, default_sizes(spec), strict=True)
    )
    if spec.secrets[0] == "coins":
        pegs_ = colours = None
    else:
        coins = None
    return _stored(CODEBREAK, codebreak_params(game, (pegs_, colours, coins), strategy, max_guesses, possible_only))


def _report_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON (the API's fields)")


def _problem_arguments(parser: argparse.ArgumentParser, n_help: str) -> None:
    """The counterfeit-coin problem's arguments, shared by `weigh` and `adversary`."""
    from solvers.weighing import GOALS, WEIGHTS

    _report_arguments(parser)
    parser.add_argument("n", help=n_help)
    parser.add_argument("--weight", choices=WEIGHTS, default="unknown")
    parser.add_argument("--goal", choices=GOALS, default="identify")
    parser.add_argument("--extra", default="0", help="extra coins known to be genuine (named G1, G2, ...)")
    parser.add_argument("--maybe-none", action="store_true", help="the counterfeit may be absent")


def weigh_arguments(w: argparse.ArgumentParser) -> None:
    from solvers.weighing import OBJECTIVES

    _problem_arguments(w, "number of coins, 1..1,000,000")
    w.add_argument("--objective", choices=OBJECTIVES, default="worst")
    w.add_argument("--tree", action="store_true", help="include the whole plan (N <= 1,000)")
    w.add_argument("--scheme", action="store_true", help="include Dyson's non-adaptive scheme")
    w.add_argument("--lies", default="0", help="the balance may lie up to this many times (0-2; N <= 100)")
    w.add_argument("--fakes", default="1", help="counterfeit coins of equal weight (1 or 2; N <= 100)")
    w.add_argument("--pans", default="2", help="pans on the balance (2-5; N <= 100)")


def adversary_arguments(a: argparse.ArgumentParser) -> None:
    from solvers.weighing.report import ADVERSARY_MAX_COINS

    _problem_arguments(a, f"number of coins, 1..{ADVERSARY_MAX_COINS:,}")
    a.add_argument("--budget", default="", help="weighing budget (default: the minimum)")
    a.add_argument("--weighings", default="", help='e.g. "1,2,3,4-5,6,7,8;9-10"')


def aequitas_arguments(q: argparse.ArgumentParser) -> None:
    from solvers.aequitas import CONVENTIONS, GAMES

    _report_arguments(q)
    q.add_argument("--game", choices=GAMES, default="D")
    q.add_argument("--coins", default="4")
    q.add_argument("--light", default=None, help="D: light-destined coins (default: all)")
    q.add_argument("--heavy", default=None, help="D: heavy-destined coins (default: the rest)")
    q.add_argument("--fake", choices=("light", "heavy"), default=None, help="D: the fake's destiny")
    q.add_argument("--misere", action="store_true", help="misère play (the paper's reading unless --convention)")
    q.add_argument("--extra", action="store_true", help="one extra genuine coin")
    q.add_argument("--convention", choices=CONVENTIONS, default=None)
    q.add_argument("--table", action="store_true", help="the whole comparison table with the paper")
    q.add_argument("--max-coins", default="12", help="the table's largest N (as the API's max_coins; up to 40)")
    q.add_argument(
        "--certificates", action="store_true", help="list each disagreeing cell's certificate (else counted)"
    )


def devil_arguments(d: argparse.ArgumentParser) -> None:
    from solvers.devil import DEVIL_GOALS

    _report_arguments(d)
    d.add_argument("n", help="number of coins, 1..16")
    d.add_argument("--goal", choices=DEVIL_GOALS, default="all-heads")
    d.add_argument("--reflections", action="store_true", help="the Devil may also turn the table over")
    d.add_argument("--states", default="2", help="positions per coin (2 = coins; more = dials)")
    d.add_argument("--moves", action="store_true", help="include the moves")


def pegs_arguments(g: argparse.ArgumentParser) -> None:
    _report_arguments(g)
    g.add_argument("--board", default="triangle-4", help="triangle-4 .. triangle-8, english or french")
    g.add_argument("--hole", default="", help="the empty hole at the start")
    g.add_argument("--position", default="", help="a position token (hex bitmask of holes with coins)")
    g.add_argument("--count", action="store_true", help="count the jump sequences that solve it")
    g.add_argument("--finish", default="any", help="where the last coin must end: any, start, centre or a hole")


def codebreak_arguments(c: argparse.ArgumentParser) -> None:
    from solvers.codebreak import STRATEGIES

    _report_arguments(c)
    c.add_argument("game", help="mastermind, mastermind-black, bulls-and-cows, counterfeit-coin, or a .game file")
    c.add_argument("--pegs", default=None)
    c.add_argument("--colours", default=None)
    c.add_argument("--coins", default=None)
    c.add_argument("--strategy", default="knuth", choices=STRATEGIES)
    c.add_argument("--max-guesses", default=None, help="optimal-average within at most this many guesses")
    c.add_argument("--possible-only", action="store_true", help="optimal among strategies guessing possible codes only")
    c.add_argument("--tree", action="store_true", help="include the strategy tree")
    c.add_argument("--dot", action="store_true", help="include the tree in GraphViz DOT")


def optima_arguments(o: argparse.ArgumentParser) -> None:
    _report_arguments(o)
    o.add_argument(
        "--compute-up-to",
        default="256",
        help="prove here the sizes with at most this many secrets that the result store lacks (default 256); the "
        "others come from the store, which `make precompute` fills",
    )


def optima(args: argparse.Namespace) -> Report:
    """The table of proved Mastermind optima: from the result store, small sizes proved here when missing."""
    from webapp.jobs.optima import optima_table
    from webapp.store import default_store

    return optima_table(default_store(), whole(args.compute_up_to, "--compute-up-to"))


@dataclass(frozen=True)
class Command:
    """A subcommand: its one-line help, what adds its arguments, and what runs it (a report to print, or an exit
    status)."""

    help: str
    arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], Report | int]


def _site() -> ModuleType:
    """The site's commands (`admin`), imported when one runs: the one lazy import of the command line, so that a
    puzzle's subcommand and `--help` do not load subprocess, signal and the server's settings."""
    from webapp.commands import admin

    return admin


def _site_command(name: str, help_: str) -> Command:
    """A site command: its help, and its functions in `admin.site_commands` (read when the command is used)."""
    return Command(help_, lambda p: _site().site_commands[name][0](p), lambda a: int(_site().site_commands[name][1](a)))


SITE_COMMANDS = {  # their help: admin.site_commands has their functions
    "serve": "serve the web app (gunicorn) and run the job consumer, together",
    "worker": "run a background job consumer (serve starts one for each queue)",
    "proxy-config": "write the nginx configuration (deploy/nginx.conf) for this machine",
    "rotate-key": "make a new secret key; the old one stays accepted for reading",
    "precompute": "compute everything the site links to into the result store",
    "artifacts": "make the shipped results again",
    "certify": "prove a Mastermind optimal average and write its certificate",
    "warm-up": "compile every solver kernel into the disk cache (make run and make test do)",
}
COMMANDS: dict[str, Command] = {
    "weigh": Command("optimal weighing plan for the counterfeit-coin problem", weigh_arguments, weigh),
    "adversary": Command("replay weighings against the adversarial scale", adversary_arguments, adversary),
    "aequitas": Command("Grundy values of the Æquitas two-player coin games", aequitas_arguments, aequitas),
    "devil": Command("the Devil's blindfold game: shortest sure win, or why there is none", devil_arguments, devil),
    "pegs": Command("peg solitaire: solvability, finals, fewest moves, a solution", pegs_arguments, pegs),
    "codebreak": Command("code-breaking games: strategies as verified trees", codebreak_arguments, codebreak),
    "optima": Command("the table of proved Mastermind optima, size by size", optima_arguments, optima),
    **{name: _site_command(name, help_) for name, help_ in SITE_COMMANDS.items()},
}


def _parser(chosen: str | None) -> argparse.ArgumentParser:
    """The argument parser: every subcommand with its help, the chosen one with its arguments."""
    parser = _Parser(prog="coin-puzzles", description="Classic coin puzzles, solved exactly.")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, command in COMMANDS.items():
        p = sub.add_parser(name, help=command.help)
        if name == chosen:
            command.arguments(p)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: parse, run, print; a solver's refusal is one line on stderr and exit status 2."""
    argv = list(sys.argv[1:] if argv is None else argv)
    chosen = next((a for a in argv if not a.startswith("-")), None)
    try:
        args = _parser(chosen).parse_args(argv)
        result = COMMANDS[args.command].run(args)
        if isinstance(result, int):
            return result
        if args.json:
            import json

            from solvers.report import as_json

            print(json.dumps(as_json(result), indent=2))
        else:
            print(result.text())
        return 0
    except PuzzleError as e:
        print(f"coin-puzzles: error: {e.message}", file=sys.stderr)
        return 2
    except (Paused, KeyboardInterrupt):  # Ctrl+C or SIGTERM: a proof here keeps no checkpoint
        print("coin-puzzles: stopped (a proof run here keeps nothing: it starts over next time)", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (`| head`): what is left to print has nowhere to go
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nor when Python flushes it at exit
        return 1
    finally:
        _compile_report()


def _compile_report() -> None:
    """With COIN_PUZZLES_COMPILE_REPORT set: how many compiled kernels this process loaded from the disk cache
    and how many it compiled (benchmarks/startup.py and the tests read it)."""

    if os.environ.get("COIN_PUZZLES_COMPILE_REPORT"):
        loaded = compiled = 0
        if "solvers.jit" in sys.modules:  # never import Numba just to say nothing was compiled
            from solvers.jit import compile_counts

            loaded, compiled = compile_counts()
        print(f"kernels: {loaded} loaded, {compiled} compiled", file=sys.stderr)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

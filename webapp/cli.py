"""The coin-puzzles command line: `coin-puzzles weigh N ...` and `coin-puzzles serve`."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from solvers.errors import InputError, PuzzleError
from solvers.report import Report, as_json
from solvers.weighing import GOALS, MAX_TREE_COINS, OBJECTIVES, WEIGHTS, Problem

from .reports import check_tree_size, coins_report


class _Parser(argparse.ArgumentParser):
    """An argument parser that raises instead of exiting, so main() owns the exit status."""

    def error(self, message: str) -> None:  # type: ignore[override]
        """Raise with argparse's message."""
        raise InputError(message)


def _variant_arguments(parser: argparse.ArgumentParser, n_help: str) -> None:
    """The counterfeit-coin problem's arguments, shared by `weigh` and `adversary`."""
    parser.add_argument("n", help=n_help)
    parser.add_argument("--weight", choices=WEIGHTS, default="unknown")
    parser.add_argument("--goal", choices=GOALS, default="identify")
    parser.add_argument("--extra", default="0", help="extra coins known to be genuine (named G1, G2, ...)")
    parser.add_argument("--maybe-none", action="store_true", help="the counterfeit may be absent")


def _problem(args: argparse.Namespace) -> Problem:
    """The problem named by the shared arguments."""
    return Problem(_whole(args.n, "N"), args.weight, args.goal, _whole(args.extra, "--extra"), args.maybe_none)


def _parser() -> argparse.ArgumentParser:
    """The argument parser with its subcommands."""
    parser = _Parser(prog="coin-puzzles", description="Classic coin puzzles, solved exactly.")
    sub = parser.add_subparsers(dest="command", required=True)
    weigh = sub.add_parser("weigh", help="optimal weighing plan for the counterfeit-coin problem")
    _variant_arguments(weigh, "number of coins, 1..1,000,000")
    weigh.add_argument("--objective", choices=OBJECTIVES, default="worst")
    weigh.add_argument("--tree", action="store_true", help=f"include the whole plan (N <= {MAX_TREE_COINS})")
    weigh.add_argument("--scheme", action="store_true", help="include Dyson's non-adaptive scheme")
    weigh.add_argument("--json", action="store_true", help="print JSON")
    adv = sub.add_parser("adversary", help="replay weighings against the adversarial scale")
    _variant_arguments(adv, "number of coins")
    adv.add_argument("--budget", default="", help="weighing budget (default: the minimum)")
    adv.add_argument("--weighings", default="", help='e.g. "1,2,3,4-5,6,7,8;9-10"')
    adv.add_argument("--json", action="store_true", help="print JSON")
    aeq = sub.add_parser("aequitas", help="Grundy values of the Æquitas two-player coin games")
    aeq.add_argument("--game", choices=("D", "F", "FI"), default="D")
    aeq.add_argument("--coins", default="4")
    aeq.add_argument("--light", default=None, help="D: light-destined coins (default: all)")
    aeq.add_argument("--heavy", default=None, help="D: heavy-destined coins (default: the rest)")
    aeq.add_argument("--fake", choices=("light", "heavy"), default=None, help="D: the fake's destiny")
    aeq.add_argument("--misere", action="store_true")
    aeq.add_argument("--extra", action="store_true", help="one extra genuine coin")
    aeq.add_argument(
        "--convention",
        default=None,
        help="normal, misere-last-mover-loses or misere-stop-before-reveal (the paper's tables)",
    )
    aeq.add_argument("--table", action="store_true", help="the whole comparison table with the paper")
    aeq.add_argument("--max-coins", default="30")
    aeq.add_argument("--json", action="store_true", help="print JSON")
    dev = sub.add_parser("devil", help="the Devil's blindfold game: shortest sure win, or why there is none")
    dev.add_argument("n", help="number of coins, 1..16")
    dev.add_argument("--goal", choices=("all-heads", "all-equal"), default="all-heads")
    dev.add_argument("--reflections", action="store_true", help="the Devil may also turn the table over")
    dev.add_argument("--states", default="2", help="positions per coin (2 = coins; more = dials)")
    dev.add_argument("--moves", action="store_true", help="include the moves")
    dev.add_argument("--json", action="store_true", help="print JSON")
    peg = sub.add_parser("pegs", help="peg solitaire: solvability, finals, fewest moves, a solution")
    peg.add_argument("--board", default="triangle-4", help="triangle-4 .. triangle-8, english or french")
    peg.add_argument("--hole", default="", help="the empty hole at the start")
    peg.add_argument("--position", default="", help="a position token (hex bitmask of holes with coins)")
    peg.add_argument("--count", action="store_true", help="count the jump sequences that solve it")
    peg.add_argument("--json", action="store_true", help="print JSON")
    cb = sub.add_parser("codebreak", help="code-breaking games: strategies as verified trees")
    cb.add_argument("game", help="mastermind, mastermind-black, bulls-and-cows, counterfeit-coin, or a .game file")
    cb.add_argument("--pegs", default=None)
    cb.add_argument("--colours", default=None)
    cb.add_argument("--coins", default=None)
    cb.add_argument(
        "--strategy",
        default="knuth",
        choices=("knuth", "expected", "entropy", "parts", "optimal-worst", "optimal-average"),
    )
    cb.add_argument("--tree", action="store_true", help="include the strategy tree")
    cb.add_argument("--dot", action="store_true", help="include the tree in GraphViz DOT")
    cb.add_argument("--json", action="store_true", help="print JSON")
    serve = sub.add_parser("serve", help="serve the web app with gunicorn")
    serve.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    serve.add_argument("--port", default=os.environ.get("PORT", "8000"))
    serve.add_argument("--workers", default=os.environ.get("WORKERS", "2"))
    return parser


def _whole(raw: str, name: str) -> int:
    """A whole-number argument."""
    if not raw.strip().isdigit():
        raise InputError(f"{name} must be a whole number, not {raw!r}")
    return int(raw)


def _text(report: dict[str, object]) -> str:
    """The report in words."""
    lines = [
        f"{report['coins']} coins, weight {report['weight']}, goal {report['goal']}, extra {report['extra']}"
        f"{', maybe none' if report['maybe_none'] else ''}"
    ]
    if not report["solvable"]:
        lines.append(f"impossible: {report['reason']}")
        return "\n".join(lines)
    lines.append(f"minimum weighings: {report['weighings']} (lower bound {report['lower_bound']})")
    lines.append(f"{report['objective']}-optimal plan: worst {report['plan_worst']}, average {report['average']}")
    lines.append(f"verified: {report['verified']} ({report['verification']})")
    if "scheme" in report:
        scheme = report["scheme"]
        if isinstance(scheme, dict):
            weighings = scheme["weighings"]
            assert isinstance(weighings, list)
            for i, wg in enumerate(weighings, 1):
                lines.append(f"scheme weighing {i}: {wg['left']} vs {wg['right']}")
        else:
            lines.append(f"no non-adaptive scheme: {report['scheme_note']}")
    return "\n".join(lines)


def weigh(args: argparse.Namespace) -> int:
    """Print the counterfeit-coin report."""
    p = _problem(args)
    if args.tree:
        check_tree_size(p, MAX_TREE_COINS)
    report = coins_report(p, args.objective, tree=args.tree, scheme=args.scheme)
    print(json.dumps(report, indent=2) if args.json else _text(report))
    return 0


def adversary(args: argparse.Namespace) -> int:
    """Replay weighings against the adversary and print what they prove."""

    from .adversary import adversary_report, parse_setup, play_out, weighings_arg
    from .params import query

    p = _problem(args)
    fields = {**query(p, "worst"), "budget": args.budget, "mode": "adversary", "w": args.weighings}
    s = parse_setup(fields, page=False)
    report = adversary_report(s, play_out(s, weighings_arg(fields)))
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"outcomes: {', '.join(report['outcomes']) or '(none yet)'}")  # type: ignore[arg-type]
        print(
            f"cases left: {report['cases_left']}; weighings left: {report['weighings_left']}; "
            f"can still finish: {'yes' if report['can_still_finish'] else 'no'}"
        )
    return 0


def aequitas(args: argparse.Namespace) -> int:
    """Print a position's Grundy value and winning moves, or the whole table."""
    from solvers.aequitas.report import PAPER_MISERE, position_report, table_report

    report: Report
    if args.table:
        max_coins = _whole(args.max_coins, "--max-coins")
        if not 1 <= max_coins <= 40:
            raise InputError("--max-coins must be 1 to 40")
        report = table_report(max_coins)
    else:
        convention = args.convention or (PAPER_MISERE if args.misere else "normal")
        if args.misere and convention == "normal":
            raise InputError("--misere and --convention normal disagree")
        light = None if args.light is None else _whole(args.light, "--light")
        heavy = None if args.heavy is None else _whole(args.heavy, "--heavy")
        report = position_report(
            args.game, _whole(args.coins, "--coins"), args.extra, convention, light, heavy, args.fake
        )
    print(json.dumps(as_json(report), indent=2) if args.json else report.text())
    return 0


def devil(args: argparse.Namespace) -> int:
    """Print the Devil's game answer."""
    from solvers.devil import Variant
    from solvers.devil.report import devil_report

    v = Variant(_whole(args.n, "N"), args.goal, args.reflections, _whole(args.states, "--states"))
    report = devil_report(v, args.moves)
    print(json.dumps(as_json(report), indent=2 if not args.moves else None) if args.json else report.text())
    return 0


def pegs(args: argparse.Namespace) -> int:
    """Print the peg-board analysis."""
    from solvers.pegs import board, from_token
    from solvers.pegs.report import peg_report

    b = board(args.board)
    if not args.hole and not args.position:
        raise InputError("give --hole or --position")
    pos = from_token(b, args.position) if args.position else b.start(args.hole)
    report = peg_report(b, pos, args.hole or None, args.count)
    print(json.dumps(as_json(report), indent=2) if args.json else report.text())
    return 0


def codebreak(args: argparse.Namespace) -> int:
    """Print a strategy's statistics (and tree) for a code-breaking game."""
    from solvers.codebreak.report import codebreak_report

    from .games import analysis, load

    sizes = tuple(
        None if v is None else _whole(v, name)
        for v, name in ((args.pegs, "--pegs"), (args.colours, "--colours"), (args.coins, "--coins"))
    )
    pegs, colours, coins = sizes
    g = load(args.game, pegs, colours, coins)
    root, stats = analysis(args.game, pegs, colours, coins, args.strategy)
    report = codebreak_report(args.game, g, args.strategy, root, stats, args.tree, args.dot)
    print(json.dumps(as_json(report), indent=2) if args.json else report.text())
    return 0


def serve(args: argparse.Namespace) -> int:
    """Run gunicorn on the app factory (replaces this process)."""
    gunicorn = os.path.join(os.path.dirname(sys.executable), "gunicorn")
    argv = [
        gunicorn,
        "--bind",
        f"{args.host}:{args.port}",
        "--workers",
        str(args.workers),
        "--timeout",
        "30",
        "--preload",
        "--access-logfile",
        "-",
        "webapp:create_app()",
    ]
    os.execv(gunicorn, argv)
    return 0  # pragma: no cover - execv does not return


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: parse, run, and map bad input to exit status 2 with a message on stderr."""
    try:
        args = _parser().parse_args(argv)
        commands = {
            "weigh": weigh,
            "adversary": adversary,
            "aequitas": aequitas,
            "devil": devil,
            "pegs": pegs,
            "codebreak": codebreak,
            "serve": serve,
        }
        return commands[args.command](args)
    except PuzzleError as e:
        print(f"coin-puzzles: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

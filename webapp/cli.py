"""The coin-puzzles command line: one subcommand per puzzle (text, or --json with the API's fields) and `serve`.

Each subcommand turns its arguments into solver values, calls the solver's typed report and prints it; every
solver refusal (a `PuzzleError`) is printed as one line on stderr with exit status 2.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from solvers.aequitas import CONVENTIONS, GAMES
from solvers.codebreak import STRATEGIES, Node, Stats
from solvers.devil import GOALS as DEVIL_GOALS
from solvers.errors import InputError, PuzzleError
from solvers.report import Report, as_json
from solvers.weighing import GOALS, OBJECTIVES, WEIGHTS, Problem

API_MAX_COINS = 10_000  # the adversary game through the CLI and API


class _Parser(argparse.ArgumentParser):
    """An argument parser that raises instead of exiting, so main() owns the exit status."""

    def error(self, message: str) -> None:  # type: ignore[override]
        """Raise with argparse's message."""
        raise InputError(message)


def whole(raw: str, name: str) -> int:
    """A whole-number argument (ASCII digits only)."""
    text = raw.strip()
    if not text.isascii() or not text.isdigit() or len(text) > 9:
        raise InputError(f"{name} must be a whole number, not {raw[:20]!r}")
    return int(text)


def _problem(args: argparse.Namespace) -> Problem:
    """The counterfeit-coin problem named by the shared arguments."""
    return Problem(whole(args.n, "N"), args.weight, args.goal, whole(args.extra, "--extra"), args.maybe_none)


def weigh(args: argparse.Namespace) -> Report:
    """The optimal weighing plan for a counterfeit-coin problem (or a variant: lies, two fakes, k pans)."""
    from solvers.weighing.report import coins_report

    lies, fakes, pans = whole(args.lies, "--lies"), whole(args.fakes, "--fakes"), whole(args.pans, "--pans")
    if (lies, fakes, pans) != (0, 1, 2):
        from solvers.variants.model import Variant
        from solvers.variants.report import variant_report

        if args.goal != "identify" or whole(args.extra, "--extra") or args.maybe_none:
            raise InputError("--lies, --fakes and --pans are not combined with --goal find, --extra or --maybe-none")
        if args.objective != "worst" or args.scheme:
            raise InputError("the variants have worst-case plans only (no --objective average, no --scheme)")
        return variant_report(Variant(whole(args.n, "N"), args.weight, lies, fakes, pans), tree=args.tree)

    return coins_report(_problem(args), args.objective, tree=args.tree, scheme=args.scheme)


def adversary(args: argparse.Namespace) -> Report:
    """Weighings replayed against the adversarial scale, and what they prove."""
    from solvers.weighing.adversary import replay
    from solvers.weighing.knowledge import MAX_WEIGHINGS, parse_weighings
    from solvers.weighing.report import adversary_report, game_budget

    p = _problem(args)
    if p.coins > API_MAX_COINS or p.extra > 50:
        raise InputError(f"the adversary game takes up to {API_MAX_COINS:,} coins and 50 extra coins")
    budget, minimum = game_budget(p, whole(args.budget, "--budget") if args.budget else None, MAX_WEIGHINGS)
    return adversary_report(replay(p, budget, parse_weighings(args.weighings)), minimum)


def aequitas(args: argparse.Namespace) -> Report:
    """A starting position's Grundy value and winning moves, or the whole table beside the paper."""
    from solvers.aequitas.report import MAX_COINS, PAPER_MISERE, position_report, table_report

    if args.table:
        max_coins = whole(args.max_coins, "--max-coins")
        if not 1 <= max_coins <= MAX_COINS:
            raise InputError(f"--max-coins must be 1 to {MAX_COINS}")
        return table_report(max_coins)
    convention = args.convention or (PAPER_MISERE if args.misere else "normal")
    if args.misere and convention == "normal":
        raise InputError("--misere and --convention normal disagree")
    light = None if args.light is None else whole(args.light, "--light")
    heavy = None if args.heavy is None else whole(args.heavy, "--heavy")
    return position_report(args.game, whole(args.coins, "--coins"), args.extra, convention, light, heavy, args.fake)


def devil(args: argparse.Namespace) -> Report:
    """The Devil's game: the shortest sure win, or why there is none."""
    from solvers.devil import Variant
    from solvers.devil.report import devil_report

    v = Variant(whole(args.n, "N"), args.goal, args.reflections, whole(args.states, "--states"))
    return devil_report(v, args.moves)


def pegs(args: argparse.Namespace) -> Report:
    """The peg board: solvability, finals, fewest moves, a solution and counts."""
    from solvers.pegs import board, finish_label, from_token
    from solvers.pegs.report import PegReport, peg_report

    b = board(args.board)
    if not args.hole and not args.position:
        raise InputError("give --hole or --position")
    if args.finish == "start" and not args.hole:
        raise InputError("--finish start needs --hole")
    pos = from_token(b, args.position) if args.position else b.start(args.hole)
    finish = finish_label(b, args.hole, args.finish) or None
    params = {"board": b.name, "position": pos, "hole": args.hole or None, "count": args.count, "finish": finish}
    found = _stored("pegs.report", params)  # the French board's classic problem takes minutes
    return found if isinstance(found, PegReport) else peg_report(b, pos, args.hole or None, args.count, finish)


def _stored(name: str, params: dict[str, object]) -> object | None:
    """A result from the store when `make run` or `precompute` has put it there, else None (stored results were
    verified before they were stored)."""
    from .jobs import default_store
    from .results import stored

    try:
        return stored(default_store(), name, params)
    except (OSError, ConnectionError):
        return None  # no store reachable: compute here


def codebreak(args: argparse.Namespace) -> Report:
    """A code-breaking strategy's verified statistics (and tree)."""
    from solvers.codebreak.report import codebreak_report

    from .games import analysis, load

    pegs_, colours, coins = (
        None if v is None else whole(v, name)
        for v, name in ((args.pegs, "--pegs"), (args.colours, "--colours"), (args.coins, "--coins"))
    )
    g = load(args.game, pegs_, colours, coins)
    found = _stored_tree(args.game, (pegs_, colours, coins), args.strategy)
    root, stats = found or analysis(args.game, pegs_, colours, coins, args.strategy)
    return codebreak_report(args.game, g, args.strategy, root, stats, args.tree, args.dot)


def _stored_tree(game: str, sizes: tuple[int | None, ...], strategy: str) -> tuple[Node, Stats] | None:
    """A shipped game's strategy from the result store when `make run` or `precompute` has put it there (the
    optimal 4x6 searches take minutes), else None. Stored trees were verified before they were stored."""
    from .catalogue import codebreak_params
    from .games import default_sizes, shipped

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
    return _stored("codebreak.tree", codebreak_params(game, (pegs_, colours, coins), strategy))  # type: ignore[return-value]


def serve(args: argparse.Namespace) -> int:
    """gunicorn and the job consumer together; when either stops (or on Ctrl-C / SIGTERM) both are stopped."""
    bin_dir = os.path.dirname(sys.executable)
    gunicorn = [
        os.path.join(bin_dir, "gunicorn"),
        "--bind",
        f"{args.host}:{args.port}",
        "--workers",
        str(args.workers),
        "--timeout",
        "60",
        "--preload",
        "--access-logfile",
        "-",
        "webapp:create_app()",
    ]
    command = os.path.join(bin_dir, "coin-puzzles")
    visitors = [command, "worker", "--queue", "visitors", "--workers", str(args.job_workers)]
    precompute = [command, "worker", "--queue", "precompute", "--workers", "1"]
    # each in a process group of its own, so that a stop reaches the job processes a consumer has started too
    procs = [subprocess.Popen(c, start_new_session=True) for c in (visitors, precompute, gunicorn)]

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    try:
        while all(p.poll() is None for p in procs):
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        # a consumer's SIGTERM interrupts its running jobs (each ends its claim as it stops, so the next start
        # queues it again); gunicorn's SIGINT stops it at once
        for p, sig in zip(procs, (signal.SIGTERM, signal.SIGTERM, signal.SIGINT), strict=True):
            if p.poll() is None:
                p.send_signal(sig)
        deadline = time.monotonic() + 15  # one deadline for all three, not 15 s each
        for p in procs:
            with contextlib.suppress(subprocess.TimeoutExpired):
                p.wait(timeout=max(0.1, deadline - time.monotonic()))
        # then whatever is left of each group: a job deep in compiled code does not see the interrupt, and a job of
        # an hour must not outlive the server (its claim lapses in 10 minutes)
        for p in procs:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    return 0


def proxy_config(args: argparse.Namespace) -> int:
    """Write deploy/nginx.conf with its placeholders filled into a run folder; print how to start nginx. Its
    workers run as the account that wrote it (when nginx starts as root), which can read the checkout."""
    import grp
    import pwd

    from .config import ROOT

    run = Path(args.run).resolve()
    run.mkdir(parents=True, exist_ok=True)
    static = Path(args.static).resolve() if args.static else ROOT / "static"
    if not (static / "css").is_dir():
        raise InputError(f"{static} is not the project's static folder (it has no css/)")
    text = (ROOT / "deploy" / "nginx.conf").read_text()
    for name, value in (
        ("@STATIC@", str(static)),
        ("@LISTEN@", args.listen),
        ("@UPSTREAM@", args.upstream),
        ("@RUN@", str(run)),
        ("@USER@", pwd.getpwuid(os.geteuid()).pw_name),
        ("@GROUP@", grp.getgrgid(os.getegid()).gr_name),
    ):
        text = text.replace(name, value)
    (run / "nginx.conf").write_text(text)
    print(f"nginx -p {run} -c {run / 'nginx.conf'} -g 'daemon off;'")
    return 0


def rotate_key(args: argparse.Namespace) -> int:
    """Make a new secret key and keep the old one as a fallback (read, never used to sign); --forget-old drops
    the fallbacks. With COIN_PUZZLES_SECRET set, print the two settings to use instead."""
    from . import config

    folder = config.instance_path()
    keys = config.keys(folder)
    if os.environ.get("COIN_PUZZLES_SECRET"):
        olds = () if args.forget_old else keys.all
        print("COIN_PUZZLES_SECRET is set in the environment; set these two instead, then restart every process:")
        print(f"COIN_PUZZLES_SECRET={keys.current if args.forget_old else config.new_key()}")
        print(f"COIN_PUZZLES_SECRET_FALLBACKS={','.join(olds)}")
        return 0
    if args.forget_old:
        count = config.forget_fallbacks(folder)
        print(
            f"dropped {count} older key(s) from {folder}; restart the server (make run) so that it stops accepting them"
        )
        return 0
    rotated = config.rotate(folder)
    print(
        f"made a new key in {folder / config.KEY_FILE}; {len(rotated.fallbacks)} older key(s) kept in "
        f"{folder / config.FALLBACKS_FILE}, still accepted for reading. Restart the server (make run) to use it; "
        "run `coin-puzzles rotate-key --forget-old` once links and sessions made before may stop working."
    )
    return 0


def worker(args: argparse.Namespace) -> int:
    """A job consumer for one queue. The precomputation's consumer first queues everything the site links to
    that is not stored yet (unless --no-precompute)."""
    from .catalogue import everything
    from .jobs import QUEUES, default_store, enqueue_missing

    workers = whole(args.workers, "--workers")
    if args.queue == "precompute" and not args.no_precompute:
        queued = enqueue_missing(default_store(), everything())
        print(f"coin-puzzles worker: {queued} results queued for precomputation", file=sys.stderr)
    QUEUES[args.queue].create_consumer(workers=workers, worker_type="process").run()
    return 0


def precompute(args: argparse.Namespace) -> int:
    """Compute every result the site links to, in the foreground, with a progress bar; resumable."""
    from tqdm import tqdm

    from .catalogue import everything
    from .jobs import default_store
    from .results import REGISTRY, read, run, write

    store = default_store()
    items = [(n, p) for n, p in everything() if not args.only or any(n.startswith(o) for o in args.only)]
    done = 0
    with tqdm(items, unit="result", file=sys.stderr) as bar:
        for name, params in bar:
            c = REGISTRY[name]
            bar.set_description(c.title(params)[:40])
            key = c.key(params)
            if read(store, c, key) is not None:
                continue

            def tick(d: int, total: int) -> None:
                bar.set_postfix_str(f"{d:,}/{total:,}" if total else f"{d:,}")

            write(store, c, key, run(c, params, tick))
            done += 1
    print(f"precompute: {done} computed, {len(items) - done} already stored ({store.address})")
    return 0


def _variant_arguments(parser: argparse.ArgumentParser, n_help: str) -> None:
    """The counterfeit-coin problem's arguments, shared by `weigh` and `adversary`."""
    parser.add_argument("n", help=n_help)
    parser.add_argument("--weight", choices=WEIGHTS, default="unknown")
    parser.add_argument("--goal", choices=GOALS, default="identify")
    parser.add_argument("--extra", default="0", help="extra coins known to be genuine (named G1, G2, ...)")
    parser.add_argument("--maybe-none", action="store_true", help="the counterfeit may be absent")


def _parser() -> argparse.ArgumentParser:
    """The argument parser with its subcommands; each report subcommand's function is its `run` default."""
    parser = _Parser(prog="coin-puzzles", description="Classic coin puzzles, solved exactly.")
    sub = parser.add_subparsers(dest="command", required=True)

    def command(name: str, run: Callable[[argparse.Namespace], Report], help_: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_)
        p.set_defaults(run=run)
        p.add_argument("--json", action="store_true", help="print JSON (the API's fields)")
        return p

    w = command("weigh", weigh, "optimal weighing plan for the counterfeit-coin problem")
    _variant_arguments(w, "number of coins, 1..1,000,000")
    w.add_argument("--objective", choices=OBJECTIVES, default="worst")
    w.add_argument("--tree", action="store_true", help="include the whole plan (N <= 1,000)")
    w.add_argument("--scheme", action="store_true", help="include Dyson's non-adaptive scheme")
    w.add_argument("--lies", default="0", help="the balance may lie up to this many times (0-2; N <= 100)")
    w.add_argument("--fakes", default="1", help="counterfeit coins of equal weight (1 or 2; N <= 100)")
    w.add_argument("--pans", default="2", help="pans on the balance (2-5; N <= 100)")
    a = command("adversary", adversary, "replay weighings against the adversarial scale")
    _variant_arguments(a, f"number of coins, 1..{API_MAX_COINS:,}")
    a.add_argument("--budget", default="", help="weighing budget (default: the minimum)")
    a.add_argument("--weighings", default="", help='e.g. "1,2,3,4-5,6,7,8;9-10"')
    q = command("aequitas", aequitas, "Grundy values of the Æquitas two-player coin games")
    q.add_argument("--game", choices=GAMES, default="D")
    q.add_argument("--coins", default="4")
    q.add_argument("--light", default=None, help="D: light-destined coins (default: all)")
    q.add_argument("--heavy", default=None, help="D: heavy-destined coins (default: the rest)")
    q.add_argument("--fake", choices=("light", "heavy"), default=None, help="D: the fake's destiny")
    q.add_argument("--misere", action="store_true", help="misère play (the paper's reading unless --convention)")
    q.add_argument("--extra", action="store_true", help="one extra genuine coin")
    q.add_argument("--convention", choices=CONVENTIONS, default=None)
    q.add_argument("--table", action="store_true", help="the whole comparison table with the paper")
    q.add_argument("--max-coins", default="30")
    d = command("devil", devil, "the Devil's blindfold game: shortest sure win, or why there is none")
    d.add_argument("n", help="number of coins, 1..16")
    d.add_argument("--goal", choices=DEVIL_GOALS, default="all-heads")
    d.add_argument("--reflections", action="store_true", help="the Devil may also turn the table over")
    d.add_argument("--states", default="2", help="positions per coin (2 = coins; more = dials)")
    d.add_argument("--moves", action="store_true", help="include the moves")
    g = command("pegs", pegs, "peg solitaire: solvability, finals, fewest moves, a solution")
    g.add_argument("--board", default="triangle-4", help="triangle-4 .. triangle-8, english or french")
    g.add_argument("--hole", default="", help="the empty hole at the start")
    g.add_argument("--position", default="", help="a position token (hex bitmask of holes with coins)")
    g.add_argument("--count", action="store_true", help="count the jump sequences that solve it")
    g.add_argument("--finish", default="any", help="where the last coin must end: any, start, centre or a hole")
    c = command("codebreak", codebreak, "code-breaking games: strategies as verified trees")
    c.add_argument("game", help="mastermind, mastermind-black, bulls-and-cows, counterfeit-coin, or a .game file")
    c.add_argument("--pegs", default=None)
    c.add_argument("--colours", default=None)
    c.add_argument("--coins", default=None)
    c.add_argument("--strategy", default="knuth", choices=STRATEGIES)
    c.add_argument("--tree", action="store_true", help="include the strategy tree")
    c.add_argument("--dot", action="store_true", help="include the tree in GraphViz DOT")
    s = sub.add_parser("serve", help="serve the web app (gunicorn) and run the job consumer, together")
    s.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    s.add_argument("--port", default=os.environ.get("PORT", "8000"))
    s.add_argument("--workers", default=os.environ.get("WORKERS", "2"))
    s.add_argument("--job-workers", default=os.environ.get("JOB_WORKERS", "2"))
    k = sub.add_parser("worker", help="run a background job consumer (serve starts one for each queue)")
    k.add_argument("--queue", choices=("visitors", "precompute"), default="visitors")
    k.add_argument("--workers", default=os.environ.get("JOB_WORKERS", "2"))
    k.add_argument(
        "--no-precompute",
        action="store_true",
        default=os.environ.get("COIN_PUZZLES_PRECOMPUTE", "1") == "0",
        help="do not queue the precomputation at start (or COIN_PUZZLES_PRECOMPUTE=0)",
    )
    px = sub.add_parser("proxy-config", help="write the nginx configuration (deploy/nginx.conf) for this machine")
    px.add_argument("--listen", default="127.0.0.1:8080")
    px.add_argument("--upstream", default="127.0.0.1:8000")
    px.add_argument("--run", default="instance/nginx", help="folder for the configuration, pid, logs, buffers")
    px.add_argument("--static", default="", help="the static folder nginx serves (default: the checkout's static/)")
    rk = sub.add_parser("rotate-key", help="make a new secret key; the old one stays accepted for reading")
    rk.add_argument("--forget-old", action="store_true", help="drop the older keys instead")
    pre = sub.add_parser("precompute", help="compute everything the site links to into the result store")
    pre.add_argument("--only", nargs="*", default=[], help="only these computations (pegs, devil, aequitas, ...)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: parse, run, print; a solver's refusal is one line on stderr and exit status 2."""
    try:
        args = _parser().parse_args(argv)
        admin = {
            "serve": serve,
            "worker": worker,
            "precompute": precompute,
            "proxy-config": proxy_config,
            "rotate-key": rotate_key,
        }
        if args.command in admin:
            return int(admin[args.command](args))
        report = args.run(args)
        print(json.dumps(as_json(report), indent=2) if args.json else report.text())
        return 0
    except PuzzleError as e:
        print(f"coin-puzzles: error: {e.message}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

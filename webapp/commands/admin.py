"""The commands that run the site: `serve` (gunicorn and the job consumers), `worker`, `precompute`, `artifacts`,
`proxy-config` (`proxy`), `rotate-key`, `warm-up` and `certify` (each with the function that adds its arguments)."""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from solvers.errors import InputError
from webapp.commands import proxy
from webapp.commands.arguments import whole
from webapp.commands.exits import quick_exit
from webapp.config import precomputing

# the precomputation's consumer and its jobs run at the lowest priority: when the cores are busy they get about
# 1/70 of the time of visitors' pages and jobs (Linux's weights: 15 against 1024), and all of it when the site is idle
PRECOMPUTE_NICENESS = 19
STOP_SECONDS = 15  # how long serve's processes are given to stop by themselves once asked to


def serve(args: argparse.Namespace) -> int:
    """gunicorn and the job consumers (visitors', quick lane, precomputation) together; when one stops (or on
    Ctrl-C / SIGTERM) all are stopped. The exit status: 0 after a stop asked for, else the status of the process
    that ended first (gunicorn that could not start, a consumer that died), never 0. The key is checked first: a
    key the site must not use stops everything before anything starts (exit status 2, with the reason)."""
    from webapp import config
    from webapp.jobs.halting import stops_ignored

    config.keys(config.instance_path())  # ConfigError (exit status 2) for a published or weak key
    private_instance()
    nginx = None if args.no_proxy else nginx_binary()
    bind = f"{args.host}:{args.port}"
    env = dict(os.environ)
    sockets = None
    if nginx is not None:  # nginx buffers slow clients and answers on the address; gunicorn behind it, on a Unix
        # socket of mode 0600 (gunicorn's umask) in a folder of mode 0700: no other account can reach it and pick the
        # client address nginx forwards. In /tmp, not the instance folder: a socket's path is at most 107 bytes.
        sockets = Path(tempfile.mkdtemp(prefix="coin-puzzles-"))
        bind = f"unix:{sockets / 'gunicorn.sock'}"
        env["COIN_PUZZLES_PROXIES"] = str(int(env.get("COIN_PUZZLES_PROXIES", "0") or 0) + 1)
    else:
        print(
            "coin-puzzles serve: nginx not found, so gunicorn answers directly (slow clients can hold its workers); "
            "`make run` installs Debian's nginx",
            file=sys.stderr,
        )
    commands, precompute = _commands(args, bind)
    names = ["the visitors' consumer", "the quick lane's consumer", "the precomputation's consumer", "gunicorn"]

    signal.signal(signal.SIGTERM, signal.default_int_handler)  # a stop raises KeyboardInterrupt, as Ctrl+C does
    procs: list[subprocess.Popen[bytes]] = []
    status = 0
    try:
        procs += [
            subprocess.Popen(
                c, start_new_session=True, env=env, preexec_fn=lowest_priority if c is precompute else None
            )
            for c in commands
        ]
        if nginx is not None and _listening(bind, procs):  # nginx once gunicorn answers: no 502 at the start
            run = config.instance_path() / "nginx"
            conf = proxy.write_proxy_config(run, f"{args.host}:{args.port}", bind, None)
            nginx_run = [nginx, "-p", str(run), "-c", str(conf), "-g", "daemon off;"]
            procs.append(subprocess.Popen(nginx_run, start_new_session=True))
            names.append("nginx")
        while all(p.poll() is None for p in procs):
            time.sleep(0.5)
        name, ended = next((n, p) for n, p in zip(names, procs, strict=True) if p.poll() is not None)
        status = ended.returncode or 1  # nothing asked it to stop: a failure, whatever its own status
        print(f"coin-puzzles serve: {name} stopped (status {ended.returncode}); stopping the rest", file=sys.stderr)
    except KeyboardInterrupt:
        pass
    finally:
        with stops_ignored():  # a stop asked again (Ctrl+C twice) cut it short, leaving jobs behind
            _stop_all(procs, names)
            if sockets is not None:
                shutil.rmtree(sockets, ignore_errors=True)
    return status


def _commands(args: argparse.Namespace, bind: str) -> tuple[list[list[str]], list[str]]:
    """The processes serve runs, each in a process group of its own (so that a stop reaches the job processes a
    consumer has started too): the visitors' consumer, the quick lane's, the precomputation's (also returned: it
    runs at the lowest priority) and gunicorn on `bind`."""
    bin_dir = os.path.dirname(sys.executable)
    gunicorn = [
        os.path.join(bin_dir, "gunicorn"),
        "--bind",
        bind,
        "--umask",
        "0o077",
        "--workers",
        str(args.workers),
        "--worker-class",
        "gthread",
        "--threads",
        str(whole(args.threads, "--threads")),
        "--keep-alive",  # none: a worker killed under nginx leaves no kept connection that a GET's retry could meet
        "0",
        "--timeout",
        "60",
        "--graceful-timeout",
        "10",
        "--limit-request-line",  # behind nginx, whose buffers bound a line (16 KB), none of its own: its 4,094 bytes
        "0" if bind.startswith("unix:") else "8190",  # answered longer ones with its bare page, not the app's 414
        "--preload",
        "--config",  # its worker_exit hook: a worker that stops cleanly skips Python's teardown
        "python:webapp.commands.exits",
        "--no-control-socket",  # at $HOME/.gunicorn by default: two servers of one account unlinked each other's
        "--access-logfile",
        "-",
        "webapp:served_app()",
    ]
    command = os.path.join(bin_dir, "coin-puzzles")
    visitors = [command, "worker", "--queue", "visitors", "--workers", str(args.job_workers)]
    quick = [command, "worker", "--queue", "quick", "--workers", "1"]
    precompute = [command, "worker", "--queue", "precompute", "--workers", str(args.precompute_workers)]
    return [visitors, quick, precompute, gunicorn], precompute


def _stop_all(procs: list[subprocess.Popen[bytes]], names: list[str]) -> None:
    """Stop serve's processes: SIGTERM to each, one deadline for all (STOP_SECONDS), then whatever is left of each
    group, saying which process had not stopped by itself."""
    # a consumer's SIGTERM interrupts its running jobs (each ends its claim as it stops, so the next start
    # queues it again); gunicorn's SIGTERM lets the requests in flight finish (at most 10 s); nginx's stops it
    for p in procs:
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + STOP_SECONDS  # one deadline for all of them, not 15 s each
    for name, p in zip(names, procs, strict=False):
        with contextlib.suppress(subprocess.TimeoutExpired):
            p.wait(timeout=max(0.1, deadline - time.monotonic()))
        if p.poll() is None:
            print(f"coin-puzzles serve: {name} did not stop within {STOP_SECONDS} s; killed", file=sys.stderr)
    # then whatever is left of each group: a job deep in compiled code does not see the interrupt, and a job of
    # an hour must not outlive the server (its claim lapses in 10 minutes)
    for p in procs:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(p.pid, signal.SIGKILL)
        p.wait()


def lowest_priority(niceness: int = PRECOMPUTE_NICENESS, session: bool = False) -> None:
    """This process at the precomputation's niceness (set, not added), and so its session's group where the kernel
    groups by session (Linux's autogroup, on in Debian): a niceness ranks only within a session, and a process with
    a session of its own (serve's consumers; `session`: one started by setsid) would share the cores equally."""
    os.setpriority(os.PRIO_PROCESS, 0, niceness)
    if session or os.getsid(0) == os.getpid():
        with contextlib.suppress(OSError):  # no autogroup (another kernel, or it is off): the niceness is enough
            Path("/proc/self/autogroup").write_text(str(niceness))


def niced_session() -> None:
    """Started niced (`setsid nice -n 19`, as docs/operations.md says), a long proof sets its session's scheduling
    group to the same niceness: where Linux groups processes by session (autogroup), a niceness alone ranks a
    process only within its session (a proof started apart competed with a fresh clone's tests at full weight)."""
    if os.getpriority(os.PRIO_PROCESS, 0) > 0:
        lowest_priority(os.getpriority(os.PRIO_PROCESS, 0), session=detached())


def detached() -> bool:
    """Whether this process has no controlling terminal (started with setsid): only then is its session's group its
    own to lower (from a terminal, it would be the terminal's shell and everything started from it afterwards)."""
    try:
        os.close(os.open("/dev/tty", os.O_RDONLY))
    except OSError:
        return True
    return False


def private_instance() -> None:
    """The instance folder (the store, the queues, the key) readable by this account only: 0700, its files 0600
    (those an earlier version made readable by others closed up), and every file this process and its children
    make from now on private (umask 077)."""
    from webapp import config

    os.umask(0o077)
    folder = config.instance_path()
    folder.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(OSError):
        folder.chmod(0o700)
        for path in folder.iterdir():
            if path.is_file() and path.stat().st_mode & 0o077:
                path.chmod(0o600)


def _listening(address: str, procs: list[subprocess.Popen[bytes]], seconds: float = 120) -> bool:
    """Wait until something listens on host:port or unix:path (False if one of procs ends first, or after seconds)."""
    import socket

    unix = address.startswith("unix:")
    target: str | tuple[str, int] = address.removeprefix("unix:")
    if not unix:
        host, port = address.rsplit(":", 1)
        target = (host, int(port))
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and all(p.poll() is None for p in procs):
        with socket.socket(socket.AF_UNIX if unix else socket.AF_INET) as s:
            if s.connect_ex(target) == 0:
                return True
        time.sleep(0.1)
    return False


def nginx_binary() -> str | None:
    """Debian's nginx, if installed."""
    import shutil

    found = shutil.which("nginx") or ("/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None)
    return found


def rotate_key(args: argparse.Namespace) -> int:
    """Make a new secret key and keep the old one as a fallback (read, never used to sign); --forget-old drops
    the fallbacks. With COIN_PUZZLES_SECRET set, print the two settings to use instead."""
    from webapp import config

    folder = config.instance_path()
    if os.environ.get("COIN_PUZZLES_SECRET"):
        try:
            keys = config.keys(folder)
        except config.ConfigError as e:  # the key in force cannot be kept, not even as a fallback
            print(f"{e.message}; set this one instead (no older key kept), then restart every process:")
            print(f"COIN_PUZZLES_SECRET={config.new_key()}")
            print("COIN_PUZZLES_SECRET_FALLBACKS=")
            return 0
        olds = () if args.forget_old else keys.all
        print("COIN_PUZZLES_SECRET is set in the environment; set these two instead, then restart every process:")
        print(f"COIN_PUZZLES_SECRET={keys.current if args.forget_old else config.new_key()}")
        print(f"COIN_PUZZLES_SECRET_FALLBACKS={','.join(olds)}")
        return 0
    if args.forget_old:
        count = config.forget_fallbacks(folder)
        print(f"dropped {count} older key(s) from {folder}; a running server stops accepting them at its next request")
        return 0
    rotated = config.rotate(folder)
    print(
        f"made a new key in {folder / config.KEY_FILE}; {len(rotated.fallbacks)} older key(s) kept in "
        f"{folder / config.FALLBACKS_FILE}, still accepted for reading. A running server's web workers and jobs "
        "use it from their next request (no restart); run `coin-puzzles rotate-key --forget-old` once links and "
        "sessions made before may stop working."
    )
    return 0


def worker(args: argparse.Namespace) -> int:
    """A job consumer for one queue. The precomputation's consumer first queues everything the site links to
    that is not stored yet (unless --no-precompute)."""
    from webapp import config
    from webapp.jobs.queues import Queues
    from webapp.store import default_store

    workers = whole(args.workers, "--workers")
    config.keys(config.instance_path())  # ConfigError (exit status 2) for a published or weak key
    private_instance()
    queues = Queues(config.redis_url(), config.instance_path())
    consumer = queues.consumer(args.queue, workers)
    if args.queue == "precompute":
        lowest_priority()  # the background fill yields the cores to visitors' pages and jobs (serve sets it already)
        if not args.no_precompute:  # what is shipped is not queued but stored, once the rest is queued and served;
            from webapp.jobs.shipped import start  # then the heavy pages are rendered (`webapp.prerender`)

            def say(line: str) -> None:
                print(f"coin-puzzles worker: {line}", file=sys.stderr, flush=True)

            install = start(queues, default_store(), say)

            def then() -> None:  # the heavy pages rendered beside the install (from the shipped files if need be)
                pages = subprocess.Popen([sys.executable, "-c", "import webapp; webapp.prerender()"])
                install()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    pages.wait(timeout=600)

            consumer.then = then
    if args.queue == "quick":  # its jobs are awaited by the page that asked: the kernels loaded before the forks
        from webapp.jobs.warm import load_here

        load_here()
    consumer.run()
    quick_exit(1 if getattr(consumer, "failed", False) else 0)  # 1: the precomputation's install failed (printed)


def precompute(args: argparse.Namespace) -> int:
    """Compute every result the site links to, in the foreground, with a progress bar; resumable."""
    from tqdm import tqdm

    from solvers.errors import Paused
    from webapp.jobs.halting import halt_on_signals
    from webapp.jobs.precompute import everything
    from webapp.jobs.shipped import install
    from webapp.results.computations import read, resumable
    from webapp.store import default_store

    private_instance()
    halt_on_signals()  # Ctrl+C or SIGTERM halts a long proof where it stands (it keeps its frames in the store)
    store = default_store()
    print(f"precompute: {install(store, print)} shipped results stored")
    items = [(c, p) for c, p in everything(large=True) if not args.only or any(c.name.startswith(o) for o in args.only)]
    done = 0
    with tqdm(items, unit="result", file=sys.stderr) as bar:
        for c, params in bar:
            bar.set_description(c.title(params)[:40])
            if read(store, c, c.key(params)) is not None:
                continue

            def tick(d: int, total: int) -> None:
                bar.set_postfix_str(f"{d:,}/{total:,}" if total else f"{d:,}")

            try:
                resumable(store, c, params, tick)  # a long proof stopped part-way resumes from its checkpoint
            except (Paused, KeyboardInterrupt):  # its frames kept in the store
                bar.close()
                print(f"\nprecompute: stopped ({done} computed); the next run goes on where it stood", file=sys.stderr)
                return 130
            done += 1
    print(f"precompute: {done} computed, {len(items) - done} already stored ({store.address})")
    return 0


def artifacts(args: argparse.Namespace) -> int:
    """Make the shipped results again (webapp/data/results: `shipped.remake`)."""
    from webapp.jobs.shipped import remake

    remake(args.only, print)
    return 0


def artifacts_arguments(a: argparse.ArgumentParser) -> None:
    a.add_argument("--only", nargs="*", default=[], help="only these computations (codebreak.second, pegs.report, ...)")


def serve_arguments(s: argparse.ArgumentParser) -> None:
    s.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    s.add_argument("--port", default=os.environ.get("PORT", "8000"))
    s.add_argument("--workers", default=os.environ.get("WORKERS", "2"))
    # threads per worker: a page that waits a moment on a quick job, or a slow reader, holds one
    s.add_argument("--threads", default=os.environ.get("THREADS", "8"))
    s.add_argument("--job-workers", default=os.environ.get("JOB_WORKERS", "2"))
    # two: the fill then uses both cores of an idle machine, at a niceness that yields them to visitors
    s.add_argument("--precompute-workers", default=os.environ.get("PRECOMPUTE_WORKERS", "2"))
    s.add_argument(
        "--no-proxy",
        action="store_true",
        default=os.environ.get("COIN_PUZZLES_PROXY", "1") == "0",
        help="gunicorn answers on the address itself, without nginx in front (or COIN_PUZZLES_PROXY=0)",
    )


def worker_arguments(k: argparse.ArgumentParser) -> None:
    k.add_argument("--queue", choices=("visitors", "quick", "precompute"), default="visitors")
    k.add_argument("--workers", default=os.environ.get("JOB_WORKERS", "2"))
    k.add_argument(
        "--no-precompute",
        action="store_true",
        default=not precomputing(),
        help="do not queue the precomputation at start (or COIN_PUZZLES_PRECOMPUTE=0)",
    )


def rotate_key_arguments(rk: argparse.ArgumentParser) -> None:
    rk.add_argument("--forget-old", action="store_true", help="drop the older keys instead")


def precompute_arguments(pre: argparse.ArgumentParser) -> None:
    pre.add_argument("--only", nargs="*", default=[], help="only these computations (pegs, devil, aequitas, ...)")


def warm_up_arguments(w: argparse.ArgumentParser) -> None:
    w.add_argument("--quiet", action="store_true", help="no progress bar")


def warm_up(args: argparse.Namespace) -> int:
    """Compile every solver kernel into the disk cache (a kernel already there is loaded, not compiled)."""
    from solvers.jit import CACHE
    from webapp.jobs.warm import warm

    loaded, compiled = warm(progress=not args.quiet)
    print(f"warm-up: {compiled} kernels compiled, {loaded} already compiled (cache: {CACHE})")
    return 0


def certify_arguments(c: argparse.ArgumentParser) -> None:
    c.add_argument("--pegs", required=True)
    c.add_argument("--colours", required=True)
    c.add_argument("--out", required=True, help="the certificate file to write (.npz)")


CERTIFY_SECRETS = 20_000  # `certify`: the largest Mastermind proved in one process here (Mastermind 3x26: 17,576)


def certify(args: argparse.Namespace) -> int:
    """Prove a Mastermind size's optimal average in one process with its log on and write its certificate
    (`solvers.codebreak.optimal.certificate`), which tests/certify/checker.py checks."""
    from solvers.codebreak import build
    from solvers.codebreak.game import PROOF_COLOURS
    from webapp.results.games import game_spec

    pegs, colours = whole(args.pegs, "--pegs"), whole(args.colours, "--colours")
    if not (2 <= pegs <= 6 and 2 <= colours <= PROOF_COLOURS) or colours**pegs > CERTIFY_SECRETS:
        raise InputError(
            f"certificates are made for 2 to 6 pegs and 2 to {PROOF_COLOURS} colours, {CERTIFY_SECRETS:,} codes at most"
        )
    if not args.out.endswith(".npz"):
        raise InputError("--out must name a .npz file")
    import numpy as np

    from solvers.codebreak.optimal.certificate import certify as make
    from webapp.jobs.halting import halt_on_signals

    halt_on_signals()  # Ctrl+C stops the proof within a second (its kernels run no Python signal handler)
    started = time.monotonic()
    cert = make(build(game_spec("mastermind"), {"length": pegs, "colours": colours}, colours_up_to=PROOF_COLOURS))
    with open(args.out, "wb") as f:
        np.savez_compressed(f, **cert._asdict())
    print(
        f"Mastermind {pegs}x{colours}: optimal total {cert.total:,}, proved in {time.monotonic() - started:.1f} s; "
        f"its certificate ({len(cert.sizes):,} claims) written to {args.out}; check it with "
        f"python -m tests.certify.checker {args.out}"
    )
    return 0


# The site's commands by name: what adds each one's arguments and what runs it (its help is the command line's, so
# that `coin-puzzles --help` does not import this module)
site_commands: dict[str, tuple[Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]] = {
    "serve": (serve_arguments, serve),
    "worker": (worker_arguments, worker),
    "proxy-config": (proxy.proxy_config_arguments, proxy.proxy_config),
    "rotate-key": (rotate_key_arguments, rotate_key),
    "precompute": (precompute_arguments, precompute),
    "artifacts": (artifacts_arguments, artifacts),
    "certify": (certify_arguments, certify),
    "warm-up": (warm_up_arguments, warm_up),
}

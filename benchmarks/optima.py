"""The table of proved Mastermind optima, size by size, with how long each proof took (one process, the search's
own parallel first guesses on every core for 2,000 secrets and more).

Each size: the optimal-average search, its tree verified on every secret, and the optimal-worst search, as the
site's jobs run them (`build_tree`), each row saved as soon as it is proved, so a run cut short keeps what it
proved; sizes already recorded are skipped unless --again. Within a size, every part of a first guess settled by
the average search is kept in `benchmarks/checkpoints/` (not in git), so a run stopped part-way resumes from its
settled parts; the file is removed once the size is recorded. Its entries are keyed by the search's set
fingerprints: a change to how the search fingerprints or costs a set must delete the files.

A proof longer than a working session (4x9, 5x6) carries its progress to the next clone through a snapshot in git
(`--snapshot`, into `webapp/data/proofs/`): the entries of the sets that cost at least SNAPSHOT_MIN_COST guesses
(about 2% of the entries, every set of more than a dozen secrets), merged with the snapshot before; the smaller
sets below them are searched again in seconds. A run reads the snapshot beside its own file. A snapshot stays within
SNAPSHOT_BUDGET bytes (the costliest sets kept past it), and `make frontier` adds each run's CPU seconds to a record
beside it (`<name>.runs.json`), which `--status` sums beside the whole proof's projection (`benchmarks/growth.py`).

    python benchmarks/optima.py [--up-to 8000] [--again]
    python benchmarks/optima.py --size 4x8                     # one size proved again
    python benchmarks/optima.py --size 4x8 --max-guesses 6     # one size's optimal average within a cap
    python benchmarks/optima.py --snapshot                     # before a session ends: its progress into git
    python benchmarks/optima.py --possible-only [--up-to N]    # the optima guessing possible codes only
    python benchmarks/optima.py --super                        # Super Mastermind 5x8 guessing possible codes only
    python benchmarks/optima.py --super --under 179930         # ... looking only below the published figure + 1
    python benchmarks/optima.py --status 5x6                   # where a proof stands (or --status super)
    python benchmarks/optima.py --second-free super            # possible codes only except the second guess
    python benchmarks/optima.py --frontier                     # make frontier: 3x15, 3x16, 4x10, resumable
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import resource
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.record import FOLDER, Record  # noqa: E402
from solvers.checkpoint import Entry, Frame  # noqa: E402
from solvers.codebreak import Game, Node, Proving, build, build_tree, parse, verify  # noqa: E402
from solvers.codebreak.optima import OPTIMA_MAX_SECRETS, cell, sizes  # noqa: E402
from solvers.codebreak.optimal.average_search import KEEP_MIN_COST, AverageSearch, NoneBelow  # noqa: E402
from solvers.codebreak.optimal.entries import format_entries, parse_entries, snapshot_name  # noqa: E402
from solvers.codebreak.optimal.table import Tuning  # noqa: E402
from solvers.codebreak.strategy import Strategy, guesses_possible_codes  # noqa: E402
from solvers.errors import (
    LimitError,  # noqa: E402
    Paused,  # noqa: E402
)
from solvers.parallel import Execution, default_jobs  # noqa: E402
from webapp.results.halting import halt_on_signals  # noqa: E402

GAME = Path(__file__).resolve().parents[1] / "games" / "mastermind.game"
SUPER = GAME.with_name("super-mastermind.game")
SUPER_PUBLISHED = 179_929  # supermastermind.github.io/playonline/optimal_strategy.html: possible codes only, worst 8
CHECKPOINTS = Path(__file__).resolve().parent / "checkpoints"
SNAPSHOTS = Path(__file__).resolve().parents[1] / "webapp" / "data" / "proofs"
LONG = 10**12  # the search's budget of work: none to speak of (the default budgets are for a visitor's jobs)
HEURISTIC_BOUND_FROM = 4000  # secrets: the table's proofs this large search below the best heuristic tree's total
# the heuristics whose trees give that bound (seconds each)
HEURISTIC_BOUND_BY: tuple[Strategy, ...] = ("expected", "entropy")
SUPER_SNAPSHOT_MIN_COST = 1000  # guesses: the sets Super Mastermind's snapshot keeps (see FileCheckpoint)
# 50 guesses: the sets a snapshot and a checkpoint keep (a set of n secrets costs at least 2n - 1): the smaller sets
# below them are searched again in seconds (Super Mastermind's proof kept 16 million entries, 857 MB, in its first 7
# minutes; 259,000 of them cost 50 or more)
SNAPSHOT_MIN_COST = KEEP_MIN_COST
SNAPSHOT_BUDGET = 4 << 20  # bytes, compressed: a size's snapshot in git at most (git keeps every committed version,
# so each session's refresh adds its size to every clone); past it, only the costliest sets are kept (the search
# settles the cheaper ones again, the largest of them first, as it goes)


class FileCheckpoint:
    """A proof's settled parts in a file, one line of table entries per part (appended and flushed as each part
    is settled), and its snapshot in git (`snapshot`)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.snapshot = SNAPSHOTS / f"{path.stem}.jsonl.gz"
        self.frames = path.with_suffix(".frames.json")  # where a stopped run's parts stood (`pause`) ...
        self.snapshot_frames = SNAPSHOTS / self.frames.name  # ... and as the snapshot in git keeps them
        # Super Mastermind's proof settles far more sets: its snapshot keeps the parts of the first guesses and
        # the largest below them (1.7 million sets cost 50 or more after 80 minutes, 4,493 cost 1,000 or more)
        self.snapshot_min = SUPER_SNAPSHOT_MIN_COST if path.stem.startswith("super") else SNAPSHOT_MIN_COST

    def known(self) -> list[Entry]:
        """The entries of every part kept so far, the snapshot's first."""
        out = parse_entries(gzip.decompress(self.snapshot.read_bytes()).decode()) if self.snapshot.exists() else []
        return out + (parse_entries(self.path.read_text()) if self.path.exists() else [])

    def save_snapshot(self, budget: int = SNAPSHOT_BUDGET) -> int:
        """Write the snapshot: its entries and this run's of at least `snapshot_min`, one per set, within budget
        bytes compressed (the costliest sets kept when all do not fit); how many sets."""
        entries = sorted(
            {(e[0], e[1]): e for e in self.known() if e[2] >= self.snapshot_min}.values(), key=lambda e: -e[2]
        )
        data, keep = gzip.compress(format_entries(entries).encode(), mtime=0), len(entries)
        while len(data) > budget and keep > 1:
            keep = int(keep * budget / len(data) * 0.95)  # compressed size grows about in step with the entries
            data = gzip.compress(format_entries(entries[:keep]).encode(), mtime=0)
        self.snapshot.parent.mkdir(parents=True, exist_ok=True)
        self.snapshot.write_bytes(data)
        if self.frames.exists():
            self.snapshot_frames.write_text(self.frames.read_text())
        return keep

    def paused(self) -> list[Frame]:
        """Where the parts of the last stopped run stood: this clone's, else the snapshot's."""
        for path in (self.frames, self.snapshot_frames):
            if path.exists():
                return [tuple(int(x) for x in f) for f in json.loads(path.read_text())]
        return []

    def pause(self, frames: list[Frame]) -> None:
        """Keep where the running parts stood at a stop (written whole, then moved into place)."""
        self.frames.parent.mkdir(parents=True, exist_ok=True)
        partial = self.frames.with_suffix(".partial")
        partial.write_text(json.dumps([list(f) for f in frames]))
        partial.replace(self.frames)

    def finish(self) -> None:
        """The proof is done: the local file goes. A snapshot in git (a proof of more than one session) stays,
        refreshed with this run's entries: `make precompute` resumes the site's own proof from it (minutes, where
        the proof took sessions)."""
        if self.snapshot.exists():
            self.save_snapshot()
        self.path.unlink(missing_ok=True)
        self.frames.unlink(missing_ok=True)
        self.snapshot_frames.unlink(missing_ok=True)

    def compact(self) -> None:
        """Rewrite the file with one entry per set, of the sets a checkpoint keeps (files written before they
        were filtered held every set)."""
        if self.path.exists():
            text = format_entries(e for e in parse_entries(self.path.read_text()) if e[2] >= SNAPSHOT_MIN_COST)
            partial = self.path.with_suffix(".partial")
            partial.write_text(text)
            partial.replace(self.path)

    def keep(self, entries: list[Entry]) -> None:
        """Append one settled part's entries (of the sets that cost at least SNAPSHOT_MIN_COST)."""
        kept = [e for e in entries if e[2] >= SNAPSHOT_MIN_COST]
        if not kept:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a") as f:
            f.write(json.dumps(kept) + "\n")
            f.flush()
            os.fsync(f.fileno())


def progress() -> Callable[[int, int], None]:
    """A tick printing the search's progress into the run's log, at most once a minute."""
    last = [0.0]

    def tick(done: int, total: int) -> None:
        if time.perf_counter() - last[0] >= 60:
            last[0] = time.perf_counter()
            print(f"{time.strftime('%H:%M:%S')} {done:,} of {total:,} secrets x first guesses settled", flush=True)

    return tick


def peaks() -> str:
    """The peak resident memory of this process and of its largest worker process (the search's, on every core,
    forked from this one: the pages they share, the outcome table's among them, count in both figures)."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return f"peak RSS {own:,.0f} MB" + (
        f" (largest worker {workers:,.0f} MB, shared pages included)" if workers else ""
    )


def proved_tree(g: Game, checkpoint: FileCheckpoint, possible_only: bool = False, under: int | None = None) -> Node:
    """The optimal-average tree, proved on every core with the checkpoint, looking only below under when given
    (NoneBelow: no strategy is)."""
    return build_tree(
        g,
        "optimal-average",
        progress(),
        checkpoint=checkpoint,
        possible_only=possible_only,
        proving=Proving(node_limit=LONG, under=under, run=Execution(default_jobs()), any_size=True),
    )


def heuristic_bound(g: Game) -> int:
    """One more than the least total of the heuristics' trees, each verified: a total some strategy reaches, so the
    optimum lies below it, and a search told so cuts worse first guesses off from the start."""
    return 1 + min(verify(g, build_tree(g, h)).total for h in HEURISTIC_BOUND_BY)


def task(pegs: int, colours: int) -> str:
    """A size's row name."""
    return f"Mastermind {pegs}x{colours} ({colours**pegs:,} secrets): optimal average and optimal worst case, proved"


FRONTIER_SIZES = ((3, 15), (3, 16), (4, 10))  # the next sizes past the table, smallest first: proved nowhere we
# know of (3x15 took 5 CPU minutes with its certificate's log, 4x10 is projected at hours: benchmarks/growth.py)


def prove_size(record: Record, pegs: int, colours: int) -> None:
    """One size: its optimal average proved with its checkpoint (resumed from it and from its snapshot in git, when
    there is one), its tree verified, its least worst case; recorded at once, and its local checkpoint removed."""
    spec = parse(GAME.read_text())
    g = build(spec, {"length": pegs, "colours": colours}, colours_up_to=max(colours, 10)).tabled()
    checkpoint = FileCheckpoint(CHECKPOINTS / f"{snapshot_name('mastermind', pegs, colours, False)}.jsonl")
    checkpoint.compact()
    resumed = len(checkpoint.known())
    t = time.perf_counter()
    under = heuristic_bound(g) if len(g.secrets) >= HEURISTIC_BOUND_FROM else None
    print(
        f"{time.strftime('%H:%M:%S')} Mastermind {pegs}x{colours}: {resumed:,} table entries resumed"
        + (f", searching below {under:,} (the best heuristic tree's total plus one)" if under else ""),
        flush=True,
    )
    tree = proved_tree(g, checkpoint, under=under)
    average = time.perf_counter() - t
    st = verify(g, tree)
    t = time.perf_counter()
    worst = verify(g, build_tree(g, "optimal-worst", proving=Proving(node_limit=LONG, any_size=True)))
    took = time.perf_counter() - t
    c = cell(pegs, colours, (tree.experiment, st), worst)
    verdict = {True: "agrees with", False: "DISAGREES with", None: "published as"}[c.agrees]
    known = "new" if c.published is None else f"{verdict} {c.published_value}: {c.published}"
    record.row(
        task(pegs, colours),
        f"total {c.total:,} (average {c.average}, worst {c.worst_of_average}, first guess {c.first_guess}) in "
        f"{average:.1f} s; least worst case {c.optimal_worst} in {took:.1f} s; {peaks()} so far; "
        f"{known}" + (f"; resumed from {resumed:,} checkpointed table entries" if resumed else ""),
    )
    record.save()  # each size as soon as it is proved
    checkpoint.finish()


HEARTBEAT_SECONDS = 600  # how often a long proof of make frontier says that it goes on, and where it stands


def heartbeat(name: str, pegs: int, colours: int, before: float) -> threading.Event:
    """A thread printing, every HEARTBEAT_SECONDS until the event returned is set, the CPU time this run has spent
    (from before), the size's whole spend and projection (`spent_and_left`) and the sets its checkpoint holds: a
    proof's first part can take hours without a part settling, which is when `progress` speaks."""
    done = threading.Event()
    local = CHECKPOINTS / f"{name}.jsonl"

    def beat() -> None:
        while not done.wait(HEARTBEAT_SECONDS):
            kept = len(parse_entries(local.read_text())) if local.exists() else 0
            print(
                f"{time.strftime('%H:%M:%S')} {pegs}x{colours} goes on: {kept:,} sets settled into its checkpoint "
                f"this run; {spent_and_left(name, pegs, colours, cpu_seconds() - before)}",
                flush=True,
            )

    threading.Thread(target=beat, daemon=True).start()
    return done


def cpu_seconds() -> float:
    """The CPU seconds of this process, of its workers that ended, and of those still running (read from /proc
    where there is one): the heartbeat and a stop's record counted only the first two, so a proof's workers
    showed 1 minute after 80 of theirs."""
    own, workers = (resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    running, me, tick = 0.0, str(os.getpid()), os.sysconf("SC_CLK_TCK")
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()  # state, ppid, ..., utime (11), stime (12)
        except (OSError, IndexError):
            continue
        if fields[1] == me:
            running += (int(fields[11]) + int(fields[12])) / tick
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime + running


def note_run(name: str, seconds: float, how: str) -> None:
    """Add a run of a long proof to its record beside its snapshot in git (`<name>.runs.json`), so that a later
    clone knows the CPU time it has cost so far."""
    path = SNAPSHOTS / f"{name}.runs.json"
    runs = json.loads(path.read_text()) if path.exists() else []
    runs.append({"date": time.strftime("%Y-%m-%d"), "cpu_seconds": round(seconds), "how": how})
    path.write_text(json.dumps(runs, indent=1) + "\n")


def frontier(record: Record) -> None:
    """`make frontier`: the sizes past the table (FRONTIER_SIZES), each a long proof resumed from its checkpoint and
    its snapshot in git, in order; sizes already recorded are skipped. Stopped (Ctrl+C, or SIGTERM as a session's
    end sends), it keeps its progress in the snapshot (`webapp/data/proofs/`) before it exits, so that the next run,
    here or in a later clone once the snapshot is committed, goes on from there. `--status PxC` says where a proof
    stands: each first guess's least possible total, from its settled parts."""
    halt_on_signals()  # a stop halts the proof where it stands (`webapp.results.halting`)
    if os.getpriority(os.PRIO_PROCESS, 0) > 0:  # started niced, as docs/operations.md says: its session's group too
        from webapp.commands.admin import lowest_priority

        lowest_priority(os.getpriority(os.PRIO_PROCESS, 0), session=True)  # started with setsid, as documented
    path = FOLDER / "optima.json"
    done = {r["task"] for r in json.loads(path.read_text())} if path.exists() else set()
    for pegs, colours in FRONTIER_SIZES:
        if task(pegs, colours) in done:
            continue
        name = snapshot_name("mastermind", pegs, colours, False)
        before = cpu_seconds()
        beat = heartbeat(name, pegs, colours, before)
        try:
            prove_size(record, pegs, colours)
        except (KeyboardInterrupt, Paused):
            kept = FileCheckpoint(CHECKPOINTS / f"{name}.jsonl").save_snapshot()
            note_run(name, cpu_seconds() - before, "stopped")
            paused = len(FileCheckpoint(CHECKPOINTS / f"{name}.jsonl").paused())
            print(
                f"{time.strftime('%H:%M:%S')} stopped: {name}'s progress kept in its snapshot ({kept:,} entries, "
                f"{paused} part(s) kept where they stood)",
                flush=True,
            )
            return
        finally:
            beat.set()
        note_run(name, cpu_seconds() - before, "proved")


def main() -> None:
    """Prove each size not yet recorded, smallest first."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--up-to", type=int, default=OPTIMA_MAX_SECRETS)
    parser.add_argument("--again", action="store_true")
    parser.add_argument("--size", help="PxC: one size (proved again), or with --max-guesses its capped optimum")
    parser.add_argument("--max-guesses", type=int)
    parser.add_argument("--snapshot", action="store_true", help="keep the checkpoints' progress in git")
    parser.add_argument("--frontier", action="store_true", help="the sizes past the table, resumable (make frontier)")
    parser.add_argument("--possible-only", action="store_true", help="the optima guessing possible codes only")
    parser.add_argument("--average-only", action="store_true", help="with --possible-only: leave out the worst case")
    parser.add_argument("--super", action="store_true", help="Super Mastermind 5x8 guessing possible codes only")
    parser.add_argument("--under", type=int, help="with --super: look only below this total (proved if none is)")
    parser.add_argument("--status", metavar="PxC|super", help="where a proof stands, from its checkpoint")
    parser.add_argument("--second-free", metavar="PxC|super", help="possible codes only but the second guess")
    parser.add_argument(
        "--site-job", metavar="PxC|super", help="time make precompute's jobs for a long proof, from its snapshot"
    )
    args = parser.parse_args()
    if args.status:
        status(args.status)
        return
    if args.site_job:
        site_job(args.site_job)
        return
    if args.super:
        super_possible_only(args.under)
        return
    if args.second_free:
        second_free_run(args.second_free)
        return
    if args.snapshot:
        for path in sorted(CHECKPOINTS.glob("*.jsonl")):
            if "polish" in path.stem:
                continue  # benchmarks/polish.py's nodes, not table entries
            print(f"{path.stem}: {FileCheckpoint(path).save_snapshot():,} entries in the snapshot")
        return
    if args.possible_only:
        possible_only(args.up_to, args.again, not args.average_only)
        return
    record = Record("optima")
    if args.size and args.max_guesses:
        pegs, colours = (int(x) for x in args.size.split("x"))
        capped(record, pegs, colours, args.max_guesses)
        return
    if args.frontier:
        frontier(record)
        return
    path = FOLDER / "optima.json"
    done = {r["task"] for r in json.loads(path.read_text())} if path.exists() and not args.again else set()
    chosen = [tuple(int(x) for x in args.size.split("x"))] if args.size else sizes(args.up_to)
    for pegs, colours in chosen:
        if task(pegs, colours) in done and not args.size:
            continue
        prove_size(record, pegs, colours)


def possible_only(up_to: int, again: bool, worst_case: bool = True) -> None:
    """Each size's optimal average and optimal worst case among the strategies guessing only codes still possible,
    proved, the average's tree verified and checked to guess only possible codes; beside the unrestricted optimum
    where the table has it."""
    record = Record("optima-possible")
    path = FOLDER / "optima-possible.json"
    done = {r["task"] for r in json.loads(path.read_text())} if path.exists() and not again else set()
    free = {r["task"]: r["ours"] for r in json.loads((FOLDER / "optima.json").read_text())}
    for pegs, colours in sizes(up_to):
        name = f"Mastermind {pegs}x{colours} ({colours**pegs:,} secrets), guessing possible codes only: proved"
        if name in done:
            continue
        g = build(parse(GAME.read_text()), {"length": pegs, "colours": colours})
        t = time.perf_counter()
        tree = build_tree(g, "optimal-average", possible_only=True, proving=Proving(node_limit=LONG))
        average = time.perf_counter() - t
        st = verify(g, tree)
        assert st.verified and guesses_possible_codes(g, tree)
        t = time.perf_counter()
        try:
            if not worst_case:
                raise LimitError("not searched: left out (--average-only)")
            worst_tree = build_tree(g, "optimal-worst", possible_only=True)
            worst = verify(g, worst_tree)
            assert worst.verified and guesses_possible_codes(g, worst_tree)
            least = f"{worst.worst}"
        except LimitError as stopped:  # the counting test one deeper is weak here: past the search's budget
            why = str(stopped)
            least = why if not worst_case else f"not settled within the search's budget ({why.rsplit(': ', 1)[-1]})"
        took = time.perf_counter() - t
        unrestricted = free.get(task(pegs, colours), "").split(" (")[0].removeprefix("total ")
        first = g.experiments[tree.experiment or 0]
        record.row(
            name,
            f"total {st.total:,} (average {st.total / st.secrets:.6f}, worst {st.worst}, first guess {first}) in "
            f"{average:.1f} s; least worst case {least} in {took:.1f} s"
            + (f"; the unrestricted optimum: {unrestricted}" if unrestricted else ""),
        )
        record.save()


def super_possible_only(under: int | None) -> None:
    """Super Mastermind (5 pegs, 8 colours) guessing possible codes only: the optimal average proved on every core,
    its settled parts checkpointed (a stopped run resumes), the tree verified on all 32,768 secrets and checked to
    guess only possible codes, beside the published optimum. under: look only below this total (the published
    figure plus one cuts the first guesses that cannot reach it off from the start); if none is below, that is
    what is recorded, proved."""
    record = Record("optima-possible")
    g = build(parse(SUPER.read_text())).tabled()
    checkpoint = FileCheckpoint(CHECKPOINTS / f"{snapshot_name('super-mastermind', None, None, True)}.jsonl")
    checkpoint.compact()
    resumed = len(checkpoint.known())
    name = "Super Mastermind 5x8 (32,768 secrets), guessing possible codes only: proved"
    how = (f"searched below {under:,}; " if under is not None else "") + (
        f"resumed from {resumed:,} checkpointed table entries" if resumed else "from scratch"
    )
    t = time.perf_counter()
    try:
        tree = proved_tree(g, checkpoint, possible_only=True, under=under)
    except NoneBelow as none:
        record.row(name, f"{none} in {time.perf_counter() - t:.1f} s ({how}); published: {SUPER_PUBLISHED:,}")
        record.save()
        return
    took = time.perf_counter() - t
    st = verify(g, tree, possible_only=True)
    assert st.verified
    verdict = "agrees with" if st.total == SUPER_PUBLISHED else "DISAGREES with"
    record.row(
        name,
        f"total {st.total:,} (average {st.total / st.secrets:.6f}, worst {st.worst}, first guess "
        f"{g.experiments[tree.experiment or 0]}) in {took:.1f} s, {peaks()} ({how}); {verdict} the "
        f"published {SUPER_PUBLISHED:,} (supermastermind.github.io)",
    )
    record.save()
    checkpoint.finish()


SECOND_FREE_PUBLISHED = {"super": 179_274, "4x6": 5_636}  # the supermastermind site (as issue 66 quotes it)


def second_free_run(size: str) -> None:
    """Mastermind PxC or Super Mastermind guessing possible codes only from the third guess on, any code second
    (`second_free`), proved, its tree verified; Super Mastermind's possible-only sets below the second guesses
    checkpointed with its possible-codes-only proof's (the same sets: read back from its snapshot, kept as they
    settle)."""
    from solvers.codebreak.optimal.second_free import second_free

    record = Record("optima-possible")
    if size == "super":
        g, label = build(parse(SUPER.read_text())).tabled(), "Super Mastermind 5x8 (32,768 secrets)"
        checkpoint: FileCheckpoint | None = FileCheckpoint(
            CHECKPOINTS / f"{snapshot_name('super-mastermind', None, None, True)}.jsonl"
        )
    else:
        pegs, colours = (int(x) for x in size.split("x"))
        g = build(parse(GAME.read_text()), {"length": pegs, "colours": colours}).tabled()
        label, checkpoint = f"Mastermind {pegs}x{colours} ({colours**pegs:,} secrets)", None
    t = time.perf_counter()

    def told(i: int, n: int) -> None:
        print(f"{time.strftime('%H:%M:%S')} {i} of {n} first guesses settled", flush=True)

    found = second_free(g, Tuning(node_limit=LONG), told, checkpoint)
    published = SECOND_FREE_PUBLISHED.get(size)
    verdict = (
        ""
        if published is None
        else (
            f"; {'agrees with' if found.total == published else 'DISAGREES with'} the published {published:,} "
            "(supermastermind.github.io)"
        )
    )
    record.row(
        f"{label}, possible codes only from the third guess on (any code second): proved",
        f"total {found.total:,} (average {found.total / found.stats.secrets:.6f}, worst {found.stats.worst}, first "
        f"guess {g.experiments[found.first]}) in {time.perf_counter() - t:.1f} s, {peaks()}{verdict}",
    )
    record.save()


def recorded(size: str) -> tuple[int, int | None]:
    """The optimal total (and least worst case) the benchmark's own proof of a size recorded: Super Mastermind's is
    the published total it agreed with."""
    if size == "super":
        return SUPER_PUBLISHED, None
    pegs, colours = (int(x) for x in size.split("x"))
    ours = {r["task"]: r["ours"] for r in json.loads((FOLDER / "optima.json").read_text())}[task(pegs, colours)]
    found = re.search(r"total ([\d,]+) .*least worst case (\d+)", ours)
    assert found, ours
    return int(found[1].replace(",", "")), int(found[2])


def site_job(size: str) -> None:
    """The jobs `make precompute` runs for a long proof (webapp.results.codebreak_results.CODEBREAK, in this process on
    every core as the job process runs it), timed from the snapshot in git alone: outside a job there is no store
    checkpoint, so nothing of an earlier job's is reused. Mastermind's sizes: the optimal average (which starts
    from the snapshot) and the least worst case (which has none); Super Mastermind: the optimal average guessing
    possible codes only. Each job verifies its tree; the totals are checked here against those the benchmark's
    proof recorded (`recorded`)."""
    from webapp.results.codebreak_results import CODEBREAK, StrategyParams, codebreak_params, shipped_entries

    total, least = recorded(size)
    if size == "super":
        params = codebreak_params("super-mastermind", (None, None, None), "optimal-average", possible_only=True)
        jobs: list[tuple[StrategyParams, str, int | None]] = [(params, "", total)]
        name = "Super Mastermind 5x8 (32,768 secrets) guessing possible codes only"
    else:
        pegs, colours = (int(x) for x in size.split("x"))
        jobs = [
            (codebreak_params("mastermind", (pegs, colours, None), "optimal-average"), "optimal average: ", total),
            (codebreak_params("mastermind", (pegs, colours, None), "optimal-worst"), "least worst case: ", least),
        ]
        name = f"Mastermind {pegs}x{colours} ({colours**pegs:,} secrets)"
    figures = []
    for params, what, expected in jobs:
        shipped = len(shipped_entries(params)) if params.strategy == "optimal-average" else 0
        t = time.perf_counter()
        _, st = CODEBREAK.run(params, progress())
        took = time.perf_counter() - t
        found = st.total if params.strategy == "optimal-average" else st.worst
        assert st.verified and found == expected, (found, expected)
        start = f"from {shipped:,} snapshot entries" if shipped else "from nothing"
        figures.append(f"{what}total {st.total:,} (worst {st.worst}) in {took:.1f} s {start}")
        print(figures[-1], flush=True)
    record = Record("optima-site")
    record.row(f"{name}: make precompute's jobs, from the snapshot in git", "; ".join(figures) + f"; {peaks()}")
    record.save()


def status(size: str) -> None:
    """Where a proof stands, read from its checkpoint and snapshot (the run may go on meanwhile): each first guess
    in the order the search tries them, the least total it can still have, and its parts, settled or bounded (parts
    costing under KEEP_MIN_COST are never kept: a run searches them again in seconds)."""
    if size == "super":
        g, name, only = (
            build(parse(SUPER.read_text())).tabled(),
            snapshot_name("super-mastermind", None, None, True),
            True,
        )
    else:
        pegs, colours = (int(x) for x in size.split("x"))
        g = build(parse(GAME.read_text()), {"length": pegs, "colours": colours}, colours_up_to=max(colours, 10))
        g = g.tabled()
        name, only = snapshot_name("mastermind", pegs, colours, False), False
    search = AverageSearch(
        g, Tuning(node_limit=LONG), checkpoint=FileCheckpoint(CHECKPOINTS / f"{name}.jsonl"), possible_only=only
    )
    stands = search.standing()
    for e, total, parts in stands:
        settled = sum(1 for _, _, done in parts if done)
        still = ", ".join(f"{n} >= {c:,}" for n, c, done in parts if not done)
        print(
            f"{g.experiments[e]}: at least {total:,}; {settled} of {len(parts)} parts settled"
            + (f"; open: {still}" if still else ""),
            flush=True,
        )
    low, high = between(stands, heuristic_bound(g) - 1)
    print(
        f"the optimum lies between {low:,} and {high:,} (averages {low / len(g.secrets):.4f} to "
        f"{high / len(g.secrets):.4f}): a gap of {high - low:,} guesses, {100 * (high - low) / high:.1f}% of the "
        "upper bound (the best heuristic tree, or a first guess settled)",
        flush=True,
    )
    if size != "super":
        print(spent_and_left(name, pegs, colours))


def between(stands: list[tuple[int, int, list[tuple[int, int, bool]]]], tree: int) -> tuple[int, int]:
    """Where the optimum lies, (low, high): at least the least of every first guess's bound
    (`AverageSearch.standing`: each one's parts, settled or bounded), at most the best verified heuristic tree's
    total (tree) or that of a first guess whose parts are all settled."""
    low = min(total for _, total, _ in stands)
    return low, min([tree] + [total for _, total, parts in stands if all(done for _, _, done in parts)])


def spent_and_left(name: str, pegs: int, colours: int, running: float = 0.0) -> str:
    """The CPU time a long proof has cost so far (its runs' record in git, and running: the CPU seconds of a run
    going on) and what the growth of the certified sizes projects for the whole (`benchmarks/growth.py`): an
    estimate, not a bound."""
    from benchmarks.growth import fit, hours, measured

    path = SNAPSHOTS / f"{name}.runs.json"
    runs = json.loads(path.read_text()) if path.exists() else []
    spent = sum(r["cpu_seconds"] for r in runs) + running
    points = measured()
    f = fit({pc: s for pc, s in points.items() if pc[0] == pegs})
    line = f"CPU so far: {hours(spent)} in {len(runs)} run{'' if len(runs) == 1 else 's'}" + (
        f" and this one ({hours(running)})" if running else ""
    )
    if f is None:
        return line + "; no growth measured to project from"
    whole = f.seconds(colours**pegs)
    left = f"about {hours(whole - spent)} left" if whole > spent else "past the projection (it was low)"
    sizes = ", ".join(f"{p}x{c}" for p, c in f.sizes)
    return f"{line}; projected whole proof {hours(whole)} on one process (n^{f.power:.2f} through {sizes}): {left}"


def capped(record: Record, pegs: int, colours: int, cap: int) -> None:
    """One size's optimal average within cap guesses, proved, its tree verified."""
    g = build(parse(GAME.read_text()), {"length": pegs, "colours": colours})
    t = time.perf_counter()
    st = verify(g, build_tree(g, "optimal-average", max_guesses=cap))
    took = time.perf_counter() - t
    assert st.verified and st.worst <= cap
    record.row(
        f"Mastermind {pegs}x{colours} ({colours**pegs:,} secrets): optimal average within {cap} guesses, proved",
        f"total {st.total:,} (average {st.total / st.secrets:.6f}, worst {st.worst}) in {took:.1f} s",
    )
    record.save()


if __name__ == "__main__":
    main()

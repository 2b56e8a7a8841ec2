"""`make frontier`'s runner: the Mastermind sizes past the optima table (FRONTIER_SIZES), each a proof of hours
or days resumed across runs and clones, on every core at the lowest priority, and what it keeps.

Within a size, every set settled by the average search (costing at least SNAPSHOT_MIN_COST guesses) is appended to
a local file in CHECKPOINTS (not in git), so a run stopped part-way resumes from its settled sets; a stop asked for
(SIGTERM, Ctrl+C) also keeps where each running part stood (`<name>.frames.json`: the kernel's frames, `rules.Frames`).
Its entries are keyed by the search's set fingerprints: a change to how the search fingerprints or costs a set must
delete the files.

A proof longer than a working session carries its progress to the next clone through a snapshot in git
(`webapp/data/proofs/`): the entries of the sets that cost at least SNAPSHOT_MIN_COST guesses, merged with the
snapshot before (the smaller sets below them are searched again in seconds), within SNAPSHOT_BUDGET bytes (the
costliest sets kept past it), the frames beside it, and each run's CPU seconds (`<name>.runs.json`), which `--status`
sums beside the whole proof's projection (`Fit`: a power law fitted to the certified sizes' proofs).

    python -m webapp.commands.frontier                  # make frontier: 3x15, 3x16, 4x10 in turn, resumable
    python -m webapp.commands.frontier --status 4x10    # where a proof stands: the gap between its bounds
    python -m webapp.commands.frontier --snapshot       # every local checkpoint's progress into its snapshot

docs/operations.md says how it runs beside other work (started at nice 19, paused during benchmarks, stopped and
committed before a session ends). `benchmarks/optima.py` times the table's sizes with the same files.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import re
import resource
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from solvers.checkpoint import Entry, Frame
from solvers.codebreak import Game, Node, Proving, build, build_tree, verify
from solvers.codebreak.optima import cell
from solvers.codebreak.optimal.average_search import KEEP_MIN_COST, AverageSearch
from solvers.codebreak.optimal.entries import format_entries, parse_entries, snapshot_name
from solvers.codebreak.optimal.rules import SECOND_FREE
from solvers.codebreak.optimal.table import Tuning
from solvers.codebreak.strategy import Strategy
from solvers.errors import Paused
from solvers.parallel import Execution, default_jobs
from webapp.commands.admin import niced_session
from webapp.config import ROOT
from webapp.jobs.halting import halt_on_signals, stops_ignored
from webapp.jobs.shipped import MADE, write_tree
from webapp.results.codebreak_results import PROOFS
from webapp.results.games import game_spec

CHECKPOINTS = ROOT / ".proofs"  # the local files of the proofs under way (not in git); their snapshots: PROOFS
LONG = 10**12  # the search's budget of work: none to speak of (the default budgets are for a visitor's jobs)
HEURISTIC_BOUND_FROM = 4000  # secrets: the proofs this large search below the best heuristic tree's total
HEURISTIC_BOUND_BY: tuple[Strategy, ...] = ("expected", "entropy")  # the heuristics whose trees give it (seconds)
SUPER_SNAPSHOT_MIN_COST = 1000  # guesses: the sets Super Mastermind's snapshot keeps (see FileCheckpoint)
SNAPSHOT_MIN_COST = KEEP_MIN_COST  # 50 guesses: the sets kept (the smaller are searched again in seconds; Super
# Mastermind's proof kept 16 million entries, 857 MB, in its first 7 minutes; 259,000 of them cost 50 or more)
SNAPSHOT_BUDGET = 4 << 20  # bytes, compressed: a size's snapshot in git at most (git keeps every committed version,
# so each session's refresh adds its size to every clone); past it, only the costliest sets are kept (the search
# settles the cheaper ones again, the largest of them first, as it goes)
FRONTIER_SIZES = ((3, 15), (3, 16), (4, 10))  # the next sizes past the table, smallest first: proved nowhere we
# know of (3x15 took 5 CPU minutes with its certificate's log, 4x10 is projected at hours: `spent_and_left`)
MIN_SECONDS = 1.0  # certified proofs shorter than this are mostly start-up (the kernels' loading): not fitted


class FileCheckpoint:
    """A proof's settled parts in a file, one line of table entries per part (appended and flushed as each part
    is settled), and its snapshot in git (`snapshot`); seed: another proof's checkpoint, read first (a proof under
    another rule whose sets below its start are the same), never written."""

    def __init__(self, path: Path, seed: FileCheckpoint | None = None) -> None:
        self.path, self.seed = path, seed
        self.snapshot = PROOFS / f"{path.stem}.jsonl.gz"
        self.frames = path.with_suffix(".frames.json")  # where a stopped run's parts stood (`pause`) ...
        self.snapshot_frames = PROOFS / self.frames.name  # ... and as the snapshot in git keeps them
        # Super Mastermind's proof settles far more sets: its snapshot keeps the parts of the first guesses and
        # the largest below them (1.7 million sets cost 50 or more after 80 minutes, 4,493 cost 1,000 or more)
        self.snapshot_min = SUPER_SNAPSHOT_MIN_COST if path.stem.startswith("super") else SNAPSHOT_MIN_COST

    def known(self) -> list[Entry]:
        """The entries of every part kept so far, the seed's first, then the snapshot's."""
        return (self.seed.known() if self.seed else []) + self.own()

    def own(self) -> list[Entry]:
        """This proof's entries: its snapshot's, then its file's."""
        out = parse_entries(gzip.decompress(self.snapshot.read_bytes()).decode()) if self.snapshot.exists() else []
        return out + (parse_entries(self.path.read_text()) if self.path.exists() else [])

    def save_snapshot(self, budget: int = SNAPSHOT_BUDGET) -> int:
        """Write the snapshot: its entries and this run's of at least `snapshot_min`, one per set (not a brother's
        answer, choice < -1: `prove.settle`), within budget bytes compressed (the costliest kept); how many sets."""
        sets = {(e[0], e[1]): e for e in self.own() if e[2] >= self.snapshot_min and e[3] >= 0}
        entries = sorted(sets.values(), key=lambda e: -e[2])
        data, keep = gzip.compress(format_entries(entries).encode(), mtime=0), len(entries)
        while len(data) > budget and keep > 1:
            keep = int(keep * budget / len(data) * 0.95)  # compressed size grows about in step with the entries
            data = gzip.compress(format_entries(entries[:keep]).encode(), mtime=0)
        whole(self.snapshot, data)
        if self.frames.exists():
            whole(self.snapshot_frames, self.frames.read_bytes())
        return keep

    def paused(self) -> list[Frame]:
        """Where the parts of the last stopped run stood: this clone's, else the snapshot's."""
        for path in (self.frames, self.snapshot_frames):
            if path.exists():
                return [tuple(int(x) for x in f) for f in json.loads(path.read_text())]
        return []

    def pause(self, frames: list[Frame]) -> None:
        """Keep where the running parts stood at a stop (written whole, then moved into place)."""
        whole(self.frames, json.dumps([list(f) for f in frames]).encode())

    def finish(self) -> None:
        """The proof is done: the local file goes. A snapshot in git (a proof of more than one session) stays,
        refreshed with this run's entries: `make precompute` resumes the site's own proof from it (minutes, where
        the proof took sessions)."""
        if self.snapshot.exists():
            self.save_snapshot()
        for path in (self.path, self.frames, self.snapshot_frames):
            path.unlink(missing_ok=True)

    def compact(self) -> None:
        """Rewrite the file with one entry per set, of the sets a checkpoint keeps (files written before they
        were filtered held every set)."""
        if self.path.exists():
            text = format_entries(e for e in parse_entries(self.path.read_text()) if e[2] >= SNAPSHOT_MIN_COST)
            whole(self.path, text.encode())

    def keep(self, entries: list[Entry]) -> None:
        """Append one settled part's entries (of the sets that cost at least SNAPSHOT_MIN_COST)."""
        if kept := [e for e in entries if e[2] >= SNAPSHOT_MIN_COST]:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a") as f:
                f.write(json.dumps(kept) + "\n")
                f.flush()
                os.fsync(f.fileno())


def whole(path: Path, data: bytes) -> None:
    """Write a file whole, then move it into place: a process killed midway leaves the one before intact."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    partial.write_bytes(data)
    partial.replace(path)


def mastermind(pegs: int, colours: int) -> Game:
    """Mastermind with that many pegs and colours (past the site's ten colours, as a proof builds it), tabled."""
    return build(game_spec("mastermind"), {"length": pegs, "colours": colours}, colours_up_to=max(colours, 10)).tabled()


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
    largest = f" (largest worker {workers:,.0f} MB, shared pages included)" if workers else ""
    return f"peak RSS {own:,.0f} MB{largest}"


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


def prove(pegs: int, colours: int) -> str:
    """One size: its optimal average proved with its checkpoint (resumed from it and from its snapshot in git, when
    there is one), its tree verified, its least worst case; what was found, in a line, once its local checkpoint
    is removed."""
    g = mastermind(pegs, colours)
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
    write_tree(pegs, colours, g, tree, st.total)  # listed on /codebreak/optima, not certified (`optima.beyond`)
    t = time.perf_counter()
    worst = verify(g, build_tree(g, "optimal-worst", proving=Proving(node_limit=LONG, any_size=True)))
    took = time.perf_counter() - t
    c = cell(pegs, colours, (tree.experiment, st), worst)
    verdict = {True: "agrees with", False: "DISAGREES with", None: "published as"}[c.agrees]
    known = "new" if c.published is None else f"{verdict} {c.published_value}: {c.published}"
    checkpoint.finish()
    return (
        f"total {c.total:,} (average {c.average}, worst {c.worst_of_average}, first guess {c.first_guess}) in "
        f"{average:.1f} s; least worst case {c.optimal_worst} in {took:.1f} s; {peaks()} so far; "
        f"{known}" + (f"; resumed from {resumed:,} checkpointed table entries" if resumed else "")
    )


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
            print(f"{time.strftime('%H:%M:%S')} {pegs}x{colours} goes on: {kept:,} sets settled into its checkpoint "
                  f"this run; {spent_and_left(name, pegs, colours, cpu_seconds() - before)}", flush=True)  # fmt: skip

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
    path = PROOFS / f"{name}.runs.json"
    runs = json.loads(path.read_text()) if path.exists() else []
    runs.append({"date": time.strftime("%Y-%m-%d"), "cpu_seconds": round(seconds), "how": how})
    whole(path, (json.dumps(runs, indent=1) + "\n").encode())


def proved(name: str) -> bool:
    """Whether a size's last run proved it (its record of runs beside its snapshot in git)."""
    path = PROOFS / f"{name}.runs.json"
    runs = json.loads(path.read_text()) if path.exists() else []
    return bool(runs) and str(runs[-1]["how"]).startswith("proved")


def frontier() -> None:
    """`make frontier`: the sizes past the table (FRONTIER_SIZES), each a long proof resumed from its checkpoint and
    its snapshot in git, in order; sizes already proved are skipped. Stopped (Ctrl+C, or SIGTERM as a session's end
    sends), it keeps its progress in the snapshot (`webapp/data/proofs/`) before it exits, so that the next run,
    here or in a later clone once the snapshot is committed, goes on from there."""
    halt_on_signals()  # a stop halts the proof where it stands (`webapp.jobs.halting`)
    niced_session()
    for pegs, colours in FRONTIER_SIZES:
        name = snapshot_name("mastermind", pegs, colours, False)
        if proved(name):
            continue
        before = cpu_seconds()
        beat = heartbeat(name, pegs, colours, before)
        try:
            found = prove(pegs, colours)
        except (KeyboardInterrupt, Paused):
            return stopped(FileCheckpoint(CHECKPOINTS / f"{name}.jsonl"), before)
        finally:
            beat.set()
        print(f"{time.strftime('%H:%M:%S')} Mastermind {pegs}x{colours} proved: {found}", flush=True)
        note_run(name, cpu_seconds() - before, f"proved: {found}")


def stopped(checkpoint: FileCheckpoint, before: float) -> None:
    """A long proof stopped (SIGTERM, Ctrl+C): its progress into its snapshot and frames in git, and the CPU seconds
    of the run (since before) into its runs' record, for the next run here or in a later clone to go on from."""
    with stops_ignored():  # a stop asked again meanwhile (a session's end, Ctrl+C twice) would leave them apart
        note_run(checkpoint.path.stem, cpu_seconds() - before, "stopped")  # first: a large snapshot takes a while
        kept, name = checkpoint.save_snapshot(), checkpoint.path.stem
        print(f"{time.strftime('%H:%M:%S')} stopped: {name}'s progress kept in its snapshot ({kept:,} entries, "
              f"{sum(len(f) > 3 for f in checkpoint.paused())} part(s) kept where they stood)", flush=True)  # fmt: skip


def second_free_checkpoint() -> FileCheckpoint:
    """Super Mastermind's second-free proof's checkpoint, read after the possible-only proof's (`rules.SECOND_FREE`)."""
    seed = FileCheckpoint(CHECKPOINTS / f"{snapshot_name('super-mastermind', None, None, True)}.jsonl")
    return FileCheckpoint(CHECKPOINTS / "super-mastermind-second-free.jsonl", seed)


def status(size: str) -> None:
    """Where a proof stands, read from its checkpoint and snapshot (the run may go on meanwhile): each first guess
    in the order the search tries them, the least total it can still have, and its parts, settled or bounded (parts
    costing under KEEP_MIN_COST are never kept). Super Mastermind's proofs: the lower bound alone (the heuristics'
    trees break their rules)."""
    if size.startswith("super"):
        g, only = build(game_spec("super-mastermind")).tabled(), True
        name = snapshot_name("super-mastermind", None, None, True)
    else:
        pegs, colours = (int(x) for x in size.split("x"))
        g, name, only = mastermind(pegs, colours), snapshot_name("mastermind", pegs, colours, False), False
    free = size == "super-second-free"
    checkpoint = second_free_checkpoint() if free else FileCheckpoint(CHECKPOINTS / f"{name}.jsonl")
    search = AverageSearch(
        g, Tuning(node_limit=LONG), cap=SECOND_FREE if free else None, checkpoint=checkpoint, possible_only=only
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
    if only:
        print(f"the optimum is at least {min(total for _, total, _ in stands):,}", flush=True)
        return
    low, high = between(stands, heuristic_bound(g) - 1)
    print(
        f"the optimum lies between {low:,} and {high:,} (averages {low / len(g.secrets):.4f} to "
        f"{high / len(g.secrets):.4f}): a gap of {high - low:,} guesses, {100 * (high - low) / high:.1f}% of the "
        "upper bound (the best heuristic tree, or a first guess settled)",
        flush=True,
    )
    print(spent_and_left(name, pegs, colours))


def between(stands: list[tuple[int, int, list[tuple[int, int, bool]]]], tree: int) -> tuple[int, int]:
    """Where the optimum lies, (low, high): at least the least of every first guess's bound
    (`AverageSearch.standing`: each one's parts, settled or bounded), at most the best verified heuristic tree's
    total (tree) or that of a first guess whose parts are all settled."""
    low = min(total for _, total, _ in stands)
    return low, min([tree] + [total for _, total, parts in stands if all(done for _, _, done in parts)])


def spent_and_left(name: str, pegs: int, colours: int, running: float = 0.0) -> str:
    """The CPU time a long proof has cost so far (its runs' record in git, and running: the CPU seconds of a run
    going on) and what the growth of the certified sizes projects for the whole (`fit`, as `benchmarks/growth.py`
    tabulates it): an estimate, not a bound."""
    path = PROOFS / f"{name}.runs.json"
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


class Fit(NamedTuple):
    """CPU seconds = scale * secrets ** power, from the sizes named."""

    scale: float
    power: float
    sizes: tuple[tuple[int, int], ...]

    def seconds(self, secrets: int) -> float:
        return float(self.scale * secrets**self.power)


def measured() -> dict[tuple[int, int], float]:
    """(pegs, colours) -> the CPU seconds of its proof with the log on, where recorded."""
    out = {}
    for name, how in json.loads(MADE.read_text()).items():
        if how.get("proof_cpu_seconds") is not None:
            pegs, colours = (int(x) for x in re.findall(r"\d+", name))
            out[pegs, colours] = float(how["proof_cpu_seconds"])
    return out


def fit(points: dict[tuple[int, int], float]) -> Fit | None:
    """The power law through the three largest of points (at least two needed)."""
    chosen = sorted((p for p in points if points[p] >= MIN_SECONDS), key=lambda pc: pc[1] ** pc[0])[-3:]
    if len(chosen) < 2:
        return None
    xs = [math.log(c**p) for p, c in chosen]
    ys = [math.log(points[p, c]) for p, c in chosen]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    power = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)
    return Fit(math.exp(my - power * mx), power, tuple(chosen))


def hours(seconds: float) -> str:
    """Seconds as a short figure in hours (or minutes under one hour)."""
    return f"{seconds / 60:,.0f} min" if seconds < 3600 else f"{seconds / 3600:,.1f} h"


def main() -> None:
    """Run the frontier, or say where a proof stands, or snapshot every local checkpoint."""
    parser = argparse.ArgumentParser(
        prog="python -m webapp.commands.frontier",
        description="make frontier: the Mastermind sizes past the optima table, each a long proof resumed across runs",
    )
    parser.add_argument(
        "--status", metavar="PxC|super|super-second-free", help="where a proof stands, from its checkpoint"
    )
    parser.add_argument("--snapshot", action="store_true", help="every local checkpoint's progress into git")
    args = parser.parse_args()
    if args.status:
        status(args.status)
    elif args.snapshot:
        for path in sorted(CHECKPOINTS.glob("*.jsonl")):
            print(f"{path.stem}: {FileCheckpoint(path).save_snapshot():,} entries in the snapshot")
    else:
        frontier()


if __name__ == "__main__":
    main()

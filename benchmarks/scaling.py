"""How the optimal-average proof scales with processes, split all the way down (`optimal/prove.py`).

For each size, in a fresh process each (kernels loaded from the cache before the clock): the serial search (one
process), then the split search on two processes as it runs there (`table.split_size`). Each prints its wall time,
the CPU seconds of every process summed (the parent's and its workers'), and its work (the secrets of every set
searched). Then the split as it runs on many processes (every set of fewer than 200 secrets below a larger one handed
out), recorded on two; from its task log (each task's CPU seconds and the results the search read before it) it
simulates the same tasks on 4, 8, 16, 64 and 256 processes (`makespan`): each task, in the order handed out, on the
first process free, once every task it waited for is done. That replay counts neither the parent's own searches
(of the sets too large to hand out, again at each search from the start) nor how the schedule would choose on more
processes (a task counts as waiting for every result read before it was handed out, as the two processes ran), so
it is no bound either way. The clock simulation (`Virtual`, the row "simulated on a clock") runs the schedule
itself as if on N processes: each task runs here when handed out, its result comes back when it would end on N
processes, and the parent's own CPU seconds move the same clock, so the schedule waits, idles and searches from
the start as it would there. It assumes each task costs there what it cost here; a task's sets below its own are in
the table at once, so another task, or the parent itself, may read them sooner than on real processes, which
flatters it; and the parent runs beside the N (N + 1 processes in all).

With `--cluster`, instead, each size is proved on a Ray cluster of this machine's own (`COIN_PUZZLES_CLUSTER=local`,
`webapp/results/cluster.py`), beside the two forked processes, twice in turn: its wall time (Ray's start not
counted: the clock starts once the cluster is joined) and the CPU seconds of its tasks (Ray's workers are not this
process's children, so their whole CPU time is not counted), recorded apart (`cluster`).

Each proof runs ROUNDS times on one process and on two, in turn; the medians are kept, and the median of the rounds'
speed-ups. With `--against DIR` (a worktree of another commit: `git worktree add DIR 4b9619a`) the same proofs run
from that checkout too, round by round beside this one's, and its figures fill the baseline column.

Run with `python benchmarks/scaling.py` (about four minutes here; `--large` adds 4x8, about fifteen, `--only-large`
runs it alone; `--cluster` about two; `--clock` the clock simulation's rows alone, about five). Not part of
`make test`.
"""

from __future__ import annotations

import heapq
import json
import os
import subprocess
import sys
import time
from concurrent.futures import Future
from itertools import pairwise
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.record import Record  # noqa: E402
from solvers.codebreak.optimal.table import split_size  # noqa: E402
from solvers.parallel import Logged, makespan  # noqa: E402

SIZES = ((4, 7), (5, 5))
CLOCKED = 16  # processes the clock simulation runs the schedule on
LARGE = ((4, 8),)
SIMULATED = (4, 8, 16, 64, 256)


class Figures(NamedTuple):
    """One proof's optimum, work, wall and CPU seconds, and its task log (several processes: in the order handed
    out)."""

    cost: int
    work: int
    wall: float
    cpu: float
    tasks: list[Logged]


def one(pegs: int, colours: int, jobs: int, split: int) -> Figures:
    """One proof in this process: its figures and, on several processes, its task log (jobs 0: on the cluster
    COIN_PUZZLES_CLUSTER names, joined before the clock starts)."""
    from solvers.codebreak import build, parse
    from solvers.codebreak.optimal.average_search import AverageSearch
    from solvers.codebreak.optimal.table import Tuning
    from solvers.parallel import Execution
    from webapp.results.cluster import search_run

    spec = parse((ROOT / "games" / "mastermind.game").read_text())
    AverageSearch(build(spec, {"length": 2, "colours": 3})).load_kernels()
    g = build(spec, {"length": pegs, "colours": colours}).tabled()
    run = Execution(jobs) if jobs else search_run()
    run.engine()  # a cluster joined before the clock starts
    before, t = os.times(), time.perf_counter()
    search = AverageSearch(g, Tuning(split_from=split or None), run=run)
    found = search.solve()
    wall, after = time.perf_counter() - t, os.times()
    cpu = sum(getattr(after, k) - getattr(before, k) for k in ("user", "system", "children_user", "children_system"))
    order = sorted(search.tasks, key=lambda task: (task.sent, task.number))
    tasks = [Logged(task.number, task.seconds, list(task.after)) for task in order]
    return Figures(found.cost, found.work, wall, cpu, tasks)


class Virtual:
    """An engine of the clock simulation (`clocked`): the pool of a cluster of `jobs` processes that runs each task
    here when it is handed out and hands its result back when it would end there (`advance`, which the schedule
    calls before it waits); the parent's own CPU seconds move the same clock (not this simulation's own look-ups)."""

    lost: tuple[type[BaseException], ...] = ()
    shared = True  # its tasks write the search's own table, as forked workers do

    def __init__(self, jobs: int) -> None:
        self.jobs, self.tasks, self.tasks_cpu, self.waited, self.own = jobs, 0, 0.0, 0.0, 0.0
        self.longest = (0.0, 0, False)  # the longest task: its CPU seconds, its secrets, whether a younger brother
        self.thin = 0.0  # the time at most a quarter of the processes were busy (`thinly`)
        self.free = [0.0] * jobs
        self.pending: list[tuple[float, int, Future[Any], Any]] = []  # (when it ends, number, future, result)
        self.base = time.process_time()

    def now(self) -> float:
        """The clock: the parent's own CPU seconds since the start, and the time it waited."""
        return time.process_time() - self.base - self.tasks_cpu - self.own + self.waited

    def start(self, game: Any, recipe: Any) -> Virtual:
        from solvers.codebreak.optimal.prove import share

        self.search = recipe.__self__  # the search itself (`Recipe` would rebuild it in a cluster's worker)
        share(self.search)
        self.base = time.process_time()
        return self

    def submit(self, fn: Any, *args: Any) -> Future[Any]:
        """Task args, run here now; its result due when the first process free (from now) would end it."""
        from solvers.codebreak.optimal.sets import look, record

        sent, start = self.now(), time.process_time()
        memo, (k1, k2) = self.search.memo, self.search.key(args[0], args[3])
        held, value, exact, choice = look(memo, k1, k2)
        before = time.process_time()
        found = fn(*args)
        ran = time.process_time() - before
        self.tasks_cpu += ran
        if args[4] < 0:  # its own set as the table held it before, until its result comes (a brother writes none)
            record(memo, k1, k2, *((value, exact, choice) if held else (np.int64(0), False, -1)))
        end = max(heapq.heappop(self.free), sent) + found.seconds
        heapq.heappush(self.free, end)
        self.longest = max(self.longest, (found.seconds, len(args[0]), args[4] >= 0))
        future: Future[Any] = Future()
        heapq.heappush(self.pending, (end, self.tasks, future, found))
        self.tasks += 1
        self.own += time.process_time() - start - ran  # this simulation's bookkeeping, not the parent's: not counted
        return future

    def advance(self) -> None:
        """The results due by now handed back; none: the clock moves on to the next one's end (the parent waits)."""
        now = self.now()
        if self.pending and self.pending[0][0] > now:
            self.thin += self.thinly(now, self.pending[0][0])
            self.waited += self.pending[0][0] - now
            now = self.pending[0][0]
        while self.pending and self.pending[0][0] <= now:
            _, _, future, found = heapq.heappop(self.pending)
            future.set_result(found)

    def thinly(self, start: float, end: float) -> float:
        """Of the time from start to end (the parent waiting), how long at most a quarter of the processes ran a
        task (each process free from when its last task ends)."""
        ends = sorted(f for f in self.free if f > start)
        busy = [start, *(min(max(f, start), end) for f in ends), end]  # len(ends) - i processes busy in the i-th
        return sum(b - a for i, (a, b) in enumerate(pairwise(busy)) if 4 * (len(ends) - i) <= self.jobs)

    def stop(self) -> None:
        return None


def measured(pegs: int, colours: int, jobs: int, split: int = 0, root: Path = ROOT) -> Figures:
    """`one` in a fresh process (the workers fork from it and are its children, so their CPU time is counted), run
    by the checkout at root (another commit's worktree: `--against`)."""
    done = subprocess.run(
        [
            sys.executable,
            str(root / "benchmarks" / "scaling.py"),
            "--one",
            str(pegs),
            str(colours),
            str(jobs),
            str(split),
        ],
        capture_output=True,
        text=True,
        check=True,
        env=dict(os.environ, COIN_PUZZLES_JOBS=str(jobs)),
    )
    cost, work, wall, cpu, tasks = json.loads(done.stdout.strip().splitlines()[-1])
    return Figures(cost, work, wall, cpu, [Logged(*task) for task in tasks])


def on_cluster(pegs: int, colours: int) -> Figures:
    """`one` in a fresh process, on a Ray cluster of its own on this machine (`COIN_PUZZLES_CLUSTER=local`)."""
    done = subprocess.run(
        [sys.executable, __file__, "--one", str(pegs), str(colours), "0", "0"],
        capture_output=True,
        text=True,
        check=True,
        env=dict(os.environ, COIN_PUZZLES_CLUSTER="local", RAY_USAGE_STATS_ENABLED="0"),
    )
    cost, work, wall, _, tasks = json.loads(done.stdout.strip().splitlines()[-1])
    cpu = sum(task[1] for task in tasks)  # the tasks' own CPU seconds
    return Figures(cost, work, wall, cpu, [Logged(*task) for task in tasks])


TARGETS = {  # issue 75's, for the rows of two processes against one
    (4, 7): "at least 1.85x, median of 3",
    (4, 8): "one process: no more CPU than 4b9619a",
}
ROUNDS = 3  # runs of each proof, one process and two taken in turn: the median of each is kept (a fresh process's
# timing varies by 10-30% here)


class Scaled(NamedTuple):
    """One checkout's proof of a size, ROUNDS times on one process and on two: the medians by wall time, and the
    median of the rounds' speed-ups (one process's wall over two's, round by round)."""

    serial: Figures
    two: Figures
    speedup: float

    def text(self) -> str:
        """The figures as a cell of the table."""
        return (
            f"{self.speedup:.2f}x (median of {ROUNDS}); 2 processes {self.two.wall:.1f} s wall, {self.two.cpu:.1f} "
            f"CPU s, work {self.two.work:,}; one process {self.serial.wall:.1f} s wall, {self.serial.cpu:.1f} CPU s, "
            f"work {self.serial.work:,}"
        )


def middle(runs: list[Figures]) -> Figures:
    """The run of median wall time."""
    return sorted(runs, key=lambda r: r.wall)[len(runs) // 2]


def scaled(pegs: int, colours: int, roots: list[Path]) -> list[Scaled]:
    """Each checkout's proof of the size, the checkouts' runs interleaved round by round (so that a change in the
    machine's load falls on every one alike)."""
    runs: dict[Path, list[tuple[Figures, Figures]]] = {root: [] for root in roots}
    for _ in range(ROUNDS):
        for root in roots:
            runs[root].append((measured(pegs, colours, 1, root=root), measured(pegs, colours, 2, root=root)))
    out = []
    for root in roots:
        pairs = runs[root]
        ratios = sorted(a.wall / b.wall for a, b in pairs)
        out.append(Scaled(middle([a for a, _ in pairs]), middle([b for _, b in pairs]), ratios[len(ratios) // 2]))
        assert {r.cost for pair in pairs for r in pair} == {out[0].serial.cost}, "the checkouts disagree"
    return out


def clocked(pegs: int, colours: int, jobs: int) -> tuple[Any, ...]:
    """In this process: the proof on one process, then on the clock simulation of jobs processes (`Virtual`, the
    default split for that many): (one process's CPU seconds, the simulated end, the tasks' CPU seconds, the
    parent's own, the tasks, the time at most a quarter of them ran, the longest task), after the optimum."""
    from solvers.codebreak import build, parse
    from solvers.codebreak.optimal.average_search import AverageSearch
    from solvers.parallel import Execution

    spec = parse((ROOT / "games" / "mastermind.game").read_text())
    AverageSearch(build(spec, {"length": 2, "colours": 3})).load_kernels()
    g = build(spec, {"length": pegs, "colours": colours}).tabled()
    before = time.process_time()
    serial = AverageSearch(g).solve()
    one_cpu, engine = time.process_time() - before, Virtual(jobs)
    found = AverageSearch(g, run=Execution(jobs, lambda: engine)).solve()
    assert found.cost == serial.cost, (found.cost, serial.cost)
    end = engine.now()
    return found.cost, one_cpu, end, engine.tasks_cpu, end - engine.waited, engine.tasks, engine.thin, engine.longest


def on_clock(pegs: int, colours: int) -> tuple[int, str]:
    """`clocked` on CLOCKED processes in a fresh process: the optimum, and a cell of the table."""
    done = subprocess.run([sys.executable, __file__, "--clocked", str(pegs), str(colours), str(CLOCKED)],
                          capture_output=True, text=True, check=True)  # fmt: skip
    cost, one_cpu, end, tasks_cpu, parent, tasks, thin, (longest, size, brother) = json.loads(
        done.stdout.strip().splitlines()[-1]
    )
    kind = "a younger brother" if brother else "a set"
    return cost, (
        f"{one_cpu / end:.2f}x: {end:.1f} s against one process's {one_cpu:.1f} CPU s; {tasks:,} tasks of "
        f"{tasks_cpu:.1f} CPU s in all ({tasks_cpu / (CLOCKED * end):.0%} of the processes' time), the parent's own "
        f"searches and bookkeeping {parent:.1f} s; at most {CLOCKED // 4} processes busy for {thin:.1f} s of the "
        f"parent's waits; the longest task {longest:.1f} s ({kind} of {size:,} secrets)"
    )


def simulated(pegs: int, colours: int, serial: Figures, root: Path) -> str:
    """The split as on many processes, recorded on two, its tasks scheduled on more (`makespan`); its optimum
    must be the one-process proof's."""
    split = split_size(colours**pegs, max(SIMULATED))
    fine = measured(pegs, colours, 2, split, root)
    assert fine.cost == serial.cost, (fine.cost, serial.cost)
    serial_wall = serial.wall
    path = makespan(fine.tasks, 0)
    times = ", ".join(
        f"{w}: {makespan(fine.tasks, w):.2f} s ({serial_wall / makespan(fine.tasks, w):.1f}x)" for w in SIMULATED
    )
    return (
        f"{len(fine.tasks):,} tasks; {times}; none ends before the critical path, {path:.2f} s (at most "
        f"{serial_wall / path:.1f}x the one-process time)"
    )


def main(sizes: tuple[tuple[int, int], ...], against: Path | None) -> None:
    """Measure, simulate, print and record; against: another commit's worktree, measured the same way beside."""
    record = Record("scaling")
    roots = [ROOT] + ([against] if against else [])
    base = f"{git_name(against)}: " if against else ""
    for pegs, colours in sizes:
        figures = scaled(pegs, colours, roots)
        ours, theirs = figures[0], figures[-1]
        name = f"Mastermind {pegs}x{colours} optimal average ({ours.serial.cost:,}), proved"
        record.row(
            f"{name}, on 2 processes",
            ours.text(),
            base + theirs.text() if against else "",
            f"one process: {ours.serial.cpu / theirs.serial.cpu:.2f}x the CPU seconds"
            if against
            else f"2 processes: {ours.two.cpu / ours.serial.cpu:.2f}x the CPU seconds of one",
            TARGETS.get((pegs, colours), ""),
        )
        sim = [simulated(pegs, colours, f.serial, root) for f, root in zip(figures, roots, strict=True)]
        record.row(
            f"{name}: the tasks of its split as on many processes (sets from "
            f"{split_size(colours**pegs, max(SIMULATED))} secrets), recorded on 2 processes, scheduled on more "
            "(simulated)",
            sim[0],
            base + sim[-1] if against else f"{ours.serial.wall:.1f} s: one process",
            "",
            "16: at least 12x" if (pegs, colours) == (4, 8) else "",
        )
        clock_row(record, pegs, colours)
    record.save()


def clock_row(record: Record, pegs: int, colours: int) -> None:
    """The row of the clock simulation on CLOCKED processes (`on_clock`)."""
    cost, cell = on_clock(pegs, colours)
    record.row(
        f"Mastermind {pegs}x{colours} optimal average ({cost:,}), proved: on {CLOCKED} processes, simulated on a "
        "clock (`Virtual`: the schedule itself, the parent's own searches counted)",
        cell,
        "",
        "",
        "16: at least 12x" if (pegs, colours) == (4, 8) else "",
    )


def git_name(root: Path | None) -> str:
    """The short commit a checkout is at."""
    done = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return done.stdout.strip() or str(root)


def on_ray(sizes: tuple[tuple[int, int], ...]) -> None:
    """Each size on a Ray cluster of this machine's own beside two forked processes, twice in turn: print and
    record (as `cluster`)."""
    record = Record("cluster")
    for pegs, colours in sizes:
        runs = [run for _ in range(2) for run in (measured(pegs, colours, 2), on_cluster(pegs, colours))]
        forked = min(runs[0::2], key=lambda r: r.wall)
        ray = min(runs[1::2], key=lambda r: r.wall)
        assert forked.cost == ray.cost
        record.row(
            f"Mastermind {pegs}x{colours} optimal average ({ray.cost:,}), proved on a Ray cluster of this machine "
            "(2 CPUs)",
            f"{ray.wall:.1f} s wall, {ray.cpu:.1f} CPU s in its {len(ray.tasks):,} tasks, work {ray.work:,}",
            f"{forked.wall:.1f} s wall, {sum(t.seconds for t in forked.tasks):.1f} CPU s in its "
            f"{len(forked.tasks):,} tasks, work {forked.work:,}: 2 forked processes",
            f"{forked.wall / ray.wall:.2f}x",
        )
    record.save()


if __name__ == "__main__":
    if sys.argv[1:2] == ["--one"]:
        print(json.dumps(one(*(int(x) for x in sys.argv[2:6]))))
    elif sys.argv[1:2] == ["--clocked"]:
        print(json.dumps(clocked(*(int(x) for x in sys.argv[2:5]))))
    else:
        started = time.perf_counter()
        sizes = SIZES + (LARGE if "--large" in sys.argv else ())
        if "--only-large" in sys.argv:
            sizes = LARGE
        against = Path(sys.argv[sys.argv.index("--against") + 1]).resolve() if "--against" in sys.argv else None
        if "--clock" in sys.argv:  # the clock simulation's rows alone
            clocks = Record("scaling")
            for pegs, colours in SIZES + LARGE:
                clock_row(clocks, pegs, colours)
            clocks.save()
        else:
            on_ray(sizes) if "--cluster" in sys.argv else main(sizes, against)
        print(f"({time.perf_counter() - started:.0f} s)")

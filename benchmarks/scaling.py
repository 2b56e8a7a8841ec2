"""How the optimal-average proof scales with processes, split all the way down (`optimal/parallel.py`).

For each size, in a fresh process each (kernels loaded from the cache before the clock): the serial search (one
process, the baseline), then the split search on two processes as it runs there (`table.split_size`), twice in turn,
the quicker of each kept. Each prints its wall time, the CPU seconds of every process summed (the parent's and its
workers'), and its work (the secrets of every set searched). Then the split as it runs on many processes (every set
of 200 secrets or more opened), recorded on two; from its task log (each task's CPU seconds and the tasks it waited
for) it simulates the same tasks on 4, 8, 16, 64 and 256 processes (`makespan`): each task, in the order handed out,
on the first process free, once every task it waited for is done (the parent's bookkeeping between tasks is not
counted). The simulation assumes a task costs what it cost here, where the budgets it got depended on
which results came back first; on more processes they would come back in another order, so it is an estimate. Its
floor, the critical path (the longest chain of tasks each waiting for the one before), is exact for these tasks.

With `--cluster`, instead, each size is proved on a Ray cluster of this machine's own (`COIN_PUZZLES_CLUSTER=local`,
`webapp/results/cluster.py`), beside the two forked processes, twice in turn: its wall time (Ray's start not
counted: the clock starts once the cluster is joined) and the CPU seconds of its tasks (Ray's workers are not this
process's children, so their whole CPU time is not counted), recorded apart (`cluster`).

Run with `python benchmarks/scaling.py` (about three minutes here; `--large` adds 4x8, about ten; `--cluster` about
two). Not part of `make test`.
"""

from __future__ import annotations

import heapq
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.record import Record  # noqa: E402
from solvers.codebreak.optimal.table import split_size  # noqa: E402

SIZES = ((4, 7), (5, 5))
LARGE = ((4, 8),)
SIMULATED = (4, 8, 16, 64, 256)


class Logged(NamedTuple):
    """A task of the log, as the simulation reads it: its number, its CPU seconds, and the tasks it waited for."""

    number: int
    seconds: float
    after: list[int]


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


def measured(pegs: int, colours: int, jobs: int, split: int = 0) -> Figures:
    """`one` in a fresh process (the workers fork from it and are its children, so their CPU time is counted)."""
    done = subprocess.run(
        [sys.executable, __file__, "--one", str(pegs), str(colours), str(jobs), str(split)],
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


def makespan(tasks: list[Logged], workers: int) -> float:
    """The end of a list schedule: each task, in order, on the first process free once every task it waited for
    is done; workers 0: as many processes as tasks (the critical path)."""
    end: dict[int, float] = {}
    free = [0.0] * workers
    for task in tasks:
        ready = max((end[a] for a in task.after if a in end), default=0.0)
        if workers:
            end[task.number] = max(heapq.heappop(free), ready) + task.seconds
            heapq.heappush(free, end[task.number])
        else:
            end[task.number] = ready + task.seconds
    return max(end.values(), default=0.0)


def main(sizes: tuple[tuple[int, int], ...]) -> None:
    """Measure, simulate, print and record."""
    record = Record("scaling")
    for pegs, colours in sizes:
        # the quicker of two runs of each, alternated (a fresh process's timing varies by 10-30% here)
        runs = [measured(pegs, colours, jobs) for _ in range(2) for jobs in (1, 2)]
        serial = min(runs[0::2], key=lambda r: r.wall)
        two = min(runs[1::2], key=lambda r: r.wall)
        assert serial.cost == two.cost
        name = f"Mastermind {pegs}x{colours} optimal average ({serial.cost:,}), proved"
        record.row(
            f"{name}, on 2 processes",
            f"{two.wall:.1f} s wall, {two.cpu:.1f} CPU s, work {two.work:,}",
            f"{serial.wall:.1f} s wall, {serial.cpu:.1f} CPU s, work {serial.work:,}: one process",
            f"{serial.wall / two.wall:.2f}x wall, {two.cpu / serial.cpu:.2f}x the CPU seconds",
        )
        split = split_size(colours**pegs, max(SIMULATED))
        fine = measured(pegs, colours, 2, split)
        assert fine.cost == serial.cost
        path = makespan(fine.tasks, 0)
        simulated = ", ".join(
            f"{w}: {makespan(fine.tasks, w):.2f} s ({serial.wall / makespan(fine.tasks, w):.1f}x)" for w in SIMULATED
        )
        record.row(
            f"{name}: the tasks of its split as on many processes (sets from {split} secrets), recorded on 2 "
            "processes, scheduled on more (simulated)",
            f"{len(fine.tasks):,} tasks; {simulated}; none ends before the critical path, {path:.2f} s "
            f"(at most {serial.wall / path:.1f}x the one-process time)",
            f"{serial.wall:.1f} s: one process",
        )
    record.save()


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
    else:
        started = time.perf_counter()
        sizes = SIZES + (LARGE if "--large" in sys.argv else ())
        on_ray(sizes) if "--cluster" in sys.argv else main(sizes)
        print(f"({time.perf_counter() - started:.0f} s)")

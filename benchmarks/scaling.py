"""How the optimal-average proof scales with processes, split all the way down (`optimal/prove.py`).

For each size, in a fresh process each (kernels loaded from the cache before the clock): the serial search (one
process), then the split search on two processes as it runs there (`table.split_size`). Each prints its wall time,
the CPU seconds of every process summed (the parent's and its workers'), and its work (the secrets of every set
searched). Then the split as it runs on many processes (every set of fewer than 200 secrets below a larger one handed
out), recorded on two; from its task log (each task's CPU seconds and the results the search read before it) it
simulates the same tasks on 4, 8, 16, 64 and 256 processes (`makespan`): each task, in the order handed out, on the
first process free, once every task it waited for is done (the parent's bookkeeping between tasks is not counted).
The simulation assumes a task costs what it cost here, where the budgets it got depended on which results came back
first; on more processes they would come back in another order, so it is an estimate. A task counts as waiting for
every result the parent read before handing it out, which overstates the chain (a task handed out after a result
often did not need it), so the simulated figures are a floor rather than a forecast.

With `--cluster`, instead, each size is proved on a Ray cluster of this machine's own (`COIN_PUZZLES_CLUSTER=local`,
`webapp/results/cluster.py`), beside the two forked processes, twice in turn: its wall time (Ray's start not
counted: the clock starts once the cluster is joined) and the CPU seconds of its tasks (Ray's workers are not this
process's children, so their whole CPU time is not counted), recorded apart (`cluster`).

Each proof runs ROUNDS times on one process and on two, in turn; the medians are kept, and the median of the rounds'
speed-ups. With `--against DIR` (a worktree of another commit: `git worktree add DIR 4b9619a`) the same proofs run
from that checkout too, round by round beside this one's, and its figures fill the baseline column.

Run with `python benchmarks/scaling.py` (about four minutes here; `--large` adds 4x8, about fifteen, `--only-large`
runs it alone; `--cluster` about two). Not part of `make test`.
"""

from __future__ import annotations

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
from solvers.parallel import Logged, makespan  # noqa: E402

SIZES = ((4, 7), (5, 5))
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
    record.save()


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
    else:
        started = time.perf_counter()
        sizes = SIZES + (LARGE if "--large" in sys.argv else ())
        if "--only-large" in sys.argv:
            sizes = LARGE
        against = Path(sys.argv[sys.argv.index("--against") + 1]).resolve() if "--against" in sys.argv else None
        on_ray(sizes) if "--cluster" in sys.argv else main(sizes, against)
        print(f"({time.perf_counter() - started:.0f} s)")

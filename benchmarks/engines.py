"""Two distributed engines on the optimal search's tasks, for the proofs' scale-out (docs/decisions.md): Ray and Dask
distributed, each on this machine with two worker processes.

For each engine: the time to start it (a local cluster of two worker processes), the round trip of an empty task
(400 sent at once), and the proof's real tasks: the parts that Mastermind 4x7's first guess (the first in the
search's order) leaves, each searched exactly in a worker (`AverageSearch.settle_part`, the game built once per
worker), sent at once; their wall time and the CPU seconds the tasks took, summed. The baseline: the same parts
searched one after another in this process.

Needs the engines: `.venv/bin/pip install -e '.[engines]'`. Run with `python benchmarks/engines.py` (about a
minute). Not part of `make test` or `make bench`.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.record import Record  # noqa: E402

PEGS, COLOURS = 4, 7
EMPTY_TASKS = 400
_SEARCHES: dict[tuple[int, int], Any] = {}  # a worker's search, built at its first task


def noop(x: int) -> int:
    """An empty task."""
    return x


def new_search(pegs: int, colours: int) -> Any:
    """A search of a Mastermind size."""
    from solvers.codebreak import build, parse
    from solvers.codebreak.optimal.average_search import AverageSearch

    spec = parse((ROOT / "games" / "mastermind.game").read_text())
    return AverageSearch(build(spec, {"length": pegs, "colours": colours}).tabled())


def search_of(pegs: int, colours: int) -> Any:
    """This worker's search of a Mastermind size, built at its first task (the driver never fills this: the engines
    send a task's function with the globals it reads)."""
    if (pegs, colours) not in _SEARCHES:
        _SEARCHES[(pegs, colours)] = new_search(pegs, colours)
    return _SEARCHES[(pegs, colours)]


def first_parts(pegs: int, colours: int) -> tuple[int, list[int]]:
    """The search's first guess and the outcomes of the parts it leaves to search, largest first."""
    import numpy as np

    from solvers.codebreak.optimal.average import open_parts

    s = new_search(pegs, colours)
    every = s.everyone()
    g = int(s.root_candidates(every, s.root_allowed())[0][1])
    order = open_parts(every, g, np.int64(1 << 40), s.rules, s.memo, s.cap, s.first_symmetries(g))[4]
    return g, [int(o) for o in order]


def part_cost(pegs: int, colours: int, g: int, o: int) -> tuple[int, float]:
    """One part of first guess g searched exactly: (its least total, the CPU seconds it took)."""
    s = search_of(pegs, colours)
    every = s.everyone()
    part = every[s.rules.table[g, every] == o]
    clock = time.process_time()
    return s.settle_part(part, 1 << 40, s.first_symmetries(g), s.depth_at(1)), time.process_time() - clock


def serial() -> tuple[float, int, float]:
    """The parts one after another here: (wall, their total, CPU seconds)."""
    g, order = first_parts(PEGS, COLOURS)
    part_cost(PEGS, COLOURS, g, order[-1])  # the search built before the clock, as the workers' are
    t = time.perf_counter()
    out = [part_cost(PEGS, COLOURS, g, o) for o in order]
    return time.perf_counter() - t, sum(v for v, _ in out), sum(c for _, c in out)


def with_dask() -> tuple[float, float, float, int, float]:
    """(start, an empty task's round trip, the parts' wall, their total, their CPU seconds) on Dask distributed."""
    from distributed import Client, LocalCluster

    t = time.perf_counter()
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    client = Client(cluster)
    start = time.perf_counter() - t
    client.gather(client.map(noop, range(10)))
    t = time.perf_counter()
    client.gather(client.map(noop, range(EMPTY_TASKS), pure=False))
    empty = (time.perf_counter() - t) / EMPTY_TASKS
    g, order = first_parts(PEGS, COLOURS)
    client.gather([client.submit(part_cost, PEGS, COLOURS, g, order[-1], pure=False) for _ in range(4)])  # warm
    t = time.perf_counter()
    out = client.gather([client.submit(part_cost, PEGS, COLOURS, g, o, pure=False) for o in order])
    wall = time.perf_counter() - t
    client.close()
    cluster.close()
    return start, empty, wall, sum(v for v, _ in out), sum(c for _, c in out)


def with_ray() -> tuple[float, float, float, int, float]:
    """The same on Ray."""
    import ray

    t = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    start = time.perf_counter() - t
    empty_task, part_task = ray.remote(noop), ray.remote(part_cost)
    ray.get([empty_task.remote(i) for i in range(10)])
    t = time.perf_counter()
    ray.get([empty_task.remote(i) for i in range(EMPTY_TASKS)])
    empty = (time.perf_counter() - t) / EMPTY_TASKS
    g, order = first_parts(PEGS, COLOURS)
    ray.get([part_task.remote(PEGS, COLOURS, g, order[-1]) for _ in range(4)])  # warm
    t = time.perf_counter()
    out = ray.get([part_task.remote(PEGS, COLOURS, g, o) for o in order])
    wall = time.perf_counter() - t
    ray.shutdown()
    return start, empty, wall, sum(v for v, _ in out), sum(c for _, c in out)


def main() -> None:
    """Each engine in a fresh process (neither shares one with the other), then the table's rows."""
    record = Record("engines")
    base_wall, base_total, base_cpu = serial()
    for engine in ("ray", "dask"):
        done = subprocess.run([sys.executable, __file__, engine], capture_output=True, text=True, check=True)
        start, empty, wall, total, cpu = (float(x) for x in done.stdout.strip().splitlines()[-1].split())
        assert int(total) == base_total
        record.row(
            f"{engine}: Mastermind {PEGS}x{COLOURS}, the first guess's parts searched on two worker processes",
            f"{wall:.1f} s wall, {cpu:.1f} CPU s in the tasks; started in {start:.1f} s; an empty task's round trip "
            f"{empty * 1000:.2f} ms",
            f"{base_wall:.1f} s wall, {base_cpu:.1f} CPU s: one after another in one process",
            f"{base_wall / wall:.2f}x wall",
        )
    record.save()


if __name__ == "__main__":
    if sys.argv[1:2] == ["ray"]:
        print(*with_ray())
    elif sys.argv[1:2] == ["dask"]:
        print(*with_dask())
    else:
        main()

"""What the size of the search's table of proved sets costs a long proof (`table.table_bits`, `Tuning.cache_bits`).

The table is direct-mapped: a set proved where another was kept takes its slot, so once a proof has searched more
sets than the table holds, a large set's cost can be crowded out by a small one's and searched again. 4x10's proof
runs for hours with the default table (2^24 slots, 16 million sets, about 610 MB shared by its processes); this
measures, on a size that takes minutes, how the work and CPU of a whole proof on one process grow as the table
shrinks below what the proof touches, to say whether the long proofs need a larger one.

Each proof runs in a fresh process (the kernels loaded from the cache before the clock), the sizes in turn, the
default first; it prints the optimum (each must agree), the work (secrets of every set searched), the CPU seconds
and the table's fill when the proof ends.

    python benchmarks/table_size.py [--size 4x8] [--bits 22 18 20 24 26] [--rounds 3]

The first size given is the baseline (each size's figures are medians of the rounds, the sizes run in turn each
round). CPU counts the system's time too: most of it is the kernel zeroing the table's pages as the search first
touches them.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.record import Record  # noqa: E402


def one(pegs: int, colours: int, bits: int) -> dict[str, float]:
    """One proof in this process with a table of 2^bits slots: its optimum, work, CPU seconds and fill."""
    import numpy as np

    from solvers.codebreak import build
    from solvers.codebreak.optimal.average_search import AverageSearch
    from solvers.codebreak.optimal.table import Tuning
    from webapp.results.games import game_spec

    AverageSearch(build(game_spec("mastermind"), {"length": 2, "colours": 3})).load_kernels()
    g = build(game_spec("mastermind"), {"length": pegs, "colours": colours}).tabled()
    search = AverageSearch(g, Tuning(node_limit=10**12, cache_bits=bits))
    before = os.times()
    found = search.solve()
    after = os.times()
    fill = float(np.count_nonzero(search.memo.k1)) / len(search.memo.k1)
    cpu = after.user - before.user + after.system - before.system
    return {"cost": found.cost, "work": found.work, "cpu": cpu, "system": after.system - before.system, "fill": fill}


def measured(pegs: int, colours: int, bits: int) -> dict[str, float]:
    """`one` in a fresh process."""
    done = subprocess.run(
        [sys.executable, __file__, "--one", str(pegs), str(colours), str(bits)],
        capture_output=True,
        text=True,
        check=True,
        env=dict(os.environ, COIN_PUZZLES_JOBS="1"),
    )
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def main() -> None:
    """Each table size in turn (round by round, the medians kept), printed and recorded beside the first's."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", default="4x8")
    parser.add_argument("--bits", type=int, nargs="+", default=[22, 18, 20, 24, 26])
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    pegs, colours = (int(x) for x in args.size.split("x"))
    record = Record("table_size")
    runs: dict[int, list[dict[str, float]]] = {bits: [] for bits in args.bits}
    for _ in range(args.rounds):  # in turn, so that a machine's drift touches every size alike
        for bits in args.bits:
            runs[bits].append(measured(pegs, colours, bits))
            print(f"2^{bits}: {runs[bits][-1]}", flush=True)
    median = {bits: {k: statistics.median(r[k] for r in rs) for k in rs[0]} for bits, rs in runs.items()}
    base = median[args.bits[0]]
    for bits in args.bits[1:]:
        r = median[bits]
        assert r["cost"] == base["cost"], (r, base)
        record.row(
            f"Mastermind {pegs}x{colours} optimal average ({int(base['cost']):,}), proved on one process with a table "
            f"of 2^{bits} sets",
            f"work {int(r['work']):,}, {r['cpu']:.1f} CPU s ({r['system']:.2f} s in the system), {100 * r['fill']:.0f}%"
            f" of the slots filled{f', medians of {args.rounds}' if args.rounds > 1 else ''}",
            f"work {int(base['work']):,}, {base['cpu']:.1f} CPU s ({base['system']:.2f} s in the system),"
            f" {100 * base['fill']:.0f}% filled: 2^{args.bits[0]}",
            f"{r['work'] / base['work']:.2f}x the work, {r['cpu'] / base['cpu']:.2f}x the CPU",
        )
    record.save()


if __name__ == "__main__":
    if sys.argv[1:2] == ["--one"]:
        print(json.dumps(one(*(int(x) for x in sys.argv[2:5]))))
    else:
        started = time.perf_counter()
        main()
        print(f"({time.perf_counter() - started:.0f} s)")

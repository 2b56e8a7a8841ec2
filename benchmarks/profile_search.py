"""Where a long proof's CPU goes, read from the kernel's own frames (`rules.Frames`) while it searches.

The compiled kernel cannot be profiled by Python's profilers, but it keeps its path as data: for each set on the
path from the set it was given, the place of the experiment it tries among that set's candidates (0: the eldest,
the best bound; later ones are younger brothers, searched to refute them below the best total found) and the part
it searches. A thread samples the path every SAMPLE_SECONDS while the kernel (which releases the GIL) searches the
largest part of a first guess, for a given time, then halts it. Printed: the share of samples by the depth of the
path, and at each of the first levels the share spent below a younger brother (a refutation) rather than below the
eldest, and the share below a part after the first (largest) one.

    python benchmarks/profile_search.py [--size 4x10] [--guess ABCD] [--seconds 60]

Not part of `make bench`: it measures no target, it says where to look.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solvers import halt  # noqa: E402
from solvers.codebreak import build  # noqa: E402
from solvers.codebreak.optimal.average import open_parts  # noqa: E402
from solvers.codebreak.optimal.average_search import AverageSearch  # noqa: E402
from solvers.codebreak.optimal.rules import BIG, CANDIDATE, PART, UNCAPPED, below  # noqa: E402
from solvers.codebreak.optimal.table import Tuning  # noqa: E402
from solvers.errors import LimitError, Paused  # noqa: E402
from webapp.results.games import game_spec  # noqa: E402

SAMPLE_SECONDS = 0.002
LEVELS = 4  # the first levels reported one by one


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", default="4x10")
    parser.add_argument("--guess", default="ABCD")
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args()
    pegs, colours = (int(x) for x in args.size.split("x"))
    g = build(game_spec("mastermind"), {"length": pegs, "colours": colours}, colours_up_to=max(colours, 10)).tabled()
    search = AverageSearch(g, Tuning(node_limit=10**13))
    search.load_kernels()
    first = g.experiments.index(args.guess)
    s = search.everyone()
    sym = search.first_symmetries(first)
    members, start, _, _, order = open_parts(s, first, np.int64(BIG), search.rules, search.memo, UNCAPPED, sym)
    part = members[start[order[0]] : start[order[0] + 1]]
    print(f"Mastermind {args.size}, first guess {args.guess}: its largest part, {len(part):,} secrets", flush=True)
    samples: list[tuple[tuple[int, int], ...]] = []
    done = threading.Event()
    frames = search.memo.frames

    def sample() -> None:
        while not done.wait(SAMPLE_SECONDS):
            levels = int(frames.head[0])
            samples.append(tuple((int(frames.state[i, CANDIDATE]), int(frames.state[i, PART])) for i in range(levels)))

    sampler = threading.Thread(target=sample, daemon=True)
    halt.clear()
    threading.Timer(args.seconds, halt.halt).start()
    sampler.start()
    started = time.process_time()
    try:
        search.kernel(part, int(BIG), sym, below(UNCAPPED))
        print("the part was settled before the time was up", flush=True)
    except (LimitError, Paused):  # halted at the time given
        pass
    done.set()
    sampler.join()
    halt.clear()
    print(f"{time.process_time() - started:.1f} CPU s, work {search.work:,}, {len(samples):,} samples", flush=True)
    report(samples)


def report(samples: list[tuple[tuple[int, int], ...]]) -> None:
    """The shares of the samples by depth, and below younger brothers and later parts level by level."""
    n = max(len(samples), 1)
    depths = Counter(len(path) for path in samples)
    print("depth of the path: " + ", ".join(f"{d}: {100 * c / n:.0f}%" for d, c in sorted(depths.items())))
    for level in range(LEVELS):
        here = [path for path in samples if len(path) > level]
        if not here:
            break
        younger = sum(1 for path in here if path[level][0] > 0)
        later = sum(1 for path in here if path[level][1] > 0)
        refuting = sum(1 for path in here if any(c > 0 for c, _ in path[: level + 1]))
        print(
            f"level {level}: {100 * len(here) / n:.0f}% of the samples reach it; of those, "
            f"{100 * younger / len(here):.0f}% below a younger brother there, "
            f"{100 * later / len(here):.0f}% below a part after its largest; "
            f"{100 * refuting / len(here):.0f}% below a younger brother at this level or above"
        )


if __name__ == "__main__":
    main()

"""How fast a proof stops when asked, and what its next run searches again (`solvers/halt.py`, `rules.Frames`).

A process proves Mastermind 4x7 (2,401 secrets, about 12 CPU-s on one process) with a checkpoint in a file and
halts on SIGTERM (`webapp/jobs/halting.py`); it is sent SIGTERM at a random moment of its proof. Measured:
the wall time from the signal to the process's exit, and the work of the next run, which goes on from the
checkpoint, against the work of one run never stopped. The baseline, in the same run: the next run from the same
checkpoint without its frames (what a stop kept before the kernel could pause: only the sets settled).

    python benchmarks/pause.py [--trials 5] [--jobs 1 2]
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.record import Record  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CHILD = """
import json, sys
from pathlib import Path
from solvers.codebreak import build, parse
from solvers.codebreak.optimal.average_search import AverageSearch
from solvers.errors import Paused
from solvers.parallel import Execution
from webapp.jobs.halting import halt_on_signals

path, frames = Path(sys.argv[2]), sys.argv[3] == "frames"
saved = json.loads(path.read_text()) if path.exists() else {"entries": [], "frames": []}

class Kept:
    entries = [tuple(e) for e in saved["entries"]]
    frames = [tuple(f) for f in saved["frames"]] if frames else []
    def known(self): return list(self.entries)
    def keep(self, entries): self.entries += entries
    def paused(self): return list(self.frames)
    def pause(self, frames): self.frames = frames

halt_on_signals()
g = build(parse(Path("games/mastermind.game").read_text()), {"length": 4, "colours": 7}).tabled()
kept = Kept()
search = AverageSearch(g, run=Execution(int(sys.argv[1])), checkpoint=kept)
search.load_kernels()
print("proving", flush=True)
try:
    found = search.solve()
    print(json.dumps({"cost": found.cost, "work": found.work}), flush=True)
except Paused:
    print(json.dumps({"paused": sum(len(f) > 3 for f in kept.frames), "work": search.work}), flush=True)
path.write_text(json.dumps({"entries": kept.entries, "frames": kept.frames}))
"""


def prove(jobs: int, path: Path, frames: bool = True) -> dict[str, int]:
    """One run to the end from the checkpoint in path (with its frames, or without); its last line."""
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(jobs), str(path), "frames" if frames else "none"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return dict(json.loads(out.stdout.splitlines()[-1]))


def stopped(jobs: int, path: Path, after: float) -> tuple[float, dict[str, int]]:
    """A run sent SIGTERM `after` seconds into its proof: (seconds from the signal to its exit, its last line)."""
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(jobs), str(path), "frames"], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None and child.stdout.readline().strip() == "proving"
    time.sleep(after)
    sent = time.perf_counter()
    child.send_signal(signal.SIGTERM)
    out, _ = child.communicate(timeout=120)
    return time.perf_counter() - sent, dict(json.loads(out.splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()
    record = Record("pause")
    rng = random.Random(75)
    for jobs in args.jobs:
        with tempfile.TemporaryDirectory() as folder:
            whole = prove(jobs, Path(folder) / "none.json")
            waits, ours, theirs = [], [], []
            for trial in range(args.trials):
                path = Path(folder) / f"{trial}.json"
                wait, last = stopped(jobs, path, rng.uniform(1.0, 4.0 if jobs > 1 else 8.0))
                if "paused" not in last:
                    continue  # it ended before the signal
                waits.append(wait)
                bare = Path(folder) / f"{trial}-bare.json"
                bare.write_text(path.read_text())
                ours.append(last["work"] + prove(jobs, path)["work"])
                theirs.append(last["work"] + prove(jobs, bare, frames=False)["work"])
                print(f"{jobs} process(es), stop {trial + 1}: {wait:.2f} s; work {ours[-1]:,} / {theirs[-1]:,}")
        how = "one process" if jobs == 1 else f"{jobs} processes"
        record.row(
            f"Mastermind 4x7 on {how}: seconds from SIGTERM at a random moment to the process's exit "
            f"(median and most of {len(waits)} stops)",
            f"{statistics.median(waits):.2f} / {max(waits):.2f} s",
            target="at most 1 s",
        )
        if jobs > 1:
            continue  # the work of a stopped split proof's workers is theirs: the parent does not count it
        record.row(
            f"Mastermind 4x7 on {how}: the work of a stopped run and the run after it, which goes on from the stop's "
            f"frames, against the same next run from the sets settled alone (the kernel before frames), medians "
            f"of {len(ours)} stops; one run never stopped: {whole['work']:,}",
            f"{statistics.median(ours):,.0f} ({statistics.median(ours) / whole['work'] - 1:+.2%})",
            f"{statistics.median(theirs):,.0f} ({statistics.median(theirs) / whole['work'] - 1:+.2%})",
            f"{statistics.median(theirs) / max(statistics.median(ours), 1):.2f}x",
            "within 1% of a run never stopped",
        )
    record.save()


if __name__ == "__main__":
    main()

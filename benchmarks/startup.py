"""Whole-process times of the command line, after a fresh install's warm-up, beside `python -c pass` and the
plain-Python baselines (benchmarks/baselines.py) in the same run.

A fresh Numba cache is made first (NUMBA_CACHE_DIR in a temporary folder) and filled by `coin-puzzles warm-up`, as
`make run` and `make test` do; then each command runs as a separate process: its first run, and the median of the
runs after it. The result store is an empty one of its own (so no stored result is read). Each run's kernels
loaded from the cache and compiled are counted (COIN_PUZZLES_COMPILE_REPORT): after the warm-up, none is compiled.

    python benchmarks/startup.py [--runs 5] [--quick]     # --quick: leave out Mastermind 4x7 (about 30 s a run)
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from record import Record

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
CLI = str(BIN / "coin-puzzles")
PY = sys.executable
BASE = str(ROOT / "benchmarks" / "baselines.py")

# (what, command, baseline command or None)
COMMANDS: list[tuple[str, list[str], list[str] | None]] = [
    ("--help", [CLI, "--help"], None),
    ("devil 8 --json", [CLI, "devil", "8", "--json"], [PY, BASE, "devil", "8"]),
    ("weigh 12 --tree --json", [CLI, "weigh", "12", "--tree", "--json"], None),
    ("pegs --board triangle-5 --hole 1", [CLI, "pegs", "--board", "triangle-5", "--hole", "1"], None),
]
MASTERMIND = [(3, 4), (4, 6), (4, 7)]
TARGETS = {  # issue 29's targets
    "--help": "<= 0.1 s",
    "devil 8 --json": "<= the baseline",
    "weigh 12 --tree --json": "<= 0.3 s",
    "Mastermind 3x4 optimal average": "<= 0.25 s",
    "Mastermind 4x6 optimal average": "<= 1.0 s",
    "Mastermind 4x7 optimal average": "<= 25 s",
}
BASELINES = {
    "devil 8 --json": "a plain-Python search over the same classes",
    "Mastermind 3x4 optimal average": "a naive plain-Python optimal search, every guess at every set, memoised",
}
NAIVE_UP_TO = 64  # secrets: the naive optimal-average baseline runs for games this small (4x6 would take hours)


def timed(command: list[str], env: dict[str, str]) -> tuple[float, str]:
    """Seconds of one whole process, and what it reported on stderr's last line."""
    t = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - t
    lines = [line for line in done.stderr.splitlines() if line.startswith("kernels:")]
    return seconds, lines[-1] if lines else ""


def series(command: list[str], env: dict[str, str], runs: int) -> tuple[float, float, str]:
    """The first run's seconds, the median of the runs after it, and the last run's compile report."""
    first, report = timed(command, env)
    rest = [timed(command, env)[0] for _ in range(max(runs - 1, 1))]
    return first, statistics.median(rest), report


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="leave out Mastermind 4x7")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="coin-puzzles-startup-") as tmp:
        env = dict(os.environ)
        env.update(
            NUMBA_CACHE_DIR=f"{tmp}/numba",
            COIN_PUZZLES_INSTANCE=f"{tmp}/instance",
            COIN_PUZZLES_SECRET=secrets.token_hex(32),
            COIN_PUZZLES_COMPILE_REPORT="1",
        )
        env.pop("COIN_PUZZLES_REDIS_URL", None)
        record = Record("startup")
        print(f"whole processes, {args.runs} runs each (the first, then the median of the rest)")
        t = time.perf_counter()
        subprocess.run([CLI, "warm-up", "--quiet"], env=env, check=True, capture_output=True)
        record.row(
            "warm-up: every compiled kernel into a fresh Numba cache (`coin-puzzles warm-up`, as `make run` does)",
            f"{time.perf_counter() - t:.1f} s",
            target="once per install",
        )
        nothing = series([PY, "-c", "pass"], env, args.runs)
        rows = list(COMMANDS)
        for pegs, colours in MASTERMIND[:2] if args.quick else MASTERMIND:
            command = [CLI, "codebreak", "mastermind", "--pegs", str(pegs), "--colours", str(colours)]
            naive = [PY, BASE, "mastermind", str(pegs), str(colours)] if colours**pegs <= NAIVE_UP_TO else None
            rows.append(
                (f"Mastermind {pegs}x{colours} optimal average", [*command, "--strategy", "optimal-average"], naive)
            )
        for what, command, baseline in rows:
            runs = 2 if "4x7" in what else args.runs
            first, median, report = series(command, env, runs)
            base = series(baseline, env, runs)[1] if baseline else None
            record.row(
                f"`coin-puzzles {' '.join(command[1:]) if command[0] == CLI else what}`",
                f"median {median:.3f} s, first run {first:.3f} s ({report.removeprefix('kernels: ') or 'no kernel'})",
                f"{base:.3f} s ({BASELINES.get(what, 'plain Python')})"
                if base
                else f"`python -c pass` {nothing[1]:.3f} s",
                f"{base / median:.1f}x" if base else "",
                TARGETS.get(what, ""),
            )
        record.save()


if __name__ == "__main__":
    main()

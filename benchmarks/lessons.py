"""What a guess was worth (the code-breaking hint that teaches), as the background job computes it.

Prints, for every first guess of Mastermind 4x6 (one per class: AAAA, AAAB, AABB, AABC, ABCD) and two second
guesses: the whole lesson's time (the guess's exact total and the best guess's, and the worst case each leaves).
Beside each first guess, a baseline run in the same process: the guess's own total alone, searched without the
symmetries that fix it (as lessons searched first guesses before); AAAA's took minutes and is left out. Second
guesses are searched as before (no baseline).

Run with `python benchmarks/lessons.py` (about a minute here). Not part of `make test`.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.record import Record  # noqa: E402
from solvers.codebreak import build, parse  # noqa: E402
from solvers.codebreak.lesson import alive_after, lesson  # noqa: E402
from solvers.codebreak.optimal.average_search import AverageSearch  # noqa: E402
from solvers.codebreak.optimal.table import CACHE_BITS, Tuning  # noqa: E402

BASELINE_LEFT_OUT = {"AAAA"}


def main() -> None:
    """Print and record the figures."""
    g = build(parse((ROOT / "games" / "mastermind.game").read_text()), {"length": 4, "colours": 6})
    AverageSearch(g).load_kernels()
    record = Record("lessons")
    cases = [(code,) for code in ("AAAA", "AAAB", "AABB", "AABC", "ABCD")] + [("AABB", "CDEF"), ("ABCD", "AEEF")]
    for codes in cases:
        guesses = tuple(g.experiments.index(c) for c in codes)
        secret = 0  # AAAA: every guess scores against it; the codes left before the last guess are what matter
        outcomes = tuple(g.outcome(e, secret) for e in guesses)
        t = time.perf_counter()
        got = lesson(g, guesses, outcomes, AverageSearch(g, Tuning(cache_bits=CACHE_BITS)))
        ours = time.perf_counter() - t
        baseline, ratio = "", ""
        if len(codes) == 1 and codes[0] not in BASELINE_LEFT_OUT:  # later guesses are searched as before
            plain = AverageSearch(g, Tuning(cache_bits=CACHE_BITS))
            s = alive_after(g, guesses[:-1], outcomes[:-1])
            t = time.perf_counter()
            total = len(s)
            table = plain.rules.table
            for o in sorted(set(table[guesses[-1], s].tolist())):
                if o != plain.rules.win:
                    total += plain.average(s[table[guesses[-1], s] == o], 10**9)
            took = time.perf_counter() - t
            assert total == got.total, (codes, total, got.total)
            baseline, ratio = f"{took:.2f} s: its own total alone, without the symmetries", f"{took / ours:.1f}x"
        text = ", ".join(codes)
        print(f"{text}: {got} in {ours:.2f} s; baseline {baseline}", flush=True)
        record.row(
            f"Mastermind 4x6, the worth of {text} ({got.secrets:,} codes possible before {codes[-1]})",
            f"{ours:.2f} s: total {got.total:,} against the best {got.best_total:,} ({got.best_guess}), lost"
            f" {got.lost:.4f}; leaves up to {got.worst_left:,} (best {got.best_worst_left:,})",
            baseline,
            ratio,
            "a background job of seconds",
        )
    print(record.save())


if __name__ == "__main__":
    main()

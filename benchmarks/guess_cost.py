"""What a guess was worth (the code-breaking hint that teaches), over a fixed sample of games, as the site answers it.

A fixed sample (seeded): Mastermind 4x6, 30 games of random guesses against random secrets, every second and
third guess judged; Bulls and Cows, 10 games, every second and third guess judged. For each guess, ours: the
lesson as the quick lane's job computes it (no search runs inside a request: the page waits for that job at most
QUICK_WAIT_SECONDS, then shows its progress); "answered within the request" counts the lessons made within that
wait. A second guess of Bulls and Cows takes its
total and the best from the totals of every second guess, as the site does once `make run`'s precomputation has
stored them (`second.second_totals`, `second_worth`; built first, their time printed apart).
Printed: how many were answered within the request, the median, the 95th percentile and the worst.

Baseline in the same run: the search as lessons ran it before (972738d), rebuilt here from the engine's own
primitives: every experiment tried at the codes still possible, each searched part by part with no symmetry
(Mastermind and Bulls and Cows have no symmetry fixing two guesses in that search), always as a job. Bulls and
Cows' baseline is run only where at most 250 codes are possible before the guess (its larger sets took minutes
each, and those above 700 were refused), and its figures cover those guesses only, beside ours on the same ones.

Run with `python benchmarks/guess_cost.py` (a few minutes here). Not part of `make test`.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.record import Record  # noqa: E402
from solvers.codebreak import Game, build, parse  # noqa: E402
from solvers.codebreak.lesson import alive_after, every_first_alike, lesson  # noqa: E402
from solvers.codebreak.optimal.average_search import AverageSearch  # noqa: E402
from solvers.codebreak.optimal.candidates import candidates  # noqa: E402
from solvers.codebreak.optimal.rules import BIG  # noqa: E402
from solvers.codebreak.optimal.table import Tuning  # noqa: E402
from solvers.codebreak.second import SecondTotals, second_totals, second_worth  # noqa: E402
from webapp.jobs.access import QUICK_WAIT_SECONDS  # noqa: E402
from webapp.results.codebreak_results import QUICK_LESSON_SECRETS  # noqa: E402

SAMPLE = {"mastermind": ((4, 6), 30, 10_000), "bulls-and-cows": ((4, 10), 10, 250)}  # sizes, games, baseline's most
MOST_CODES = 1_440  # the site's LESSON_MAX_SECRETS


def sample(g: Game, games: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every second and third guess of `games` seeded random games (guesses, their scores)."""
    rng, table, out = random.Random(2026), g.dense(), []
    for _ in range(games):
        secret, guesses = rng.randrange(len(g.secrets)), []
        for k in range(3):
            guesses.append(rng.randrange(len(g.experiments)))
            scores = tuple(int(table[e, secret]) for e in guesses)
            if k and 1 < len(alive_after(g, tuple(guesses[:-1]), scores[:-1])) <= MOST_CODES:
                out.append((tuple(guesses), scores))
    return out


def ours(
    g: Game, guesses: tuple[int, ...], scores: tuple[int, ...], totals: SecondTotals | None
) -> tuple[float, bool, int]:
    """(seconds, answered within the request, the judged guess's total) as the site answers it (totals: the stored
    totals of every second guess of a game whose first guesses are all alike)."""
    t = time.perf_counter()
    worth = second_worth(g, totals, guesses[0], scores[0], guesses[1]) if totals and len(guesses) == 2 else None
    best, total = ((worth.best, worth.best_guess), worth.total) if worth is not None else (None, None)
    large = len(alive_after(g, guesses[:-1], scores[:-1])) > QUICK_LESSON_SECRETS
    got = lesson(g, guesses, scores, large=large, best=best, total=total)  # as the job judges it
    took = time.perf_counter() - t
    return took, took <= QUICK_WAIT_SECONDS, got.total or 0


def baseline(g: Game, guesses: tuple[int, ...], scores: tuple[int, ...]) -> tuple[float, int]:
    """(seconds, the judged guess's total) by 972738d's search: every experiment, no symmetry, part by part."""
    search = AverageSearch(g, Tuning())
    rules, plain = search.rules, search.plain
    t = time.perf_counter()
    s = alive_after(g, guesses[:-1], scores[:-1])

    def with_first(e: int, best: int) -> int:
        outcomes, total = rules.table[e, s], len(s)
        for o in np.unique(outcomes):
            if total >= best:
                return total
            if o != rules.win:
                total += search.kernel(s[outcomes == o], best - total, plain, search.cap)
        return total

    total, best = with_first(guesses[-1], int(BIG)), int(BIG)
    for low, e in candidates(s, rules.everything, rules, False, plain, False):
        if low >= best:
            break
        best = min(best, with_first(int(e), best))
    return time.perf_counter() - t, total


def figures(times: list[float]) -> str:
    """Median, 95th percentile and worst, in seconds."""
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"median {statistics.median(ordered):.3f} s, 95% within {p95:.3f} s, worst {ordered[-1]:.3f} s"


def main() -> None:
    """Print and record the figures."""
    record = Record("guess_cost")
    for name, ((pegs, colours), games, base_most) in SAMPLE.items():
        g = build(parse((ROOT / "games" / f"{name}.game").read_text()), {"length": pegs, "colours": colours})
        AverageSearch(g).load_kernels()
        warm = tuple(int(g.dense()[e, 0]) for e in (1, 2))
        lesson(g, (1, 2), warm)  # the kernels loaded, as in a job process that has judged one
        cases, totals = sample(g, games), None
        if every_first_alike(g):
            t = time.perf_counter()
            totals = second_totals(AverageSearch(g, Tuning(cache_bits=None)))
            print(f"{name}: the totals of every second guess in {time.perf_counter() - t:.1f} s", flush=True)
        mine, theirs, mine_on_theirs, in_request = [], [], [], 0
        for guesses, scores in cases:
            left = len(alive_after(g, guesses[:-1], scores[:-1]))
            took, quick, total = ours(g, guesses, scores, totals)
            mine.append(took)
            in_request += quick
            if left <= base_most:
                before, total_before = baseline(g, guesses, scores)
                assert total_before == total, (guesses, total_before, total)
                theirs.append(before)
                mine_on_theirs.append(took)
            print(f"{name} {left:>5} codes: {took:.3f} s ({'request' if quick else 'job'})", flush=True)
        record.row(
            f"{name} {pegs}x{colours}: the worth of a guess, {len(cases)} second and third guesses of {games} random"
            f" games ({in_request} answered within the request)",
            figures(mine),
            f"972738d's search on {len(theirs)} of them (at most {base_most:,} codes before the guess): "
            f"{figures(theirs)}; ours on the same: {figures(mine_on_theirs)}",
            f"{statistics.median(theirs) / statistics.median(mine_on_theirs):.0f}x (medians)",
            "95% within 2 s (Mastermind 4x6), 10 s (Bulls and Cows)",
        )
    print(record.save())


if __name__ == "__main__":
    main()

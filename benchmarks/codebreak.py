"""Code-breaking benchmarks: Knuth's tree for 4x6 (aim < 3 s), every heuristic, Super Mastermind 5x8 scored on
demand, optimal values for small games.

Run with `python benchmarks/codebreak.py`; instead, `--bulls`: Bulls and Cows' optimal average (minutes);
`--worst`: the optimal worst cases beside the search without its deeper test (a minute or two); `--places`:
black-peg Mastermind with and without its place-by-place symmetries, and 4x6 proved (a minute). Not part of
`make test`.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from itertools import product
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solvers.codebreak import HEURISTICS, Game, build, build_tree, parse, verify  # noqa: E402
from solvers.codebreak.game import score_table  # noqa: E402
from solvers.codebreak.optimal import Search  # noqa: E402
from solvers.weighing import Problem, min_weighings  # noqa: E402

GAMES = Path(__file__).resolve().parent.parent / "games"


def naive_knuth_first_guess_scores() -> float:
    """Baseline: score the first guess of 4x6 for every guess with plain Python loops (no outcome table)."""
    codes = list(product(range(6), repeat=4))
    t = time.perf_counter()
    for guess in codes[:60]:  # a sample: all 1,296 would take about 20 times longer
        parts: dict[tuple[int, int], int] = {}
        for secret in codes:
            black = sum(g == s for g, s in zip(guess, secret, strict=True))
            common = sum(min(guess.count(c), secret.count(c)) for c in set(guess))
            parts[(black, common - black)] = parts.get((black, common - black), 0) + 1
    return (time.perf_counter() - t) * len(codes) / 60


def numpy_root_tallies(g: Game) -> float:
    """Baseline: every guess's part sizes at the start by NumPy, in blocks of the outcome table (`score_table`,
    512 guesses at a time, never the whole 1 GiB), as the tabled engine would have to."""
    codes = np.array([[ord(ch) - 65 for ch in label] for label in g.secrets], dtype=np.int8)
    k = len(g.outcome_names)
    t = time.perf_counter()
    for lo in range(0, len(codes), 512):
        block = score_table(codes[lo : lo + 512], codes, 8).astype(np.int64)
        block += k * np.arange(block.shape[0])[:, None]
        np.bincount(block.ravel(), minlength=block.shape[0] * k)
    return time.perf_counter() - t


def super_mastermind() -> None:
    """Mastermind 5x8, scored on demand: the start's tallies beside a NumPy baseline, then each heuristic's whole
    tree, verified."""
    g = build(parse((GAMES / "super-mastermind.game").read_text()))
    everything = np.arange(len(g.secrets))
    g.tallies(everything[:10])  # compiled (or loaded from Numba's cache) before timing
    t = time.perf_counter()
    g.tallies(everything)
    ours = time.perf_counter() - t
    base = numpy_root_tallies(g)
    print(
        f"Super Mastermind 5x8 (32,768 codes, no outcome table): every guess's parts at the start {ours:.2f} s "
        f"(1.07 G scores, {ours / len(g.secrets) ** 2 * 1e9:.1f} ns each) vs NumPy table blocks {base:.1f} s: "
        f"{base / ours:.0f}x"
    )
    for s in HEURISTICS:
        t = time.perf_counter()
        st = verify(g, build_tree(g, s))
        print(
            f"  {s:9}: worst {st.worst}, total {st.total:,}, average {float(st.average):.4f}, verified {st.verified},"
            f" tree + verification {time.perf_counter() - t:.1f} s"
        )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"  peak RSS of this process so far: {peak:.0f} MB")


def plain_optimal_total(pegs: int, colours: int) -> int:
    """Baseline: the least total by a plain-Python branch-and-bound on frozensets (memoised, every code tried at
    every node, a part of k codes bounded below by 2k - 1 guesses)."""
    codes = list(product(range(colours), repeat=pegs))
    score = {}
    for g in codes:
        for s in codes:
            black = sum(a == b for a, b in zip(g, s, strict=True))
            score[g, s] = (black, sum(min(g.count(c), s.count(c)) for c in set(g)) - black)
    memo: dict[frozenset[tuple[int, ...]], int] = {}

    def cost(alive: frozenset[tuple[int, ...]]) -> int:
        if len(alive) == 1:
            return 1
        if alive in memo:
            return memo[alive]
        best = 1 << 30
        for g in codes:
            parts: dict[tuple[int, int], set[tuple[int, ...]]] = {}
            for s in alive:
                if s != g:
                    parts.setdefault(score[g, s], set()).add(s)
            if (g not in alive and len(parts) == 1) or len(alive) + sum(2 * len(p) - 1 for p in parts.values()) >= best:
                continue
            total = len(alive)
            for p in parts.values():
                total += cost(frozenset(p))
                if total >= best:
                    break
            best = min(best, total)
        memo[alive] = best
        return best

    return cost(frozenset(codes))


def main() -> None:
    """Print the figures."""
    spec = parse((GAMES / "mastermind.game").read_text())
    t = time.perf_counter()
    g = build(spec)
    built = time.perf_counter() - t
    print(f"Mastermind 4x6: outcome table of 1,296 x 1,296 built in {built:.2f} s")
    for s in ("knuth", "expected", "entropy", "parts"):
        t = time.perf_counter()
        st = verify(g, build_tree(g, s))
        print(
            f"  {s:9}: worst {st.worst}, total {st.total}, average {float(st.average):.4f}, verified {st.verified},"
            f" tree + verification {time.perf_counter() - t:.2f} s" + (" (aim < 3 s)" if s == "knuth" else "")
        )
    print(f"  baseline: scoring the first move alone with plain loops: about {naive_knuth_first_guess_scores():.1f} s")
    super_mastermind()
    print("Optimal strategies (complete branch-and-bound, proved) beside a plain-Python frozenset search:")
    t = time.perf_counter()
    tiny = build(spec, {"length": 2, "colours": 3})
    for strategy in ("optimal-average", "optimal-worst"):
        build_tree(tiny, strategy)  # type: ignore[arg-type]
    print(f"  Numba compilation of the recursive search (once per process): {time.perf_counter() - t:.1f} s")
    for pegs, colours in ((3, 4), (4, 3), (2, 8), (2, 10)):
        gs = build(spec, {"length": pegs, "colours": colours})
        t = time.perf_counter()
        st = verify(gs, build_tree(gs, "optimal-average"))
        ours = time.perf_counter() - t
        t = time.perf_counter()
        plain = plain_optimal_total(pegs, colours)
        base = time.perf_counter() - t
        worst = verify(gs, build_tree(gs, "optimal-worst")).worst
        print(
            f"  Mastermind {pegs}x{colours}: optimal total {st.total} (plain search {plain}), worst case {worst}; "
            f"{ours:.3f} s vs plain {base:.2f} s: {base / ours:.0f}x"
        )
    for name, strategy, source in (
        ("mastermind", "optimal-worst", "5 (Knuth 1977)"),
        ("mastermind", "optimal-average", "5625 (Koyama and Lai 1993)"),
    ):
        gs = build(parse((GAMES / f"{name}.game").read_text()))
        t = time.perf_counter()
        st = verify(gs, build_tree(gs, strategy))  # type: ignore[arg-type]
        figure = st.worst if strategy == "optimal-worst" else st.total
        print(
            f"{name} 4x6 {strategy}: {figure} proved, verified {st.verified} "
            f"(published: {source}), {time.perf_counter() - t:.1f} s (compiled already)"
        )
    with tempfile.TemporaryDirectory() as empty:  # an empty result store: the whole search, from a cold process
        t = time.perf_counter()
        subprocess.run(
            [
                str(Path(sys.executable).parent / "coin-puzzles"),
                "codebreak",
                "mastermind",
                "--strategy",
                "optimal-average",
            ],
            check=True,
            capture_output=True,
            env={**os.environ, "COIN_PUZZLES_INSTANCE": empty},
        )
        print(
            f"  whole process: `coin-puzzles codebreak mastermind --strategy optimal-average` with an empty store "
            f"{time.perf_counter() - t:.1f} s (C++ solver, heuristic pruning, in the issue: 22.7 s)"
        )
    coins = parse((GAMES / "counterfeit-coin.game").read_text())
    for n in (4, 6, 8, 12, 13, 39, 40):
        t = time.perf_counter()
        gc = build(coins, {"count": n})  # above 8 coins: the optimal tree's weighings, generated up to symmetry
        st = verify(gc, build_tree(gc, "optimal-worst"))
        took = time.perf_counter() - t
        t = time.perf_counter()
        dedicated = min_weighings(Problem(n)).weighings
        print(
            f"counterfeit coin through the engine, {n} coins: {st.worst} weighings (proved, verified {st.verified}; "
            f"dedicated solver {dedicated}), {took:.3f} s with {len(gc.experiments):,} weighings in the table "
            f"(dedicated solver {time.perf_counter() - t:.4f} s)"
        )


def bulls_and_cows() -> None:
    """Bulls and Cows' optimal average (Tanaka 1996: 26,274 over 5,040 secrets), proved and verified; beside it,
    parts left by the first guess searched with and without the bound one experiment deeper on every open part
    (the search as it was before that bound: the baseline)."""
    g = build(parse((GAMES / "bulls-and-cows.game").read_text()))
    outcomes = g.dense()[0]
    sizes = np.bincount(outcomes)
    for size in (264, 360, 480):
        part = np.nonzero(outcomes == int(np.nonzero(sizes == size)[0][0]))[0].astype(np.int32)
        took = []
        for lookahead in (True, False):
            search = Search(g, worst=False, node_limit=10**12, lookahead=lookahead)
            search.average(part[:40], 10**9, after=0)  # compiled, and the symmetries built, before the clock
            t = time.perf_counter()
            cost = search.average(part, 10**9, after=0)
            took.append((cost, time.perf_counter() - t, search.work))
        (a, ta, wa), (b, tb, wb) = took
        print(
            f"Bulls and Cows, the first guess's part of {size} secrets: {a} guesses in {ta:.2f} s ({wa:,} secrets "
            f"in the sets searched); without the per-part bound {b} in {tb:.2f} s ({wb:,}): {tb / ta:.0f}x"
        )
    t = time.perf_counter()
    tree = build_tree(g, "optimal-average")
    searched = time.perf_counter() - t
    st = verify(g, tree)
    print(
        f"Bulls and Cows optimal average: {st.total} over {st.secrets:,} secrets = {float(st.average):.4f} proved, "
        f"verified {st.verified} (published: 26,274, Tanaka 1996); search and tree {searched:.0f} s, one core, "
        f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB"
    )


def with_and_without(search: Callable[[bool], Search]) -> tuple[tuple[int, float, int], ...]:
    """(cost, seconds, work) of a fresh search with a feature on, then off: the quicker of two alternated runs."""
    took: dict[bool, tuple[int, float, int]] = {}
    for on in (False, True, False, True):
        s = search(on)
        t = time.perf_counter()
        found = s.solve()
        run = (found.cost, time.perf_counter() - t, found.work)
        took[on] = min(took.get(on, run), run, key=lambda r: r[1])
    return took[True], took[False]


def worst_cases() -> None:
    """Optimal worst cases proved by the complete search, each beside the same search without the counting test
    one experiment deeper on the parts (`_splits`, the baseline), from a fresh search each time (compiled before
    the clock, the quicker of two alternated runs)."""
    games = (
        ("Mastermind 4x6", "mastermind", {}),
        ("Bulls and Cows", "bulls-and-cows", {}),
        ("black-peg Mastermind 4x4", "mastermind-black", {"length": 4, "colours": 4}),
        ("black-peg Mastermind 3x6", "mastermind-black", {"length": 3, "colours": 6}),
    )
    Search(build(parse((GAMES / "mastermind.game").read_text()), {"length": 2, "colours": 3}), worst=True).solve()
    for label, name, sizes in games:
        g = build(parse((GAMES / f"{name}.game").read_text()), sizes)
        (a, ta, wa), (b, tb, wb) = with_and_without(
            lambda on, g=g: Search(g, worst=True, node_limit=10**12, lookahead=on)
        )
        print(
            f"{label} optimal worst case: {a} guesses in {ta:.1f} s ({wa:,} secrets in the sets searched); without "
            f"the deeper test {b} in {tb:.1f} s ({wb:,}): {tb / ta:.1f}x"
        )


def place_symmetries() -> None:
    """Black-peg Mastermind's optimal searches with the place-by-place recolourings beside the same search with
    colour and position permutations only (the baseline), from a fresh search each time, compiled before the
    clock, the quicker of two alternated runs; then 4x5's and 4x6's worst cases and averages, proved and verified
    (the baseline is not run there: it took more than ten minutes on 4x5, and without these symmetries 4x6's eight
    guesses were unsettled after 34 minutes)."""
    black = parse((GAMES / "mastermind-black.game").read_text())
    Search(build(black, {"length": 2, "colours": 3}), worst=True).solve()
    Search(build(black, {"length": 2, "colours": 3}), worst=False).solve()
    for sizes in ({"length": 4, "colours": 4}, {"length": 3, "colours": 6}):
        g = build(black, sizes)
        for worst in (False, True):
            (a, ta, wa), (b, tb, wb) = with_and_without(
                lambda on, g=g, worst=worst: Search(g, worst=worst, node_limit=10**12, places=on)
            )
            what = "worst case" if worst else "total"
            print(
                f"black-peg {sizes['length']}x{sizes['colours']} optimal {what}: {a} in {ta:.2f} s ({wa:,} secrets "
                f"in the sets searched); colour and position permutations only: {b} in {tb:.2f} s ({wb:,}): "
                f"{tb / ta:.1f}x"
            )
    for sizes in ({"length": 4, "colours": 5}, {}):  # the baseline: more than ten minutes on 4x5
        g = build(black, sizes)
        for strategy in ("optimal-worst", "optimal-average"):
            t = time.perf_counter()
            st = verify(g, build_tree(g, strategy))
            print(
                f"black-peg {sizes.get('length', 4)}x{sizes.get('colours', 6)} {strategy}: worst {st.worst}, total "
                f"{st.total:,}, verified {st.verified}, search and tree {time.perf_counter() - t:.2f} s"
            )


if __name__ == "__main__":
    if "--bulls" in sys.argv:
        bulls_and_cows()
    elif "--worst" in sys.argv:
        worst_cases()
    elif "--places" in sys.argv:
        place_symmetries()
    else:
        main()

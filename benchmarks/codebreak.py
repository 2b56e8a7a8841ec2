"""Code-breaking benchmarks: Knuth's tree for 4x6 (aim < 3 s), every heuristic, Super Mastermind 5x8 scored on
demand, optimal values for small games.

Run with `python benchmarks/codebreak.py`; instead, `--bulls`: Bulls and Cows' optimal average (minutes);
`--worst`: the optimal worst cases beside the search without its deeper test (a minute or two); `--columns`: the
optimal averages of 4x7 and 5x5 with the bound one guess deeper read by columns beside by rows (about 5 minutes);
`--places`:
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

from benchmarks.record import Record  # noqa: E402
from solvers.codebreak import HEURISTICS, Game, build, build_tree, parse, verify  # noqa: E402
from solvers.codebreak.game import score_table  # noqa: E402
from solvers.codebreak.optimal.average_search import AverageSearch  # noqa: E402
from solvers.codebreak.optimal.table import Tuning  # noqa: E402
from solvers.codebreak.optimal.worst_search import WorstSearch  # noqa: E402
from solvers.weighing import Problem, min_weighings  # noqa: E402
from tests import oracle  # noqa: E402

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


RECORD = Record("codebreak")


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
    RECORD.row(
        "Super Mastermind 5x8 scored on demand (no 1 GiB table): every guess's parts at the start (1.07 G scores)",
        f"{ours:.2f} s ({ours / len(g.secrets) ** 2 * 1e9:.1f} ns a score)",
        f"{base:.1f} s: NumPy blocks of the outcome table (`score_table`, 512 guesses at a time)",
        f"{base / ours:.0f}x",
    )
    took = []
    for s in HEURISTICS:
        t = time.perf_counter()
        st = verify(g, build_tree(g, s))
        took.append(time.perf_counter() - t)
        assert st.verified
        print(f"  {s:9}: worst {st.worst}, total {st.total:,}, average {float(st.average):.4f}, {took[-1]:.1f} s")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    RECORD.row(
        f"Super Mastermind 5x8, each heuristic's tree built and verified on 32,768 codes ({' / '.join(HEURISTICS)})",
        " / ".join(f"{x:.1f} s" for x in took) + f" (peak RSS of the process {peak:.0f} MB)",
        target="minutes, as a job",
    )


def main() -> None:
    """Print the figures."""
    spec = parse((GAMES / "mastermind.game").read_text())
    t = time.perf_counter()
    g = build(spec)
    built = time.perf_counter() - t
    for s in ("knuth", "expected", "entropy", "parts"):
        t = time.perf_counter()
        st = verify(g, build_tree(g, s))
        took = time.perf_counter() - t
        assert st.verified
        print(f"  {s:9}: worst {st.worst}, total {st.total}, average {float(st.average):.4f}, {took:.2f} s")
        if s == "knuth":
            naive = naive_knuth_first_guess_scores()
            RECORD.row(
                f"Knuth's whole tree for Mastermind 4x6 (total {st.total:,}), built and verified",
                f"{took:.2f} s (+ {built:.2f} s for the outcome table)",
                f"about {naive:.1f} s just to score the first move with plain loops",
                f"{naive / took:.0f}x",
                "< 3 s",
            )
    super_mastermind()
    print("Optimal strategies (complete branch-and-bound, proved) beside a plain-Python frozenset search:")
    t = time.perf_counter()
    tiny = build(spec, {"length": 2, "colours": 3})
    for strategy in ("optimal-average", "optimal-worst"):
        build_tree(tiny, strategy)  # type: ignore[arg-type]
    print(f"  the recursive search's kernels loaded (or compiled): {time.perf_counter() - t:.1f} s")
    sizes, totals, ours_all, base_all = [], [], [], []
    for pegs, colours in ((3, 4), (4, 3), (2, 8), (2, 10)):
        gs = build(spec, {"length": pegs, "colours": colours})
        t = time.perf_counter()
        st = verify(gs, build_tree(gs, "optimal-average"))
        ours = time.perf_counter() - t
        t = time.perf_counter()
        plain = oracle.optimal_total(pegs, colours)
        base = time.perf_counter() - t
        worst = verify(gs, build_tree(gs, "optimal-worst")).worst
        assert st.total == plain and st.verified
        print(
            f"  Mastermind {pegs}x{colours}: optimal total {st.total}, worst {worst}; {ours:.3f} s, plain {base:.2f} s"
        )
        sizes.append(f"{pegs}x{colours}")
        totals.append(f"{st.total:,}")
        ours_all.append(ours)
        base_all.append(base)
    RECORD.row(
        f"optimal average, proved and verified: Mastermind {' / '.join(sizes)} ({' / '.join(totals)})",
        " / ".join(f"{x:.3f} s" for x in ours_all),
        " / ".join(f"{x:.2f} s" for x in base_all) + ": a plain-Python branch and bound over frozensets",
        " / ".join(f"{b / o:.0f}x" for o, b in zip(ours_all, base_all, strict=True)),
        "10x",
    )
    for name, strategy, source in (
        ("mastermind", "optimal-worst", "5 (Knuth 1977)"),
        ("mastermind", "optimal-average", "5625 (Koyama and Lai 1993)"),
    ):
        gs = build(parse((GAMES / f"{name}.game").read_text()))
        t = time.perf_counter()
        st = verify(gs, build_tree(gs, strategy))  # type: ignore[arg-type]
        figure = st.worst if strategy == "optimal-worst" else st.total
        assert st.verified
        RECORD.row(
            f"Mastermind 4x6 {strategy}: {figure:,} (published: {source}), proved, tree verified",
            f"{time.perf_counter() - t:.2f} s (kernels loaded before)",
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
        RECORD.row(
            "Mastermind 4x6 optimal average as a whole `coin-puzzles` process, empty result store",
            f"{time.perf_counter() - t:.1f} s",
        )
    counted, took_all = [], []
    coins = parse((GAMES / "counterfeit-coin.game").read_text())
    for n in (4, 6, 8, 12, 13, 39, 40):
        t = time.perf_counter()
        gc = build(coins, {"count": n})  # above 8 coins: the optimal tree's weighings, generated up to symmetry
        st = verify(gc, build_tree(gc, "optimal-worst"))
        took = time.perf_counter() - t
        t = time.perf_counter()
        dedicated = min_weighings(Problem(n)).weighings
        assert st.verified and st.worst == dedicated
        print(f"  counterfeit coin, {n} coins: {st.worst} weighings, {took:.3f} s, {len(gc.experiments):,} weighings")
        if n in (12, 13, 39, 40):
            counted.append(f"{n}")
            took_all.append(took)
    RECORD.row(
        f"counterfeit coin through the engine, {' / '.join(counted)} coins (proved, verified; as the dedicated solver)",
        " / ".join(f"{x:.3f} s" for x in took_all),
    )
    RECORD.save()


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
            search = AverageSearch(g, Tuning(node_limit=10**12, lookahead=lookahead))
            search.average(part[:40], 10**9)  # compiled, and the symmetries built, before the clock
            t = time.perf_counter()
            cost = search.average(part, 10**9)
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
    assert st.verified
    RECORD.row(
        f"Bulls and Cows optimal average {st.total:,}/{st.secrets:,} (Tanaka 1996), proved, tree verified",
        f"{searched:.0f} s, one core, peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB",
    )
    RECORD.save()


def with_and_without(search: Callable[[bool], AverageSearch | WorstSearch]) -> tuple[tuple[int, float, int], ...]:
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
    WorstSearch(build(parse((GAMES / "mastermind.game").read_text()), {"length": 2, "colours": 3})).solve()
    for label, name, sizes in games:
        g = build(parse((GAMES / f"{name}.game").read_text()), sizes)
        (a, ta, wa), (b, tb, wb) = with_and_without(
            lambda on, g=g: WorstSearch(g, Tuning(node_limit=10**12, lookahead=on))
        )
        assert a == b
        RECORD.row(
            f"{label} optimal worst case ({a}), proved",
            f"{ta:.2f} s ({wa:,} secrets in the sets searched)",
            f"{tb:.2f} s ({wb:,}): without the counting test one experiment deeper",
            f"{tb / ta:.1f}x",
        )
    RECORD.save()


def place_symmetries() -> None:
    """Black-peg Mastermind's optimal searches with the place-by-place recolourings beside the same search with
    colour and position permutations only (the baseline), from a fresh search each time, compiled before the
    clock, the quicker of two alternated runs; then 4x5's and 4x6's worst cases and averages, proved and verified
    (the baseline is not run there: it took more than ten minutes on 4x5, and without these symmetries 4x6's eight
    guesses were unsettled after 34 minutes)."""
    black = parse((GAMES / "mastermind-black.game").read_text())
    WorstSearch(build(black, {"length": 2, "colours": 3})).solve()
    AverageSearch(build(black, {"length": 2, "colours": 3})).solve()
    for sizes in ({"length": 4, "colours": 4}, {"length": 3, "colours": 6}):
        g = build(black, sizes)
        for worst in (False, True):
            (a, ta, wa), (b, tb, wb) = with_and_without(
                lambda on, g=g, worst=worst: (WorstSearch if worst else AverageSearch)(
                    g, Tuning(node_limit=10**12, places=on)
                )
            )
            what = "worst case" if worst else "total"
            assert a == b
            RECORD.row(
                f"black-peg Mastermind {sizes['length']}x{sizes['colours']} optimal {what} ({a}), proved",
                f"{ta:.2f} s ({wa:,} secrets in the sets searched)",
                f"{tb:.2f} s ({wb:,}): colour and position permutations only",
                f"{tb / ta:.1f}x",
            )
    for sizes in ({"length": 4, "colours": 5}, {}):  # the baseline: more than ten minutes on 4x5
        g = build(black, sizes)
        for strategy in ("optimal-worst", "optimal-average"):
            t = time.perf_counter()
            st = verify(g, build_tree(g, strategy))
            assert st.verified
            figure = f"{st.worst}" if strategy == "optimal-worst" else f"{st.total:,}"
            RECORD.row(
                f"black-peg Mastermind {sizes.get('length', 4)}x{sizes.get('colours', 6)} {strategy} ({figure}), "
                "proved, tree verified",
                f"{time.perf_counter() - t:.2f} s",
            )
    RECORD.save()


def by_columns() -> None:
    """Optimal averages proved with the bound one guess deeper counted along the table's columns (`rules.columns`),
    after the set's own members (`rules.apart`), beside the same search counting along its rows (the baseline), from
    a fresh search each time (one process, compiled before the clock; one run each, as each takes seconds)."""
    from solvers.codebreak.optimal import table as table_module
    from solvers.parallel import Execution, default_jobs

    AverageSearch(build(parse((GAMES / "mastermind.game").read_text()), {"length": 2, "colours": 3})).solve()
    for pegs, colours in ((4, 7), (5, 5)):
        g = build(parse((GAMES / "mastermind.game").read_text()), {"length": pegs, "colours": colours}).tabled()
        took = {}
        for wide in (False, True):
            table_module.COLUMNS_FROM = 1000 if wide else 1 << 30
            s = AverageSearch(g, Tuning(node_limit=10**12), run=Execution(default_jobs()))
            t = time.perf_counter()
            found = s.solve()
            took[wide] = (found.cost, time.perf_counter() - t)
        assert took[True][0] == took[False][0]
        RECORD.row(
            f"Mastermind {pegs}x{colours} optimal average ({took[True][0]:,}), proved on both cores: the bound one "
            "guess deeper by columns, members first",
            f"{took[True][1]:.1f} s",
            f"{took[False][1]:.1f} s by rows",
            f"{took[False][1] / took[True][1]:.1f}x",
        )
    RECORD.save()


if __name__ == "__main__":
    if "--bulls" in sys.argv:
        bulls_and_cows()
    elif "--columns" in sys.argv:
        by_columns()
    elif "--worst" in sys.argv:
        worst_cases()
    elif "--places" in sys.argv:
        place_symmetries()
    else:
        main()

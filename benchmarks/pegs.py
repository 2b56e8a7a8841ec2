"""Peg board benchmarks: full tables for sides 4 and 5 with counts, side 6 fewest moves, the English board.

Run with `python benchmarks/pegs.py` (`--english --french`: the listed problems' search against the former bound;
`--english-table` alone: the English board's 21 problems, about 15 minutes; `--french-problem HOLE FINISH
[--from-limit L] [--baseline]`: one French problem with its levels on disk, resumable, up to hours; with the same
search in memory beside it). Not part of `make test`.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from peg_dfs import find_solution  # noqa: E402
from record import Record  # noqa: E402

from solvers import pegs  # noqa: E402
from solvers.pegs import PROBLEMS, Exact, board, jumps_to_moves  # noqa: E402
from solvers.pegs.compiled import search, solve  # noqa: E402
from solvers.pegs.fewest import Means  # noqa: E402
from solvers.pegs.meet import fewest_meet  # noqa: E402
from solvers.pegs.report import peg_report  # noqa: E402
from solvers.pegs.rules import replay  # noqa: E402
from solvers.pegs.table import board_table  # noqa: E402

RECORD = Record("pegs")
HERE = Path(__file__).resolve().parent


def plain_count(name: str, label: str) -> int:
    """Baseline: count solutions by plain recursion without memo (side 4 only)."""
    b = board(name)

    def go(p: int) -> int:
        if p.bit_count() == 1:
            return 1
        return sum(go(pegs.apply_jump(p, j)) for j in pegs.legal_jumps(b, p))

    return go(b.start(label))


def python_bfs_fewest(b: pegs.Board, start: int) -> int | None:
    """Baseline: breadth-first search by moves, one position at a time, chains grown with a stack."""
    seen, frontier, depth = {start}, [start], 0
    while frontier:
        depth += 1
        nxt = []
        for p in frontier:
            for j in pegs.legal_jumps(b, p):
                stack = [(pegs.apply_jump(p, j), j[2])]
                while stack:
                    q, at = stack.pop()
                    if q not in seen:
                        seen.add(q)
                        if q.bit_count() == 1:
                            return depth
                        nxt.append(q)
                    stack += [(pegs.apply_jump(q, k), k[2]) for k in pegs.legal_jumps(b, q) if k[0] == at]
        frontier = nxt
    return None


def english_table() -> None:
    """Every listed English problem (all 21 single-vacancy to single-survivor problems up to symmetry) proved as the
    site's job proves it (`peg_report`), its solution replayed by the rules to one coin on the finish hole."""
    b = board("english")
    cells, longest, total = [], (0.0, ""), 0.0
    for hole, finish in PROBLEMS["english"]:
        t = time.perf_counter()
        r = peg_report(b, b.start(hole), hole, False, finish)
        took = time.perf_counter() - t
        moves = [tuple(b.index(x) for x in m) for m in r.solution]
        assert r.proved and r.min_moves == len(moves)
        assert replay(b, b.start(hole), moves) == 1 << b.index(finish)
        cells.append(f"{hole}-{finish} {r.min_moves}")
        print(f"{hole} to {finish}: {r.min_moves} moves, proved, replayed ({took:.1f} s)", flush=True)
        total, longest = total + took, max(longest, (took, f"{hole}-{finish}"))
    RECORD.row(
        "english, all 21 single-vacancy to single-survivor problems up to symmetry: fewest moves, proved, replayed",
        f"{' · '.join(cells)}; {total:.0f} s in all, the longest {longest[1]} ({longest[0]:.0f} s)",
    )


def french_problem(hole: str, finish: str, start_limit: int, baseline: bool) -> None:
    """One French problem proved as the site's job proves it (`peg_report` with its levels on disk), resumable:
    the levels are kept in benchmarks/checkpoints/pegs-search (a stopped run goes on from its last level), the
    solution replayed by the rules; the time is this run's (a resumed run's is the part since its restart). The
    search starts at start_limit when above the Merson bound (any start is a proof: see `fewest_meet`). baseline:
    then the same search with its levels in memory, in this process (the peak resident size is the process's, so
    the disk run goes first)."""
    import resource

    from webapp.results.peg_spill import spill_for

    b = board("french")
    spill = spill_for(HERE / "checkpoints", "french", f"{b.start(hole):x}", finish)
    resumed = spill.restore()
    t = time.perf_counter()
    last = [t]

    def tick(done: int, total: int) -> None:
        now = time.perf_counter()
        if now - last[0] > 60:
            print(f"  {done}/{total} levels, {now - t:.0f} s", flush=True)
            last[0] = now

    r = peg_report(b, b.start(hole), hole, False, finish, tick, Means(spill, 3_000_000_000, start_limit))
    took = time.perf_counter() - t
    moves = [tuple(b.index(x) for x in m) for m in r.solution]
    assert r.proved and r.min_moves == len(moves)
    assert replay(b, b.start(hole), moves) == 1 << b.index(finish)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    note = f", resumed at limit {resumed.limit}" if resumed else (f", from limit {start_limit}" if start_limit else "")
    print(f"french {hole} to {finish}: {r.min_moves} moves, proved, replayed ({took:.0f} s{note})")
    print(" ".join("-".join(m) for m in r.solution))
    spill.clear()
    base = ""
    if baseline:
        t = time.perf_counter()
        m = fewest_meet(b, b.start(hole), b.index(finish), start_limit=start_limit)
        assert m.moves == r.min_moves
        most = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        base = (
            f"{time.perf_counter() - t:.0f} s, peak RSS {most:,.0f} MB: the same search in memory ({m.nodes:,} states)"
        )
        print(base)
    RECORD.row(
        f"french, {hole} to {finish}: fewest moves, proved, replayed, levels on disk",
        f"{r.min_moves} moves in {took:.0f} s{note}, peak RSS {peak:,.0f} MB",
        base,
    )


def main() -> None:
    """Print the figures."""
    if "--french-problem" in sys.argv:
        at = sys.argv.index("--french-problem")
        start = int(sys.argv[sys.argv.index("--from-limit") + 1]) if "--from-limit" in sys.argv else 0
        french_problem(sys.argv[at + 1], sys.argv[at + 2], start, "--baseline" in sys.argv)
        RECORD.save()
        return
    if "--english-table" in sys.argv:
        english_table()
        RECORD.save()
        return
    t = time.perf_counter()
    for name in ("triangle-4", "triangle-5"):
        b, ex = board(name), Exact(board(name))
        total = sum(ex.count(b.start(label)) for label in b.labels)
        fewest = [ex.min_moves(b.start(label)) for label in b.labels]
        finals = [ex.finals(b.start(label)) for label in b.labels]
        print(
            f"{name}: {total:,} winning jump sequences over all starts; fewest moves per start {fewest}; "
            f"{sum(len(f) for f in finals)} (start, final) pairs"
        )
    took = time.perf_counter() - t
    t = time.perf_counter()
    counted = sum(plain_count("triangle-4", label) for label in board("triangle-4").labels)
    RECORD.row(
        "full tables of triangles 4 and 5 (fewest moves to every final, solution counts)",
        f"{took:.2f} s",
        f"side 4's counts alone ({counted:,}) by plain recursion: {time.perf_counter() - t:.3f} s",
        target="< 2 s",
    )
    b6 = board("triangle-6")
    t = time.perf_counter()
    m = Exact(b6).min_moves(b6.start("2"))
    fast = time.perf_counter() - t
    t = time.perf_counter()
    m2 = python_bfs_fewest(b6, b6.start("2"))
    slow = time.perf_counter() - t
    assert m == m2
    RECORD.row(
        f"triangle-6 from hole 2: fewest moves ({m}), every final's fewest too",
        f"{fast:.1f} s",
        f"{slow:.1f} s: the same breadth-first search position by position in plain Python (to the first final)",
        f"{slow / fast:.0f}x",
        "< 10 s",
    )
    eng = board("english")
    t = time.perf_counter()
    found = solve(eng, eng.start("d4"))
    took = time.perf_counter() - t
    moves = jumps_to_moves(found.jumps or ())
    RECORD.row(
        f"english, centre empty: any solution ({len(found.jumps or ())} jumps, {len(moves)} moves)",
        f"{took:.2f} s ({found.nodes:,} positions)",
        target="< 2 s",
    )
    compiled_figures()
    fewest_figures()
    RECORD.save()


def fewest_figures() -> None:
    """The bidirectional search by moves against the exact breadth-first layers (same board, same answer) on
    triangle-6, then the English centre game, with --english every other English start to its own hole (about 4
    minutes), with --french the French board's d2 to d6, each proved, each beside the same search with the
    former forward bound."""
    b6 = board("triangle-6")
    fewest_meet(b6, b6.start("2"), b6.index("2"))  # compile once
    for hole, finish in (("2", "2"), ("1", "13")):
        start = b6.start(hole)
        t = time.perf_counter()
        r = fewest_meet(b6, start, b6.index(finish))
        took = time.perf_counter() - t
        t = time.perf_counter()
        layers = Exact(b6).finals(start).get(b6.index(finish))
        base = time.perf_counter() - t
        assert r.moves == layers
        RECORD.row(
            f"triangle-6, hole {hole} to hole {finish}: fewest moves ({r.moves}) by bidirectional search, proved",
            f"{took:.2f} s ({r.nodes:,} states)",
            f"{base:.2f} s: exact breadth-first layers",
            f"{base / took:.0f}x",
        )
    problems = [("english", "d4", "d4", "Beasley 1985: 18")]
    if "--english" in sys.argv:  # every other listed English problem: a start finishing in its own hole
        problems += [("english", h, f, "no published figure checked") for h, f in PROBLEMS["english"][1:]]
    if "--french" in sys.argv:
        problems.append(("french", "d2", "d6", "no published figure checked"))
    for name, hole, finish, source in problems:
        b = board(name)
        t = time.perf_counter()
        r = fewest_meet(b, b.start(hole), b.index(finish))
        took = time.perf_counter() - t
        t = time.perf_counter()
        loose = fewest_meet(b, b.start(hole), b.index(finish), sharp=False)
        assert r.moves == loose.moves
        slow = time.perf_counter() - t
        RECORD.row(
            f"{name}, {hole} to {finish}: fewest moves ({r.moves}; {source}), proved",
            f"{took:.1f} s ({r.nodes:,} states)",
            f"{slow:.1f} s ({loose.nodes:,} states): the former forward bound (one subtracted at every state)",
            f"{slow / took:.1f}x",
        )


def compiled_figures() -> None:
    """The compiled search against the Python depth-first search (the same algorithm, jump order and symmetry
    table) on the English board without c1, then every start of the large boards decided."""
    eng = board("english")
    search(eng, eng.start("d4"), None, 10)  # compile once (Numba caches the machine code on disk)
    start = eng.start("c1")
    t = time.perf_counter()
    fast = search(eng, start)
    took = time.perf_counter() - t
    budget = 300_000
    t = time.perf_counter()
    slow = find_solution(eng, start, budget // 2)  # two jump orders, each with half the nodes
    slow_took = time.perf_counter() - t
    rate, slow_rate = fast.nodes / took, slow.nodes / slow_took
    RECORD.row(
        f"compiled depth-first search (Numba), english without c1 ({fast.status})",
        f"{rate / 1e6:.2f} M positions/s ({fast.nodes:,} positions, {took:.1f} s)",
        f"{slow_rate / 1e3:.0f} k positions/s: the same search in Python (benchmarks/peg_dfs.py)",
        f"{rate / slow_rate:.0f}x per position",
    )
    decided = []
    for name in ("english", "french", "triangle-7", "triangle-8"):
        t = time.perf_counter()
        rows = board_table(name)
        unknown = sum(r.solvable is None or r.home is None for r in rows)
        decided.append((name, time.perf_counter() - t, unknown))
    RECORD.row(
        f"every start of {' / '.join(n for n, _, _ in decided)} decided, finishing anywhere and in the start hole",
        " / ".join(f"{took:.1f} s" for _, took, _ in decided),
        target=f"no 'unknown' ({sum(u for *_, u in decided)} left)",
    )


if __name__ == "__main__":
    main()

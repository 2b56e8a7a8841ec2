"""Code-breaking benchmarks: Knuth's tree for 4x6 (aim < 3 s), every heuristic, optimal values for small games.

Run with `python benchmarks/codebreak.py`. Not part of `make test`.
"""

from __future__ import annotations

import sys
import time
from itertools import product
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solvers.codebreak import build, build_tree, parse, verify  # noqa: E402

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
    for pegs, colours in ((2, 3), (3, 3), (2, 4), (3, 4), (4, 3)):
        gs = build(spec, {"length": pegs, "colours": colours})
        for s in ("optimal-worst", "optimal-average"):
            t = time.perf_counter()
            st = verify(gs, build_tree(gs, s))
            print(
                f"Mastermind {pegs}x{colours} {s}: worst {st.worst}, total {st.total} ({st.average}), "
                f"{time.perf_counter() - t:.2f} s"
            )
    coins = parse((GAMES / "counterfeit-coin.game").read_text())
    for n in (4, 6):
        gc = build(coins, {"count": n})
        t = time.perf_counter()
        st = verify(gc, build_tree(gc, "optimal-worst"))
        print(f"counterfeit coin, {n} coins, optimal worst case: {st.worst} weighings, {time.perf_counter() - t:.2f} s")
    print(
        "optimal average for 4x6 (5625/1296, Koyama and Lai 1993): not reached; the search above is for games of up "
        "to 100 secrets"
    )


if __name__ == "__main__":
    main()

"""How the optimal-average proof grows with the game, measured, and what that says of the sizes not proved yet.

Measured: each certified size's proof on one process with its log on (`coin-puzzles certify`), in CPU seconds, as
`webapp/data/certificates/made.json` records it. Projected: for a size not proved, a power law in the number of
secrets, CPU = a * n^k, fitted (least squares on the logarithms) to the three largest measured sizes of the same
number of pegs of at least MIN_SECONDS (`webapp.commands.frontier.fit`, which make frontier's status projects with)
(7 pegs, with none measured: the sizes of the same number of colours). The wall time on 16 processes divides that
by the speed-up the scaling benchmark's clock simulation gave the largest size it ran (`benchmarks/scaling.py
--clock`: 4x8's, the schedule itself on a simulated clock, the parent's own searches counted). A projection, not a
bound: the growth from 4x8 to 4x9 was 24x where 4x7 to
4x8 was 8x, so a fit to three points can be off by a large factor either way.

    python benchmarks/growth.py           # print the table
    python benchmarks/growth.py --write   # and write it into docs/results.md (between its growth markers)

`tests/unit/test_growth.py` checks that docs/results.md holds what this prints.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from webapp.commands.frontier import MIN_SECONDS, fit, hours, measured  # noqa: E402

SCALING = ROOT / "docs" / "performance" / "scaling.json"
RESULTS = ROOT / "docs" / "results.md"
START, END = "<!-- growth: benchmarks/growth.py --write -->", "<!-- growth end -->"
TARGETS = ((4, 10), (3, 15), (3, 16), (3, 21), (5, 6), (5, 7), (6, 5), (7, 4))


def speedups() -> dict[int, tuple[float, str]]:
    """Processes -> (the speed-up the clock simulation gave, for which size) from the largest size it ran."""
    rows = []
    for r in json.loads(SCALING.read_text()):
        found = re.search(r"(\d+)x(\d+) .* on (\d+) processes, simulated on a clock", r["task"])
        if found:
            pegs, colours, jobs = (int(x) for x in found.groups())
            rows.append((colours**pegs, jobs, float(r["ours"].split("x:")[0]), f"{pegs}x{colours}"))
    return {jobs: (speed, size) for _, jobs, speed, size in sorted(rows)}


def table() -> str:
    """The measured sizes and the projections, as markdown."""
    points = measured()
    lines = [
        "| size | secrets | proof on one process, CPU | growth from the size before (same pegs) |",
        "|---|---|---|---|",
    ]
    for pegs in sorted({p for p, _ in points}):
        family = sorted((c, s) for (p, c), s in points.items() if p == pegs and s >= MIN_SECONDS)
        for i, (c, s) in enumerate(family):
            before = f"{s / family[i - 1][1]:.1f}x from {pegs}x{family[i - 1][0]}" if i else ""
            lines.append(f"| {pegs}x{c} | {c**pegs:,} | {s:,.1f} s | {before} |")
    wide = speedups()
    heads = " | ".join(f"wall on {n} processes ({wide[n][0]:.1f}x, {wide[n][1]}'s clock simulation)" for n in wide)
    lines += [
        "",
        f"| size | secrets | projected CPU, one process | {heads} | fitted to |",
        "|---|---|---|" + "---|" * (len(wide) + 1),
    ]
    for pegs, colours in TARGETS:
        if (pegs, colours) in points:
            continue
        same = {pc: s for pc, s in points.items() if pc[0] == pegs}
        f = fit(same) or fit({pc: s for pc, s in points.items() if pc[1] == colours})
        n = colours**pegs
        if f is None:  # said, not left out
            lines.append(
                f"| {pegs}x{colours} | {n:,} | not projected: fewer than two sizes of {pegs} pegs (or of {colours} "
                f"colours) measured at {MIN_SECONDS:g} s or more |" + " |" * (len(wide) + 1)
            )
            continue
        cpu = f.seconds(n)
        cells = " | ".join(hours(cpu / wide[k][0]) for k in wide)
        sizes = ", ".join(f"{p}x{c}" for p, c in f.sizes)
        lines.append(f"| {pegs}x{colours} | {n:,} | {hours(cpu)} | {cells} | {sizes}: n^{f.power:.2f} |")
    return "\n".join(lines)


def main() -> None:
    text = table()
    print(text)
    if "--write" in sys.argv:
        doc = RESULTS.read_text()
        head, rest = doc.split(START, 1)
        _, tail = rest.split(END, 1)
        RESULTS.write_text(f"{head}{START}\n{text}\n{END}{tail}")


if __name__ == "__main__":
    main()

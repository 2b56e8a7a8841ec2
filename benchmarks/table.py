"""Render docs/performance.md from the rows the benchmark scripts recorded (docs/performance/*.json; see
`record.py`). `make bench` runs it after the scripts.

    python benchmarks/table.py
"""

from __future__ import annotations

import json

from record import FOLDER, ROOT, Row

SCRIPTS = (  # (script, section title), in `make bench` order
    ("startup", "Start-up: whole command-line processes"),
    ("crawl", "Web: the site as `make run` serves it"),
    ("complete", "A fresh install: what it ships proved, and no request waiting on a search"),
    ("web", "Web under load: every page kind through gunicorn and through nginx, cold and cached"),
    ("coins", "Counterfeit coin"),
    ("adversary", "Weigh against an adversary"),
    ("aequitas", "Æquitas"),
    ("devil", "The Devil's blindfold game"),
    ("pegs", "Peg solitaire"),
    ("codebreak", "Code-breaking"),
    ("hints", "Code-breaking hints"),
    ("lessons", "What a guess was worth (the hint that teaches)"),
    ("guess_cost", "What a guess was worth, over a fixed sample of games, as the site answers it"),
    ("scaling", "Proofs on several processes: measured on two, simulated on more"),
    ("pause", "A proof stopped part-way (SIGTERM) and run again: how soon it stops, what the next run searches"),
    ("table_size", "A long proof against the size of its table of proved sets (minutes: not in `make bench`)"),
    ("cluster", "Proofs on a Ray cluster of this machine, beside forked processes (not in `make bench`)"),
    ("engines", "Distributed engines on the proof's tasks (the `engines` extra; not in `make bench`)"),
    ("certificates", "Certificates of the optima: made by the search, confirmed by the independent checker"),
    ("variants", "Weighing variants"),
    ("store", "Result store"),
    ("optima", "Mastermind's proved optima, size by size (hours: run on its own, not by `make bench`)"),
    ("optima-possible", "Mastermind's proved optima guessing possible codes only (and Super Mastermind's: `--super`)"),
    ("optima-site", "The long proofs as `make precompute` stores them, from their snapshots in git"),
    ("super-tree", "Super Mastermind's tree improved by optimal search below it (an upper bound, not a proof)"),
)
COMMANDS = {  # rows written by another script, or by a script's option
    "optima-possible": "benchmarks/optima.py --possible-only",
    "optima-site": "benchmarks/optima.py --site-job PxC|super",
    "super-tree": "benchmarks/polish.py",
    "cluster": "benchmarks/scaling.py --cluster",
}
INTRO = """# Performance

Every figure here was printed by a script in `benchmarks/` (`make bench` runs them all, then renders this page
from the rows they recorded in `docs/performance/*.json`; do not edit it by hand). Each row says where and when it
was measured: the machine (listed below), the date, the commit (a `+` when solvers/ or webapp/ had changes) and,
where recorded, the 1-minute load average at that moment (above the core count: other work shared the cores). A
baseline is a simpler program run in the same process or the same script run, so a ratio compares like with like.
Results that are proofs (the optimum of a game, the fewest moves of a peg problem) are in
[results.md](results.md) with how long they took.
"""


def cell(text: str) -> str:
    """Text safe inside a table cell."""
    return text.replace("|", "\\|").replace("\n", " ")


def render() -> str:
    """The whole page."""
    sections: list[tuple[str, str, list[Row]]] = []
    for script, title in SCRIPTS:
        path = FOLDER / f"{script}.json"
        if path.exists():
            sections.append((script, title, [Row(**r) for r in json.loads(path.read_text())]))
    machines: dict[str, str] = {}
    for _, _, rows in sections:
        for r in rows:
            machines.setdefault(r.machine, chr(ord("A") + len(machines)))
    out = [INTRO, "Machines:", ""]
    out += [f"- **{letter}**: {name}" for name, letter in machines.items()]
    for script, title, rows in sections:
        source = COMMANDS.get(script, f"benchmarks/{script}.py")
        out += ["", f"## {title} (`{source}`)", ""]
        out += [
            "| task | coin-puzzles | baseline in the same run | ratio | target | measured |",
            "|---|---|---|---|---|---|",
        ]
        for r in rows:
            when = f"{machines[r.machine]}, {r.date}" + (f", {r.commit}" if r.commit else "")
            when += f", load {r.load}" if r.load else ""
            out.append(f"| {' | '.join(cell(x) for x in (r.task, r.ours, r.baseline, r.ratio, r.target, when))} |")
    return "\n".join(out) + "\n"


def main() -> None:
    """Write docs/performance.md."""
    target = ROOT / "docs" / "performance.md"
    target.write_text(render())
    print(f"wrote {target.relative_to(ROOT)}")


if __name__ == "__main__":
    main()

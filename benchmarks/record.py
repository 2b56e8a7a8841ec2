"""The performance table's rows, recorded by the benchmark scripts as they run.

Each script makes one `Record` and calls `row` for each figure it reports: the row is printed and, when the script
ends (`save`), written to `docs/performance/<script>.json` with the machine, the date and the commit it was
measured on. A row replaces the earlier row of the same task; rows the run did not measure (a part behind a flag)
keep their own machine and date. `benchmarks/table.py` renders docs/performance.md from those files, so every
figure in the table is one that a script printed.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "docs" / "performance"


@dataclass(frozen=True)
class Row:
    """One figure: the task, our time, the baseline in the same run, their ratio and the target, all as text;
    with where and when it was measured."""

    task: str
    ours: str
    baseline: str = ""
    ratio: str = ""
    target: str = ""
    machine: str = ""
    date: str = ""
    commit: str = ""
    load: str = ""  # the machine's 1-minute load average when the row was recorded (other work running shows here)


def machine() -> str:
    """The processor's model, the cores, the memory and Python, as one line."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
        pages = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        memory = f", {pages / 2**30:.0f} GiB"
    except (OSError, ValueError):
        memory = ""
    return f"{model}, {os.cpu_count()} cores{memory}, Python {platform.python_version()}"


def commit() -> str:
    """The commit measured (with a + when the checkout has changes), or '' outside git."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "solvers", "webapp"], cwd=ROOT, capture_output=True, text=True
        )
    except OSError:
        return ""
    return head.stdout.strip() + ("+" if dirty.stdout.strip() else "")


class Record:
    """The rows of one script's run."""

    def __init__(self, script: str) -> None:
        self.script = script
        self.rows: list[Row] = []
        self.where, self.when, self.what = machine(), time.strftime("%Y-%m-%d"), commit()

    def row(self, task: str, ours: str, baseline: str = "", ratio: str = "", target: str = "") -> None:
        """Print a figure and keep it for the table."""
        print(
            f"{task}: {ours}"
            + "".join(f"; {k} {v}" for k, v in (("baseline", baseline), ("ratio", ratio), ("target", target)) if v),
            flush=True,
        )
        load = f"{os.getloadavg()[0]:.1f}"
        self.rows.append(Row(task, ours, baseline, ratio, target, self.where, self.when, self.what, load))

    def save(self) -> Path:
        """Write the rows into the script's file, replacing the earlier rows of the same tasks."""
        path = FOLDER / f"{self.script}.json"
        old = [Row(**r) for r in json.loads(path.read_text())] if path.exists() else []
        fresh = {r.task for r in self.rows}
        merged = [r for r in old if r.task not in fresh]
        order = {r.task: i for i, r in enumerate(old)}
        rows = sorted([*merged, *self.rows], key=lambda r: order.get(r.task, len(order)))
        FOLDER.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps([asdict(r) for r in rows], indent=1, ensure_ascii=False) + "\n")
        return path

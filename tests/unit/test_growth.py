"""docs/results.md's growth table is what `benchmarks/growth.py` prints from the recorded figures now (run as a
command: tests import nothing from benchmarks/), and the fit it and `make frontier` project with is a
least-squares power law (checked on points that lie on one exactly)."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

from webapp.commands.frontier import fit

ROOT = Path(__file__).resolve().parents[2]
START, END = "<!-- growth: benchmarks/growth.py --write -->", "<!-- growth end -->"


def test_the_documented_growth_table_is_current() -> None:
    printed = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "growth.py")], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout
    doc = (ROOT / "docs" / "results.md").read_text()
    between = doc.split(START, 1)[1].split(END, 1)[0]
    assert between.strip() == printed.strip()
    assert "projected CPU" in between


def test_the_fit_recovers_a_power_law() -> None:
    points = {(3, c): 2e-9 * (c**3) ** 3.5 for c in (10, 11, 12, 13)}
    f = fit(points)
    assert f is not None and f.sizes == ((3, 11), (3, 12), (3, 13))  # the three largest
    assert math.isclose(f.power, 3.5) and math.isclose(f.seconds(15**3), 2e-9 * (15**3) ** 3.5)
    assert fit({(3, 10): 5.0}) is None  # one point fits nothing

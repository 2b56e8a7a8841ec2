"""docs/results.md's growth table is what `benchmarks/growth.py` makes from the recorded figures now, and its fit
is a least-squares power law (checked on points that lie on one exactly)."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def growth() -> ModuleType:
    spec = importlib.util.spec_from_file_location("growth", ROOT / "benchmarks" / "growth.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_documented_growth_table_is_current() -> None:
    g = growth()
    doc = (ROOT / "docs" / "results.md").read_text()
    between = doc.split(g.START, 1)[1].split(g.END, 1)[0]
    assert between.strip() == g.table().strip()
    assert "projected CPU" in between


def test_the_fit_recovers_a_power_law() -> None:
    g = growth()
    points = {(3, c): 2e-9 * (c**3) ** 3.5 for c in (10, 11, 12, 13)}
    f = g.fit(points)
    assert f.sizes == ((3, 11), (3, 12), (3, 13))  # the three largest
    assert math.isclose(f.power, 3.5) and math.isclose(f.seconds(15**3), 2e-9 * (15**3) ** 3.5)
    assert g.fit({(3, 10): 5.0}) is None  # one point fits nothing

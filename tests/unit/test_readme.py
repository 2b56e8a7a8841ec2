"""Figures the documentation states about this engine's own results are recomputed here, so they cannot drift."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from solvers.aequitas.report import table_report

AEQUITAS = (Path(__file__).resolve().parents[2] / "docs" / "puzzles" / "aequitas.md").read_text()


def number(text: str) -> int:
    """'1,809' -> 1809."""
    return int(text.replace(",", ""))


@pytest.mark.slow
def test_aequitas_agreement_counts_in_the_docs() -> None:
    """'x of y cells agree against z for the other' is what the table for N <= 30 computes."""
    m = re.search(r"([\d,]+) of ([\d,]+) cells agree against\s+([\d,]+) for the other", AEQUITAS)
    assert m, "docs/puzzles/aequitas.md no longer states the agreement counts"
    agreement = table_report(30).agreement
    paper, other = agreement["misere-stop-before-reveal"], agreement["misere-last-mover-loses"]
    assert (paper.agree, paper.cells, other.agree) == (number(m[1]), number(m[2]), number(m[3]))


def test_the_readme_states_no_timings() -> None:
    """Every timing and speed-up lives once, in docs/performance.md (written by the benchmarks); the README links to
    it and states none of its own, so none can go stale there."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    timings = re.findall(r"\b\d[\d,.]*\s?(?:ms|s|seconds|minutes|hours|x)\b", readme)
    assert timings == [], timings
    assert "docs/performance.md" in readme

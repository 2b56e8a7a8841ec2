"""The thresholds the docs quote are the code's: a number followed closely by a constant's name in backticks (as in
"games of 2,000 secrets or more: `PARALLEL_FROM`") must be that constant's value, for every constant of solvers/
and webapp/ assigned a plain number (the docs once said 1,000 where the code said 2,000)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
QUOTED = re.compile(r"(\d[\d,]*(?:\.\d+)?)[^`\n(]{0,30}\(?`([A-Z][A-Z0-9_]{3,})`")


def constants(root: Path) -> dict[str, set[float]]:
    """Each top-level constant of solvers/ and webapp/ assigned a plain number, with its value (a set: the code
    defines each name once, `test_code_shape`, but a planted copy would show as two)."""
    out: dict[str, set[float]] = {}
    for path in sorted([*(root / "solvers").rglob("*.py"), *(root / "webapp").rglob("*.py")]):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                try:
                    value = ast.literal_eval(node.value)
                except ValueError:
                    continue
                if isinstance(value, int | float) and not isinstance(value, bool):
                    out.setdefault(node.targets[0].id, set()).add(float(value))
    return out


def misquoted(root: Path) -> list[str]:
    """The docs' quotes of a constant that say another number than the code."""
    known = constants(root)
    out = []
    for doc in sorted([*(root / "docs").rglob("*.md"), root / "README.md"]):
        if not doc.exists():
            continue
        for m in QUOTED.finditer(doc.read_text(encoding="utf-8")):
            number, name = float(m.group(1).replace(",", "")), m.group(2)
            if name in known and number not in known[name]:
                out.append(f"{doc.relative_to(root)}: {m.group(0)!r} but {name} is {sorted(known[name])}")
    return out


def test_the_docs_quote_the_codes_thresholds() -> None:
    assert sum(1 for doc in (ROOT / "docs").rglob("*.md") for _ in QUOTED.finditer(doc.read_text())) >= 3
    assert misquoted(ROOT) == []


def test_a_misquoted_threshold_is_found(tmp_path: Path) -> None:
    (tmp_path / "solvers").mkdir()
    (tmp_path / "webapp").mkdir()
    (tmp_path / "docs").mkdir()
    (tmp_path / "solvers" / "a.py").write_text("PARALLEL_FROM = 2000\nNAME = 'x'\n")
    (tmp_path / "docs" / "d.md").write_text(
        "games of 1,000 codes or more (`PARALLEL_FROM`) fork; 2,000 codes, `PARALLEL_FROM`; 3 `NAME`\n"
    )
    assert misquoted(tmp_path) == ["docs/d.md: '1,000 codes or more (`PARALLEL_FROM`' but PARALLEL_FROM is [2000.0]"]

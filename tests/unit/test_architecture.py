"""docs/architecture.md names only what exists: every file or folder it names in backticks is there, and every name
(a function, class, method, constant or module, bare or dotted) is defined in solvers/ or webapp/, so the requests it
follows through the rooms cannot drift from the code."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "architecture.md"
IDENTIFIER = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")
# backticked words that are neither paths nor Python names of ours: commands, types and values from elsewhere
NOT_OURS = {"make", "nginx", "gunicorn", "coin-puzzles", "P", "R", "Pending", "int", "bool"}


def defined_names() -> set[str]:
    """Every module, function, class, method and module-level constant of solvers/ and webapp/."""
    names: set[str] = set()
    for package in ("solvers", "webapp"):
        for path in (ROOT / package).rglob("*.py"):
            names.update(path.relative_to(ROOT).with_suffix("").parts)
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    names.add(node.name)
                elif isinstance(node, ast.Assign):
                    names.update(t.id for t in node.targets if isinstance(t, ast.Name))
                elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                    names.add(node.target.id)
    return names


def named(text: str) -> tuple[list[str], list[str]]:
    """(the paths, the Python names) a text names in backticks."""
    paths, names = [], []
    for token in re.findall(r"`([^`\n]+)`", text):
        token = token.strip()
        if "/" in token or re.fullmatch(r"[\w.-]+\.(py|html|conf|md|toml)", token):
            if "<" not in token and "*" not in token and not token.startswith(("/", "GET ", "http")):
                paths.append(token.split()[0].rstrip(":,"))
        elif IDENTIFIER.fullmatch(token) and token not in NOT_OURS:
            names.append(token)
    return paths, names


def test_every_path_the_architecture_names_exists() -> None:
    """Every path, but a folder the tests make that git ignores (`screenshots/`: absent in a fresh clone until a
    browser test saves one, which this test may run before)."""
    paths, _ = named(DOC.read_text())
    assert len(paths) > 30
    made = set((ROOT / ".gitignore").read_text().split())
    missing = [p for p in paths if not (ROOT / p).exists() and not (p.endswith("/") and p in made)]
    assert missing == []


def test_every_name_the_architecture_names_is_defined() -> None:
    """Each name is defined somewhere (an environment variable: read somewhere); a name right after a file's path
    (`path.py` `name`) is defined in that very file."""
    text = DOC.read_text()
    _, names = named(text)
    known = defined_names()
    assert len(names) > 40
    sources = "".join(p.read_text() for package in ("solvers", "webapp") for p in (ROOT / package).rglob("*.py"))
    missing = sorted(
        {
            n
            for n in names
            if not (f'"{n}"' in sources if n.startswith("COIN_PUZZLES_") else all(p in known for p in n.split(".")))
        }
    )
    assert missing == []
    pairs = re.findall(r"`([\w/]+\.py)` `([A-Za-z_]\w*)`", text)
    assert len(pairs) > 10
    assert [(path, name) for path, name in pairs if name not in defined_in(ROOT / path)] == []


def defined_in(path: Path) -> set[str]:
    """The functions, classes, methods and module-level names one file defines."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            out.add(node.name)
        elif isinstance(node, ast.Assign):
            out.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return out


def test_the_check_sees_a_stale_name() -> None:
    """A renamed function or a moved file in the text is caught."""
    paths, names = named("`webapp/results.py` `fetch_it` and `webapp/jobs/access.py` `computed`")
    assert [p for p in paths if not (ROOT / p).exists()] == ["webapp/results.py"]
    assert [n for n in names if n not in defined_names()] == ["fetch_it"]

"""The web side's rooms: `webapp/` is packages whose names say their job, and imports go one way only. Pages sit
above keys, keys above jobs, jobs above results, results above http, http above the store, and everything above
`config`; nothing imports pages or commands but the app factory (`webapp/__init__.py`), which assembles the app.
Each room's `__init__` docstring says what it owns and which rooms it may import. The checker is shown to fail on a
planted violation."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# each room and the rooms it may import (besides itself): the order of the layers, top to bottom
MAY_IMPORT = {
    "factory": {"commands", "pages", "keys", "jobs", "results", "http", "store", "config"},
    "commands": {"keys", "jobs", "results", "http", "store", "config"},
    "pages": {"keys", "jobs", "results", "http", "store", "config"},
    "keys": {"jobs", "results", "http", "store", "config"},
    "jobs": {"results", "http", "store", "config"},
    "results": {"http", "store", "config"},
    "http": {"store", "config"},
    "store": {"config"},
    "config": set(),
}
ROOMS = {"commands", "pages", "keys", "jobs", "results", "http", "store"}


def room_of(parts: tuple[str, ...]) -> str:
    """The room of a module named by its dotted parts under webapp ('webapp', 'pages', 'coins' -> 'pages')."""
    if len(parts) >= 2 and parts[1] in ROOMS:
        return parts[1]
    if len(parts) >= 2 and parts[1] == "config":
        return "config"
    return "factory"


def imported(tree: ast.Module, own: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The webapp modules a module imports, anywhere in it (at its top or inside a function), as dotted parts."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [tuple(a.name.split(".")) for a in node.names if a.name.split(".")[0] == "webapp"]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = own[: len(own) - node.level]
                module = (*base, *(node.module.split(".") if node.module else ()))
            else:
                module = tuple((node.module or "").split("."))
            if module[0] != "webapp":
                continue
            if len(module) == 1:  # from webapp import pages, config, create_app: each name its own room
                out += [("webapp", a.name) for a in node.names]
            else:
                out.append(module)
    return out


def violations(root: Path) -> list[str]:
    """Every import that goes against the rooms' order, as 'module -> imported (room -> room)'."""
    found = []
    for path in sorted((root / "webapp").rglob("*.py")):
        rel = path.relative_to(root).with_suffix("")
        own = tuple(rel.parts[:-1]) if rel.name == "__init__" else tuple(rel.parts)
        room = room_of(own)
        package = own if rel.name == "__init__" else own[:-1]
        for target in imported(ast.parse(path.read_text()), (*package, "_")):
            other = room_of(target)
            if other != room and other not in MAY_IMPORT[room]:
                found.append(f"{'.'.join(own)} -> {'.'.join(target)} ({room} -> {other})")
    return found


def test_imports_go_one_way_between_rooms() -> None:
    """No module imports a room above its own (nor pages or commands, but the app factory)."""
    assert violations(ROOT) == []


def test_each_room_is_a_package_that_says_what_it_owns() -> None:
    """Every room is a package of webapp/ with a docstring naming what it may import, and no module of the app is
    left loose in webapp/ but the factory and the settings."""
    for room in ROOMS:
        init = ROOT / "webapp" / room / "__init__.py"
        doc = ast.get_docstring(ast.parse(init.read_text())) or ""
        assert "May import" in doc, room
    loose = sorted(p.name for p in (ROOT / "webapp").glob("*.py"))
    assert loose == ["__init__.py", "config.py"]


def plant(root: Path, files: dict[str, str]) -> None:
    """Write a planted tree of modules under root (path -> source), folders made as needed."""
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def test_the_checker_finds_a_planted_violation(tmp_path: Path) -> None:
    """A store module importing a page, a results module importing keys by a relative import, and one importing
    the jobs room above it, are found."""
    plant(tmp_path, {f"webapp/{room}/__init__.py": '"""May import: config."""\n' for room in ROOMS})
    plant(
        tmp_path,
        {
            "webapp/__init__.py": "from webapp.pages import coins\n",  # the factory may
            "webapp/pages/coins.py": "from webapp.store import base\n",  # downwards: fine
            "webapp/store/base.py": "def f():\n    from webapp.pages.coins import bp\n",
            "webapp/results/games.py": "from ..keys import secretbox\n",
            "webapp/results/cluster.py": "from webapp.jobs.queues import Queues\n",
        },
    )
    assert violations(tmp_path) == [
        "webapp.results.cluster -> webapp.jobs.queues (results -> jobs)",
        "webapp.results.games -> webapp.keys (results -> keys)",
        "webapp.store.base -> webapp.pages.coins (store -> pages)",
    ]


MOST_POSITIONAL = 6  # arguments a call in webapp/ may pass by position: view models and reports are built by keyword


def positional_calls(root: Path) -> list[str]:
    """Every call in webapp/ passing more than MOST_POSITIONAL arguments by position, as 'path:line callee'."""
    found = []
    for path in sorted((root / "webapp").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and len(node.args) > MOST_POSITIONAL:
                found.append(f"{path.relative_to(root)}:{node.lineno} {ast.unparse(node.func)}")
    return found


def test_view_models_are_built_by_keyword(tmp_path: Path) -> None:
    """No call in webapp/ passes more than six arguments by position (a planted one is found)."""
    assert positional_calls(ROOT) == []
    (tmp_path / "webapp").mkdir()
    (tmp_path / "webapp" / "v.py").write_text("View(1, 2, 3, 4, 5, 6, 7)\nView(1, 2, 3, 4, 5, 6, g=7)\n")
    assert positional_calls(tmp_path) == ["webapp/v.py:1 View"]


# The deliberate lazy imports of webapp/: the modules that may import inside a function, and why. Every other
# module imports at its top.
LAZY = {
    "webapp/__init__.py": "Flask and the pages load only when an app is built: the command line never pays for them",
    "webapp/commands/cli.py": "each subcommand imports only its own solver, so that a command starts fast",
    "webapp/commands/admin.py": "the same for the site's commands (serve, worker, precompute, keys, certify)",
    "webapp/results/cluster.py": "Ray (a dependency, heavy to import) is loaded only when a proof joins a cluster",
    "webapp/jobs/warm.py": "the warm-up loads each compiled kernel in turn, and says how long each took",
    "webapp/results/codebreak_results.py": "the compiled search (Numba kernels) only in the job that proves",
    "webapp/pages/gamebar.py": "segno only for the pages that draw a QR code",
    "webapp/store/__init__.py": "the Redis backend only where a Redis is configured",
    "webapp/store/redis.py": "the same: the redis client only where a Redis is configured",
}


def lazy_importers(root: Path) -> set[str]:
    """The modules of webapp/ with an import inside a function (an import under `if TYPE_CHECKING` is at the top)."""
    out = set()
    for path in (root / "webapp").rglob("*.py"):
        tree = ast.parse(path.read_text())
        inside = [n for f in ast.walk(tree) if isinstance(f, ast.FunctionDef) for n in ast.walk(f)]
        if any(isinstance(n, ast.Import | ast.ImportFrom) for n in inside):
            out.add(str(path.relative_to(root)))
    return out


def test_imports_are_at_the_top_but_a_documented_few(tmp_path: Path) -> None:
    """Only the modules LAZY lists (each with its reason) import inside a function, and each of them still does
    (no stale entry); a planted lazy import elsewhere is found."""
    assert lazy_importers(ROOT) == set(LAZY)
    (tmp_path / "webapp").mkdir()
    (tmp_path / "webapp" / "late.py").write_text("def f():\n    import json\n")
    (tmp_path / "webapp" / "early.py").write_text("import json\nfrom typing import TYPE_CHECKING\n")
    assert lazy_importers(tmp_path) == {"webapp/late.py"}


SHARED_PAGES = {"gamebar", "puzzle", "registry"}  # what every puzzle's pages may import from webapp/pages/


def pages_importing_pages(root: Path) -> list[str]:
    """Puzzle pages that import another puzzle's page (what two puzzles share lives in gamebar, params or results);
    a module named after its puzzle (`codebreak_plan`) may import that puzzle's, and the registry every puzzle's."""
    out = []
    for path in sorted((root / "webapp" / "pages").glob("*.py")):
        if path.stem in SHARED_PAGES | {"__init__", "main", "presets"}:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module == "webapp.pages":  # from webapp.pages import x
                names += [f"webapp.pages.{a.name}" for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names.append(node.module or "")
            for other in {n.split(".")[2] for n in names if n.startswith("webapp.pages.")}:
                if other not in SHARED_PAGES and not path.stem.startswith(f"{other}_"):
                    out.append(f"{path.name} imports {other}")
    return out


def test_no_puzzles_page_imports_another_puzzles(tmp_path: Path) -> None:
    """The Æquitas page read the adversary's weighings and the plan navigator the variants' plans from their pages;
    both now come from webapp/http/params.py and webapp/jobs/variant_plans.py (a planted import is found)."""
    assert pages_importing_pages(ROOT) == []
    plant(
        tmp_path,
        {
            "webapp/pages/aequitas.py": "from webapp.pages.adversary import weighings_arg\n",
            "webapp/pages/codebreak_plan.py": "from webapp.pages.codebreak import api\n",
            "webapp/pages/coins.py": "from webapp.pages import variants\n",
            "webapp/pages/devil.py": "import webapp.pages.pegs\n",
        },
    )
    assert pages_importing_pages(tmp_path) == [
        "aequitas.py imports adversary",
        "coins.py imports variants",
        "devil.py imports pegs",
    ]

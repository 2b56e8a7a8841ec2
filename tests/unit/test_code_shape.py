"""The code stays readable by imports and calls alone (docs/style.md): no module over 450 lines in `solvers/`,
`webapp/`, `tests/` and `benchmarks/`; in `solvers/` and `webapp/` no function over 60 lines or 8 parameters, each
top-level class or type name defined in one module only, and no module loaded by a string (`importlib`, a module
`__getattr__`)."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAX_MODULE_LINES, MAX_FUNCTION_LINES, MAX_PARAMETERS = 450, 60, 8


def sources(root: Path) -> dict[str, ast.Module]:
    """Every module of solvers/ and webapp/ under root, parsed, by its path."""
    return {
        str(path.relative_to(root)): ast.parse(path.read_text(encoding="utf-8"))
        for package in ("solvers", "webapp")
        for path in sorted((root / package).rglob("*.py"))
    }


def parameters(f: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """A function's parameters, self or cls not counted."""
    a = f.args
    names = [*a.posonlyargs, *a.args, *a.kwonlyargs]
    extra = (a.vararg is not None) + (a.kwarg is not None)
    return len(names) + extra - (1 if names and names[0].arg in ("self", "cls") else 0)


def too_large(root: Path) -> list[str]:
    """Modules and functions past the limits."""
    out = []
    for name, tree in sources(root).items():
        lines = len((root / name).read_text(encoding="utf-8").splitlines())
        if lines > MAX_MODULE_LINES:
            out.append(f"{name}: {lines} lines")
        for f in ast.walk(tree):
            if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (f.end_lineno or f.lineno) - f.lineno + 1
                if length > MAX_FUNCTION_LINES or parameters(f) > MAX_PARAMETERS:
                    out.append(f"{name}: {f.name} ({length} lines, {parameters(f)} parameters)")
    return out


def _type_variable(value: ast.expr) -> bool:
    """Whether an assigned value is a TypeVar(...)."""
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "TypeVar"


def defined_twice(root: Path) -> dict[str, list[str]]:
    """Top-level class, type and constant names (capitalised, or private constants) defined in more than one module;
    type variables (`T = TypeVar("T")`) are each module's own."""
    where: dict[str, list[str]] = defaultdict(list)
    for name, tree in sources(root).items():
        for node in tree.body:
            targets: list[str] = []
            if isinstance(node, ast.ClassDef):
                targets = [node.name]
            elif isinstance(node, ast.Assign) and not _type_variable(node.value):
                targets = [t.id for t in node.targets if isinstance(t, ast.Name)]
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                targets = [node.target.id]
            where.update({t: [*where[t], name] for t in targets if t.lstrip("_")[:1].isupper()})
    return {k: v for k, v in where.items() if len(v) > 1}


def loaded_by_string(root: Path) -> list[str]:
    """Modules importing importlib or defining a module-level __getattr__."""
    out = []
    for name, tree in sources(root).items():
        for node in ast.walk(tree):
            imported = isinstance(node, ast.Import) and any(a.name.startswith("importlib") for a in node.names)
            imported |= isinstance(node, ast.ImportFrom) and (node.module or "").startswith("importlib")
            if imported:
                out.append(f"{name}: importlib")
        if any(isinstance(n, ast.FunctionDef) and n.name == "__getattr__" for n in tree.body):
            out.append(f"{name}: module __getattr__")
    return out


def too_long(root: Path) -> list[str]:
    """The modules of tests/ and benchmarks/ past the modules' limit (their functions are not held to it: a test's
    steps read best in one place)."""
    out = []
    for package in ("tests", "benchmarks"):
        for path in sorted((root / package).rglob("*.py")):
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > MAX_MODULE_LINES:
                out.append(f"{path.relative_to(root)}: {lines} lines")
    return out


def test_no_module_or_function_is_past_the_limits() -> None:
    assert len(sources(ROOT)) > 80  # both packages were read
    assert too_large(ROOT) == []
    assert len(list((ROOT / "tests").rglob("*.py"))) > 80 and too_long(ROOT) == []


def test_each_name_is_defined_once() -> None:
    assert defined_twice(ROOT) == {}


def test_no_module_is_loaded_by_a_string() -> None:
    assert loaded_by_string(ROOT) == []


def test_the_checks_find_what_they_look_for(tmp_path: Path) -> None:
    """Each check reports a planted case, so the tests above cannot pass by reading nothing."""
    (tmp_path / "solvers").mkdir()
    (tmp_path / "webapp").mkdir()
    wide = ", ".join(f"a{i}" for i in range(9))
    eight = ", ".join(f"b{i}" for i in range(8))  # with self: at the limit, not past it
    long_body = "\n".join(f"    x{i} = {i}" for i in range(61))
    (tmp_path / "solvers" / "a.py").write_text(
        f"T = TypeVar('T')\nLIMIT = 2\n\n\nclass Row:\n    pass\n\n\ndef f({wide}):\n    pass\n\n\n"
        f"def g(self, {eight}):\n"
        f"    pass\n\n\ndef h():\n{long_body}\n"
    )
    (tmp_path / "webapp" / "b.py").write_text(
        "import importlib\n\nRow = tuple[int, int]\nLIMIT = 3\nT = TypeVar('T')\n\n\ndef __getattr__(name):\n    pass\n"
        + "\n" * 449
    )
    assert too_large(tmp_path) == [
        "solvers/a.py: f (2 lines, 9 parameters)",
        "solvers/a.py: h (62 lines, 0 parameters)",
        "webapp/b.py: 458 lines",
    ]
    assert defined_twice(tmp_path) == {"LIMIT": ["solvers/a.py", "webapp/b.py"], "Row": ["solvers/a.py", "webapp/b.py"]}
    assert loaded_by_string(tmp_path) == ["webapp/b.py: importlib", "webapp/b.py: module __getattr__"]
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_c.py").write_text("\n" * 451)
    (tmp_path / "tests" / "test_d.py").write_text("\n" * 450)
    assert too_long(tmp_path) == ["tests/test_c.py: 451 lines"]


def test_every_name_a_package_exports_is_defined() -> None:
    """Each `__all__` of solvers/ and webapp/ names only what its module defines or imports (solvers.codebreak once
    named InputError, which it had not)."""
    import importlib

    root = Path(__file__).resolve().parents[2]
    missing = []
    for path in sorted([*root.glob("solvers/**/*.py"), *root.glob("webapp/**/*.py")]):
        if "__all__" not in path.read_text():
            continue
        name = ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")
        module = importlib.import_module(name)
        missing += [f"{name}.{n}" for n in getattr(module, "__all__", []) if not hasattr(module, n)]
    assert missing == []


def test_no_test_imports_a_benchmark() -> None:
    """Benchmarks only time things: what a test checks lives in solvers/ or webapp/ (`make frontier`'s runner moved
    to webapp/commands/frontier.py for that), or in tests/ itself."""
    found = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            names += [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            found += [f"{path.relative_to(ROOT)}: {n}" for n in names if n.split(".")[0] == "benchmarks"]
        text = path.read_text(encoding="utf-8")
        loads = "spec_from_file_location" in text and '"benchmarks"' in text and path != Path(__file__).resolve()
        if loads:  # a module loaded by its path
            found.append(f"{path.relative_to(ROOT)}: loads a benchmark by its path")
    assert found == []

"""Numba, configured once for every compiled kernel of the solvers: `kernel` compiles a function on its first call
and caches the machine code on disk, so that a later process loads it instead of compiling it again.

Numba checks a cached kernel against its own source file only; a kernel that calls kernels (or reads constants and
types) from other files would keep a stale copy when only those change. So the cache lives in a folder named after
the sizes and times of every file of the solver packages that hold kernels (`cache_folder`): any change to any of
them starts a new folder (older ones are removed a week after they were last written: a long proof may still be
running on one).
`NUMBA_CACHE_DIR`, when set, is where those folders go; else beside the sources, in `solvers/__pycache__`.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import numba

F = TypeVar("F", bound=Callable[..., Any])
SOURCES = Path(__file__).resolve().parent
PREFIX = "numba-"


def kernel_sources(root: Path = SOURCES) -> list[Path]:
    """The source files compiled kernels can depend on: every file of each solver package that holds a kernel
    (a file importing this module), and this module."""
    files = [root / "jit.py"]
    for package in sorted(p for p in root.iterdir() if (p / "__init__.py").exists()):
        sources = sorted(package.rglob("*.py"))
        if any("from solvers.jit import" in path.read_text(encoding="utf-8") for path in sources):
            files += sources
    return files


def source_stamp(root: Path = SOURCES) -> str:
    """A digest of Numba's version and every kernel source file's path, size and modification time."""
    digest = hashlib.sha256(numba.__version__.encode())
    for path in kernel_sources(root):
        stat = path.stat()
        digest.update(f"{path.relative_to(root)}:{stat.st_size}:{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


def cache_folder(root: Path = SOURCES) -> Path:
    """The folder of this version of the sources' compiled kernels (NUMBA_CACHE_DIR or solvers/__pycache__)."""
    base = Path(os.environ.get("NUMBA_CACHE_DIR") or root / "__pycache__")
    return base / f"{PREFIX}{source_stamp(root)}"


STALE_SECONDS = 7 * 24 * 3600  # an older version's folder is removed once nothing was written to it for a week


def prune(base: Path, keep: Path, now: float) -> None:
    """Remove the folders of older versions that nothing has written to for STALE_SECONDS. Not sooner: a process
    still running an older version (a proof of hours) saves each kernel it compiles late (a search's last step)
    into its own folder, and Numba fails when that folder is gone."""
    for old in base.glob(f"{PREFIX}*"):
        if old == keep:
            continue
        newest = max((p.stat().st_mtime for p in old.rglob("*")), default=old.stat().st_mtime)
        if now - max(newest, old.stat().st_mtime) > STALE_SECONDS:
            shutil.rmtree(old, ignore_errors=True)


def _configure() -> Path:
    """Point Numba's cache at this version's folder and prune the folders of older versions."""
    folder = cache_folder()
    if not folder.exists():
        prune(folder.parent, folder, time.time())
    cast(Any, numba.config).CACHE_DIR = str(folder)
    return folder


CACHE = _configure()


def kernel(function: F) -> F:
    """Compile `function` with Numba in nopython mode, cached on disk."""
    return cast(F, numba.njit(cache=True)(function))


def parallel_kernel(function: F) -> F:
    """As `kernel`, with `numba.prange` loops run on every core."""
    return cast(F, numba.njit(cache=True, parallel=True)(function))


def inline_kernel(function: F) -> F:
    """As `kernel`, inlined into the kernels that call it."""
    return cast(F, numba.njit(cache=True, inline="always")(function))


def dispatchers() -> list[Any]:
    """Every compiled kernel of the solver modules loaded so far."""
    import sys

    found: dict[int, Any] = {}
    for name, module in list(sys.modules.items()):
        if name.startswith("solvers.") and module is not None:
            for value in vars(module).values():
                if isinstance(value, numba.core.registry.CPUDispatcher):
                    found[id(value)] = value
    return list(found.values())


def compile_counts() -> tuple[int, int]:
    """(kernels loaded from the disk cache, kernels compiled) in this process so far."""
    loaded = compiled = 0
    for d in dispatchers():
        loaded += sum(d.stats.cache_hits.values())
        compiled += sum(d.stats.cache_misses.values())
    return loaded, compiled

"""Numba, configured once for every compiled kernel of the solvers: `kernel` compiles a function on its first call
and caches the machine code on disk, so that a later process loads it instead of compiling it again.

Numba checks a cached kernel against its own source file only; a kernel that calls kernels (or reads constants and
types) from other files would keep a stale copy when only those change. So the cache lives in a folder named after
the contents of every file of the solver packages that hold kernels (`cache_folder`): any change to any of them
starts a new folder (older ones are removed a week after they were last written: a long proof may still be running
on one). The folder is found by the sources' contents and their paths inside the project (`SourceTreeLocator`), not
by where the project lies or when its files were written, so another clone of the same sources loads the kernels
this one compiled. It lies in the user's cache (`XDG_CACHE_HOME` or ~/.cache, then coin-puzzles/numba), or in
`NUMBA_CACHE_DIR` when that is set, or beside the sources (solvers/__pycache__) where neither can be written.
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
from numba.core import caching

from solvers.cachedir import account_cache

F = TypeVar("F", bound=Callable[..., Any])
SOURCE_FOLDER = Path(__file__).resolve().parent
PREFIX = "numba-"


def kernel_sources(root: Path = SOURCE_FOLDER) -> list[Path]:
    """The source files compiled kernels can depend on: every file of each solver package that holds a kernel
    (a file importing this module), and this module."""
    files = [root / "jit.py"]
    for package in sorted(p for p in root.iterdir() if (p / "__init__.py").exists()):
        sources = sorted(package.rglob("*.py"))
        if any("from solvers.jit import" in path.read_text(encoding="utf-8") for path in sources):
            files += sources
    return files


def content_digest(path: Path) -> str:
    """The SHA-256 of a file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def source_stamp(root: Path = SOURCE_FOLDER) -> str:
    """A digest of Numba's version and every kernel source file's path inside the package and contents."""
    digest = hashlib.sha256(numba.__version__.encode())
    for path in kernel_sources(root):
        digest.update(f"{path.relative_to(root).as_posix()}:{content_digest(path)}\n".encode())
    return digest.hexdigest()[:16]


def cache_base(root: Path = SOURCE_FOLDER) -> Path:
    """Where the versions' folders go: NUMBA_CACHE_DIR when set, else the user's cache folder (shared by every
    clone on this machine), else beside the sources when no home folder can be written."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"])
    return account_cache("numba") or root / "__pycache__"


def cache_folder(root: Path = SOURCE_FOLDER) -> Path:
    """The folder of this version of the sources' compiled kernels."""
    return cache_base(root) / f"{PREFIX}{source_stamp(root)}"


CACHE_STALE_SECONDS = 7 * 24 * 3600  # an older version's folder is removed once nothing was written to it for a week


def prune(base: Path, keep: Path, now: float) -> None:
    """Remove the folders of older versions that nothing has written to for CACHE_STALE_SECONDS. Not sooner: a process
    still running an older version (a proof of hours) saves each kernel it compiles late (a search's last step)
    into its own folder, and Numba fails when that folder is gone."""
    for old in base.glob(f"{PREFIX}*"):
        if old == keep:
            continue
        newest = max((p.stat().st_mtime for p in old.rglob("*")), default=old.stat().st_mtime)
        if now - max(newest, old.stat().st_mtime) > CACHE_STALE_SECONDS:
            shutil.rmtree(old, ignore_errors=True)


class SourceTreeLocator(caching._CacheLocator):
    """Numba's cache locator for the solvers' kernels: a source file's kernels go in the version's folder under
    the file's path inside the package (its folder on disk does not count), checked against the file's contents
    (not its modification time, which a fresh clone changes)."""

    def __init__(self, py_func: Callable[..., Any], py_file: str) -> None:
        self._py_file = Path(py_file)
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = CACHE / self._py_file.resolve().parent.relative_to(SOURCE_FOLDER)

    def get_cache_path(self) -> str:
        return str(self._cache_path)

    def get_source_stamp(self) -> str:
        return content_digest(self._py_file)

    def get_disambiguator(self) -> str:
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func: Callable[..., Any], py_file: str) -> SourceTreeLocator | None:
        """The locator of a kernel of the solver packages (None for any other file: Numba's own locators)."""
        if not Path(py_file).resolve().is_relative_to(SOURCE_FOLDER):
            return None
        locator = cls(py_func, py_file)
        try:
            cast(Any, locator).ensure_cache_path()  # the folder made, and found writable
        except OSError:  # a folder this account cannot write: Numba's own locators
            return None
        return locator


def _configure() -> Path:
    """Find this version's folder, prune the folders of older versions, and put this module's locator first."""
    folder = cache_folder()
    if not folder.exists():
        prune(folder.parent, folder, time.time())
    impl = vars(caching).get("CacheImpl") or vars(caching)["_CacheImpl"]  # its name before Numba 0.68
    locators = impl._locator_classes
    if SourceTreeLocator not in locators:
        locators.insert(0, SourceTreeLocator)
    return folder


CACHE = _configure()


def kernel(function: F) -> F:
    """Compile `function` with Numba in nopython mode, cached on disk, releasing the GIL while it runs (so that a
    thread of the process stays live: progress lines, and the watcher that halts a proof on a signal)."""
    return cast(F, numba.njit(cache=True, nogil=True)(function))


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

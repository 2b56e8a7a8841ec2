"""The account's cache folders, shared by every clone on this machine: what was compiled once (Numba's kernels,
the site's templates) is loaded, not compiled again, by every later process."""

from __future__ import annotations

import os
from pathlib import Path


def account_cache(kind: str) -> Path | None:
    """This account's folder for `kind` (`XDG_CACHE_HOME` or ~/.cache, then coin-puzzles/kind; made 0700), or
    None where no home folder can be written."""
    try:
        folder = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "coin-puzzles" / kind
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if os.access(folder, os.W_OK | os.X_OK):
            return folder
    except (OSError, RuntimeError):  # no home folder, or one this account cannot write
        pass
    return None

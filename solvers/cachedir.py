"""The account's cache folders, shared by every clone on this machine: what was compiled once (Numba's kernels,
the site's templates) is loaded, not compiled again, by every later process. What is loaded from them runs as
code, so a folder is used only where no other account can write it."""

from __future__ import annotations

import os
import stat
from pathlib import Path


def account_cache(kind: str) -> Path | None:
    """This account's folder for `kind` (`XDG_CACHE_HOME`, when it is an absolute path, or ~/.cache; then
    coin-puzzles/kind), or None where it cannot be made or is not this account's alone: both folders of ours
    must be real folders owned by this account, which are made (or set) 0700."""
    home = os.environ.get("XDG_CACHE_HOME", "")
    try:
        base = Path(home) if os.path.isabs(home) else Path.home() / ".cache"
        ours = base / "coin-puzzles"
        folder = ours / kind
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        for path in (ours, folder):
            if not _private(path):
                return None
    except (OSError, RuntimeError):  # no home folder, or one this account cannot write
        return None
    return folder if os.access(folder, os.W_OK | os.X_OK) else None


def _private(path: Path) -> bool:
    """Whether a folder is this account's own (not a link), made 0700 if it was not."""
    found = os.lstat(path)
    if not stat.S_ISDIR(found.st_mode) or found.st_uid != os.geteuid():
        return False
    if stat.S_IMODE(found.st_mode) != 0o700:
        os.chmod(path, 0o700)
    return True

"""The hashed names of static files (`css/site.3f9a0b1c2d.css`), without Flask: the app writes them in its URLs
(`assets`) and `proxy-config` lists them for nginx, which serves exactly these names from disk."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

HASHED = re.compile(r"^(?P<stem>.+)\.(?P<hash>[0-9a-f]{10})(?P<ext>\.[A-Za-z0-9]+)$")


@lru_cache(maxsize=256)
def content_hash(folder: str, filename: str) -> str | None:
    """The first 10 hex digits of the SHA-256 of a static file (None: no such file). Read once per process:
    static files change only with a deploy, which restarts the server."""
    path = Path(folder) / filename
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()[:10]
    except OSError:
        return None


def hashed_name(folder: str, filename: str) -> str:
    """css/site.css -> css/site.<hash>.css (unchanged when the file is missing or has no extension)."""
    digest = content_hash(folder, filename)
    stem, dot, ext = filename.rpartition(".")
    if digest is None or not dot or "/" in ext:
        return filename
    return f"{stem}.{digest}.{ext}"


def every_hashed(folder: Path) -> Iterator[tuple[str, str]]:
    """(hashed name, file) of every static file with an extension, both relative to the folder."""
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        name = str(path.relative_to(folder))
        hashed = hashed_name(str(folder), name)
        if hashed != name:
            yield hashed, name

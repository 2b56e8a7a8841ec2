"""Heavy answers served from bytes: the rendered form of a stored result (an API answer's JSON, the body of a
large table) kept in the result store, compressed, under its canonical parameters and the deploy's build, so
that a second visit reads bytes instead of decoding and rendering the result again. Results are deterministic
and never change once stored, so a rendering is valid for as long as the code and templates that made it: the
build stamp (the sizes and times of the files under webapp/, solvers/ and templates/) changes with them.

An API answer carries a strong ETag (`caching` answers a conditional GET with 304 and sets its Cache-Control) and
is sent gzip-compressed to a client that accepts it. For a page only its heavy body is kept here, shared by every
process and host on the store; the whole page is kept by each process and nginx (`caching`)."""

from __future__ import annotations

import gzip
import hashlib
from collections.abc import Callable
from contextlib import suppress
from functools import lru_cache

from flask import Response, request
from markupsafe import Markup

from webapp.config import ROOT
from webapp.jobs.access import app_store
from webapp.store import TooLarge


@lru_cache(maxsize=1)
def build() -> str:
    """A stamp of the code and templates that render answers."""
    digest = hashlib.sha256()
    for folder in ("webapp", "solvers", "templates"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in (".py", ".html"):
                stat = path.stat()
                digest.update(f"{path.relative_to(ROOT)}:{stat.st_size}:{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


def _kept(name: str, make: Callable[[], bytes]) -> bytes:
    """The compressed bytes kept under a name (made, compressed and kept on the first call; one past a visitor's
    share of the store is made each time, and cached by the process and nginx only)."""
    store = app_store()
    key = f"rendered:{build()}:{name}"
    blob = store.get(key)
    if blob is None:
        blob = gzip.compress(make(), compresslevel=6)
        with suppress(TooLarge):
            store.put(key, blob)
    return blob


def json_answer(key: str, make: Callable[[], bytes]) -> Response:
    """An API answer (its JSON made by `make`, which may raise Pending) from the bytes kept under key: the
    canonical parameters of what it renders (its computation's store key and the options that shape it), never the
    raw URL, so that parameters the API ignores make no new entries. With a strong ETag, 304 to a matching
    conditional GET, gzip to a client that accepts it."""
    blob = _kept(f"api:{key}", make)
    etag = hashlib.sha256(blob).hexdigest()[:32]
    headers = {"Vary": "Accept-Encoding"}
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        response = Response(blob, mimetype="application/json", headers={**headers, "Content-Encoding": "gzip"})
    else:  # another representation of the same answer: another strong ETag
        response = Response(gzip.decompress(blob), mimetype="application/json", headers=headers)
        etag += "-identity"
    response.set_etag(etag)
    return response


def page_body(name: str, make: Callable[[], str]) -> Markup:
    """A page's heavy body (made by `make`, which may raise Pending) from the bytes kept under name."""
    return Markup(gzip.decompress(_kept(f"page:{name}", lambda: make().encode())).decode())

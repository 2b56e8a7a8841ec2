"""HTTP caching of every page that is a function of its URL.

Positions live in the URL and the solvers are deterministic, so most answers depend on nothing but their address,
the fragment-or-page header and the deploy. What a response may be kept for is decided once it is made:

- **Kept** (`public, max-age=0, s-maxage=86400`, a strong ETag, `X-Accel-Expires` for our nginx): a GET answered
  200 that used no session (so carries no CSRF token) and read nothing that may still change. Browsers ask again
  each time (a 304 while the ETag matches), shared caches keep it a day. The rendering is also kept in this process
  (bounded by bytes), so it is rendered once per process per deploy, and a conditional GET is answered 304 before
  any view runs. `coin-puzzles serve` empties nginx's cache when it starts, and a new deploy's ETags differ.
- **Changing** (`no-cache`, a strong ETag): the page read what the result store does not hold yet (a result still
  to be computed, a job's place, the table of proved optima), so it can change as the store fills; or the answer
  says more than its body (htmx's HX-Location after a move sent by GET). It is rendered
  each time, answered 304 when unchanged, and kept by no shared cache.
- **Private** (`private, no-store`): a page that carries a CSRF token or a sealed game.

The ways into the store (`jobs.access.computed`, `peek`, `held`, `optima.optima_table`) and the sealed games
(`secretbox`) say what a response read by calling `changing()` or `private()`, so no view has to.
"""

from __future__ import annotations

import hashlib
import os
import threading
from typing import NamedTuple

from cachetools import LRUCache
from flask import Flask, Response, current_app, g, has_request_context, request

from webapp.http.htmx import wants_fragment

SHARED_SECONDS = 86400  # how long a shared cache (our nginx, a CDN) keeps a page: both are emptied on a deploy
KEPT = f"public, max-age=0, s-maxage={SHARED_SECONDS}"
CHANGING = "no-cache"
PRIVATE = "private, no-store"
DEFAULT_BYTES = 64 * 2**20  # the rendered pages one process keeps (PAGE_CACHE_BYTES), least recently used out


class Page(NamedTuple):
    """A rendered page kept in this process: its body, content type and ETag."""

    body: bytes
    content_type: str
    etag: str


class Pages:
    """The rendered pages of this process, least recently used dropped past a number of bytes (thread-safe)."""

    def __init__(self, max_bytes: int) -> None:
        """An empty cache of at most max_bytes of bodies."""
        self._pages: LRUCache[tuple[str, ...], Page] = LRUCache(max_bytes, getsizeof=lambda p: len(p.body) + 200)
        self._lock = threading.Lock()

    @property
    def max_bytes(self) -> int:
        """The most bytes kept (0: nothing is kept)."""
        return int(self._pages.maxsize)

    def get(self, key: tuple[str, ...]) -> Page | None:
        """The page kept under key, if any."""
        with self._lock:
            return self._pages.get(key)

    def put(self, key: tuple[str, ...], page: Page) -> None:
        """Keep a page (a page larger than the whole cache is not kept)."""
        if len(page.body) + 200 <= self._pages.maxsize:
            with self._lock:
                self._pages[key] = page

    def __len__(self) -> int:
        """How many pages are kept."""
        return len(self._pages)


def changing() -> None:
    """The response being made read something that may still change (it is never kept, only revalidated); outside
    a request (a command), nothing to mark."""
    if has_request_context():
        g.cache_changing = True


def private() -> None:
    """The response being made holds something for this visitor alone (a sealed game): never stored anywhere."""
    if has_request_context():
        g.cache_private = True


def _key() -> tuple[str, ...]:
    """What a kept page is found by: the scheme, host and path with its query, and fragment or whole page."""
    return (request.scheme, request.host, request.full_path, "fragment" if wants_fragment() else "page")


def _pages() -> Pages:
    """This process's kept pages."""
    pages: Pages = current_app.extensions["coin_puzzles_pages"]
    return pages


def _cacheable_request() -> bool:
    """A GET (or HEAD) of anything but a static file."""
    return request.method in ("GET", "HEAD") and request.endpoint != "static"


def _carries_token() -> bool:
    """Whether the response holds a CSRF token (Flask-WTF keeps the request's token in g once it made one). The
    session is not asked: in Flask 3.1 reading it marks it read."""
    return g.get(str(current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token"))) is not None


PLAIN_HEADERS = {"content-type", "content-length", "content-encoding", "vary", "etag"}


def _plain(response: Response) -> bool:
    """Whether the view's answer is its body alone: no header that says more (htmx's HX-Location after a weighing
    sent by GET, a Location, a cookie), which a kept copy of the body would lose."""
    return all(name.lower() in PLAIN_HEADERS for name, _ in response.headers.items())


def _kept_headers(response: Response, etag: str) -> Response:
    """A kept page's caching headers."""
    response.headers["Cache-Control"] = KEPT
    if _pages().max_bytes:
        response.headers["X-Accel-Expires"] = str(SHARED_SECONDS)
    response.set_etag(etag)
    return response


def answer_from_cache() -> Response | None:
    """Before any view: a kept page, or 304 when the client's copy is the kept one."""
    if not _cacheable_request():
        return None
    page = _pages().get(_key())
    if page is None:
        return None
    g.cache_hit = True
    if request.if_none_match.contains(page.etag):
        return _kept_headers(Response(status=304), page.etag)
    return _kept_headers(Response(page.body, content_type=page.content_type), page.etag)


def cache_headers(response: Response) -> Response:
    """After the view: the response's caching headers, and a kept page kept."""
    if g.get("cache_hit"):
        return response
    if g.get("cache_private") or _carries_token():
        response.headers["Cache-Control"] = PRIVATE
        return response
    if not _cacheable_request() or response.status_code != 200 or "Cache-Control" in response.headers:
        return response  # a redirect, an error, a progress page (no-store), a static file: as they are
    if response.is_streamed or response.direct_passthrough:
        return response
    body = response.get_data()
    etag = response.get_etag()[0] or hashlib.sha256(body).hexdigest()[:32]
    if g.get("cache_changing") or not _plain(response):
        response.headers["Cache-Control"] = CHANGING
        response.set_etag(etag)
    else:
        _kept_headers(response, etag)
        if "accept-encoding" not in response.vary:  # an answer in encodings is kept by its own view (rendered.py)
            _pages().put(_key(), Page(body, response.content_type or "text/html", etag))
    response.make_conditional(request)  # 304 (the body dropped) when the client's copy is this one
    return response


def init_app(app: Flask) -> None:
    """The page cache of this process and the hooks around every view. Its size in bytes: COIN_PUZZLES_PAGE_CACHE
    (or PAGE_CACHE_BYTES in the config); 0 keeps no page, here or in our nginx (no X-Accel-Expires), so every
    request renders: the benchmark's cold baseline."""
    size = os.environ.get("COIN_PUZZLES_PAGE_CACHE") or app.config.get("PAGE_CACHE_BYTES", DEFAULT_BYTES)
    app.extensions["coin_puzzles_pages"] = Pages(int(size))
    app.before_request(answer_from_cache)
    app.after_request(cache_headers)

"""HTTP caching (issue 49): what each kind of page may be kept for, 304s without rendering, hashed static names,
and no page with a token or a secret kept by a shared cache. nginx's side is in tests/system/test_proxy.py."""

from __future__ import annotations

import re
from collections import deque
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from solvers.variants.model import Variant
from solvers.variants.report import VariantRow
from tests.conftest import TEST_KEY
from tests.web.forms import form_token
from webapp import create_app
from webapp.http.caching import CHANGING, KEPT, PRIVATE
from webapp.jobs.access import app_store
from webapp.results.catalogue import VARIANT_TABLE, VariantParams
from webapp.results.computations import write

PLAN = "/coins/plan?n=12&weight=unknown&goal=identify&extra=0&maybe_none=0&objective=worst&path=LB"
KEPT_PAGES = [
    "/",
    "/glossary",
    PLAN,
    "/api/coins?n=20",
    "/pegs/play?board=triangle-5&hole=1",
    "/devil/solution?n=4",
    "/qr.svg?path=/pegs",
]


def kept(r: TestResponse) -> bool:
    """Whether a response is marked for every cache to keep, with a strong ETag and nginx's lifetime."""
    etag, weak = r.get_etag()
    return r.headers.get("Cache-Control") == KEPT and bool(etag) and not weak and "X-Accel-Expires" in r.headers


@pytest.mark.parametrize("path", KEPT_PAGES)
def test_a_page_of_its_address_is_kept_and_revalidated_with_a_304(client: FlaskClient, path: str) -> None:
    """A page that is a function of its address: public for shared caches, revalidated by browsers (max-age=0),
    with a strong ETag; the same ETag again, and a conditional GET answered 304 with no body."""
    first = client.get(path)
    assert first.status_code == 200 and kept(first), (path, first.headers)
    assert first.cache_control.max_age == 0 and first.cache_control.s_maxage == 86400
    again = client.get(path)
    assert again.get_data() == first.get_data() and again.headers["ETag"] == first.headers["ETag"]
    r = client.get(path, headers={"If-None-Match": first.headers["ETag"]})
    assert r.status_code == 304 and r.get_data() == b"" and r.headers["ETag"] == first.headers["ETag"]
    assert client.get(path, headers={"If-None-Match": '"another"'}).status_code == 200


def test_a_kept_page_is_answered_without_its_view(app: Flask) -> None:
    """Once rendered, a page and its 304 come from the process's copy: its view is not run again."""
    client = app.test_client()
    first = client.get(PLAN)
    calls = []
    view = app.view_functions["coins.node"]
    app.view_functions["coins.node"] = lambda: calls.append(1) or view()
    assert client.get(PLAN).get_data() == first.get_data()
    assert client.get(PLAN, headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    assert calls == []
    client.get(PLAN + "&x=1")  # another address: rendered
    assert calls == [1]


def test_a_fragment_and_a_whole_page_are_kept_apart(client: FlaskClient) -> None:
    """htmx's fragment of a page and the whole page are two answers under one address: each its own ETag and
    body, and Vary names the headers that choose between them."""
    page = client.get(PLAN)
    fragment = client.get(PLAN, headers={"HX-Request": "true"})
    assert kept(page) and kept(fragment)
    assert "<html" in page.get_data(as_text=True) and "<html" not in fragment.get_data(as_text=True)
    assert page.headers["ETag"] != fragment.headers["ETag"]
    restore = client.get(PLAN, headers={"HX-Request": "true", "HX-History-Restore-Request": "true"})
    assert restore.get_data() == page.get_data()  # a history restore needs the whole page
    for r in (page, fragment):
        assert {"hx-request", "hx-history-restore-request"} <= {v.lower() for v in r.vary}


def test_an_answer_that_sends_htmx_on_is_never_answered_from_a_copy(tmp_path: Path) -> None:
    """A weighing sent by a GET form answers htmx with an empty body and HX-Location (the next position): a kept
    body alone would leave the page empty, so it is only revalidated, and the same request gets HX-Location again.
    The variant's table is in the store (a store of its own, the table written by the test), as once make run's
    fill has stored it: the page read nothing missing."""
    app = create_app(
        {"TESTING": True, "SECRET_KEY": TEST_KEY, "RESULT_STORE": f"sqlite:{tmp_path / 'r.db'}"}
    )  # pragma: allowlist secret
    table = Variant(1, "heavier", pans=3)
    with app.app_context():
        key = VARIANT_TABLE.key(VariantParams(table.to_token()))
        write(app_store(), VARIANT_TABLE, key, tuple(VariantRow(n, 1, 1, "") for n in range(1, 8)))
    client = app.test_client()
    assert kept(client.get("/variants/play?n=3&weight=heavier&pans=3"))
    url = "/variants/play?n=3&weight=heavier&pans=3&w=&pan1=1&pan2=2&pan3=3"
    for _ in range(2):
        r = client.get(url, headers={"HX-Request": "true"})
        assert r.status_code == 200 and "moves=1" in r.headers["HX-Location"], r.headers
        assert r.headers["Cache-Control"] == CHANGING and "X-Accel-Expires" not in r.headers


def test_pages_with_a_form_token_or_a_sealed_game_are_never_shared(client: FlaskClient) -> None:
    """A page carrying a CSRF token, and every page of a game with a hidden secret (its token is a key to the
    game, and its record moves on), are private and not stored: no ETag, nothing for nginx."""
    pages = ["/adversary", "/coins", "/devil/play?n=4&goal=all-heads", "/codebreak/play?game=mastermind"]
    csrf = form_token(client, "/codebreak/play?game=mastermind")
    r = client.post("/codebreak/start", data={"csrf_token": csrf, "game": "mastermind", "maker": "random"})
    pages.append(r.headers["Location"])  # a random code maker's game: ?...&t=<sealed token>
    csrf = form_token(client, "/adversary")
    r = client.post("/adversary", data={"csrf_token": csrf, "n": "12", "mode": "honest"})
    honest = r.headers["Location"]
    pages += [honest, re.sub(r"([?&])w=[^&]*", r"\1w=", honest)]  # the honest scale's game, and its start
    for path in pages:
        r = client.get(path)
        assert r.status_code == 200, path
        assert r.headers["Cache-Control"] == PRIVATE and "ETag" not in r.headers, (path, r.headers)
        assert "X-Accel-Expires" not in r.headers


def test_no_page_linked_from_the_home_page_is_shared_with_a_token_or_secret(client: FlaskClient) -> None:
    """Over the site's own links from / (breadth first, 120 pages): a page holding a CSRF token or opened by a
    sealed token is private; a page marked public holds neither."""
    seen, queue, checked = {"/"}, deque(["/"]), 0
    while queue and checked < 120:
        path = queue.popleft()
        r = client.get(path)
        checked += 1
        if r.status_code != 200 or not r.mimetype.startswith("text/html"):
            continue
        body = r.get_data(as_text=True)
        secret = 'name="csrf_token"' in body or "t" in parse_qs(urlsplit(path).query)
        control = r.headers.get("Cache-Control", "")
        assert (control == PRIVATE) if secret else ("private" not in control), (path, control)
        for href in re.findall(r'href="(/[^"#]*)"', body):
            href = href.replace("&amp;", "&")
            if href not in seen and not href.startswith("/static/"):
                seen.add(href)
                queue.append(href)
    assert checked == 120


def test_a_page_that_read_a_missing_result_is_not_kept_and_changes_once_it_is_stored(tmp_path: Path) -> None:
    """The variants' form says how far each stored table reaches: before the table is stored the page is only
    revalidated (no-cache, kept nowhere); once it is stored the next visit shows it (nothing stale), and that page
    is kept. The table is written by the test: what is checked is the caching, not the table."""
    app = create_app(
        {"TESTING": True, "SECRET_KEY": TEST_KEY, "RESULT_STORE": f"sqlite:{tmp_path / 'r.db'}"}
    )  # pragma: allowlist secret
    client = app.test_client()
    before = client.get("/variants")
    assert before.headers["Cache-Control"] == CHANGING and before.get_etag()[0]
    assert "X-Accel-Expires" not in before.headers
    assert client.get("/variants", headers={"If-None-Match": before.headers["ETag"]}).status_code == 304
    assert "up to 5 coins" not in before.get_data(as_text=True)
    base = Variant(1, "unknown", lies=2)
    rows = tuple(VariantRow(n, 3 if n <= 5 else None, 3, "" if n <= 5 else "beyond reach (test)") for n in range(1, 8))
    with app.app_context():
        write(app_store(), VARIANT_TABLE, VARIANT_TABLE.key(VariantParams(base.to_token())), rows)
    after = client.get("/variants")
    assert "up to 5 coins" in after.get_data(as_text=True) and after.headers["ETag"] != before.headers["ETag"]
    assert client.get("/variants", headers={"If-None-Match": before.headers["ETag"]}).status_code == 200


def test_the_health_check_is_never_kept(client: FlaskClient) -> None:
    """/healthz is asked afresh every time (a progress page's no-store: tests/system/test_jobs.py)."""
    r = client.get("/healthz")
    assert r.headers["Cache-Control"] == "no-store" and "ETag" not in r.headers


def test_static_files_have_hashed_names_kept_for_a_year(client: FlaskClient) -> None:
    """Every static URL in a page names its content's hash; that name is immutable for a year, and a name whose
    hash is not the file's (a page from before a change) gets today's file, kept for no time."""
    page = client.get("/").get_data(as_text=True)
    names = re.findall(r'(?:href|src)="(/static/[^"]+)"', page)
    assert names and all(re.search(r"\.[0-9a-f]{10}\.[a-z]+$", n) for n in names), names
    css = next(n for n in names if n.startswith("/static/css/site."))
    r = client.get(css)
    assert r.status_code == 200 and r.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert r.get_data() == (Path(__file__).resolve().parents[2] / "static/css/site.css").read_bytes()
    stale = client.get(re.sub(r"\.[0-9a-f]{10}\.", ".0123456789.", css))
    assert stale.status_code == 200 and "immutable" not in stale.headers.get("Cache-Control", "")
    assert client.get("/static/css/nothing.0123456789.css").status_code == 404

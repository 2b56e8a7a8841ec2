"""Flask client tests for every page: good input, each kind of bad input, fragment vs page."""

from __future__ import annotations

import re

import pytest
from flask import Flask, url_for
from flask.testing import FlaskClient
from markupsafe import escape

from tests.web.forms import form_token, refusal
from webapp.pages.registry import PUZZLES

HX = {"HX-Request": "true"}


def test_home_lists_puzzles_without_dead_links(client: FlaskClient) -> None:
    """The home page links every puzzle's page, and every link on it works."""
    r = client.get("/")
    html = r.get_data(as_text=True)
    assert r.status_code == 200
    for p in PUZZLES:
        with client.application.test_request_context():
            assert f'<a href="{url_for(p.endpoint)}">{escape(p.name)}</a>' in html
        assert f'aria-label="{escape(p.picture)}"' in html  # a picture per puzzle
    for href in set(re.findall(r'href="(/[^"]*)"', html)):
        linked = client.get(href)
        linked.close()  # static files are streamed; close them
        assert linked.status_code == 200, href


def test_each_puzzle_comes_from_the_one_registry(client: FlaskClient) -> None:
    """Every blueprint of the app but the home page's and the game bar's is a registered puzzle's, every puzzle's
    first page and footer come from its entry, and an error page under a puzzle leads back to that puzzle."""
    app = client.application
    owned = {b.name for p in PUZZLES for b in p.blueprints}
    assert set(app.blueprints) - owned == {"main", "gamebar"}
    for p in PUZZLES:
        with app.test_request_context():
            first = url_for(p.endpoint)
        html = client.get(first).get_data(as_text=True)
        assert escape(p.sources) in html, p.area
        missing = client.get(first.rstrip("/") + "/no-such-page")
        assert missing.status_code == 404 and f"Back to {escape(p.name)}</a>" in missing.get_data(as_text=True), p.area


def test_healthz(client: FlaskClient) -> None:
    """/healthz answers ok."""
    assert client.get("/healthz").get_json() == {"status": "ok"}


def test_security_headers(client: FlaskClient) -> None:
    """Strict CSP (no inline scripts), nosniff, frame denial, Vary: HX-Request."""
    r = client.get("/coins")
    csp = r.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert r.headers["X-Content-Type-Options"] == "nosniff" and r.headers["X-Frame-Options"] == "DENY"
    assert "HX-Request" in r.headers["Vary"]
    assert "<script>" not in r.get_data(as_text=True) and " style=" not in r.get_data(as_text=True)


def test_setup_post_redirects_303(client: FlaskClient) -> None:
    """A valid form posts and redirects (303) to the plan's canonical URL."""
    data = {
        "csrf_token": form_token(client, "/coins"),
        "n": "12",
        "weight": "unknown",
        "goal": "identify",
        "extra": "0",
        "objective": "worst",
    }
    r = client.post("/coins", data=data)
    assert r.status_code == 303
    assert r.headers["Location"] == "/coins/plan?n=12&weight=unknown&goal=identify&extra=0&maybe_none=0&objective=worst"


def test_setup_post_htmx_uses_hx_location(client: FlaskClient) -> None:
    """With htmx the form answers with HX-Location so the plan swaps in and the URL is pushed."""
    data = {"csrf_token": form_token(client, "/coins"), "n": "12"}
    r = client.post("/coins", data=data, headers=HX)
    assert r.status_code == 200 and "/coins/plan?n=12" in r.headers["HX-Location"]


def test_setup_post_without_csrf_is_refused(client: FlaskClient) -> None:
    """CSRF: a POST without the token is a 400."""
    r = client.post("/coins", data={"n": "12"})
    assert r.status_code == 400 and "security token" in r.get_data(as_text=True)


@pytest.mark.parametrize(
    ("n", "message"),
    [
        ("0", "from 1 to 1,000,000"),
        ("-1", "whole number"),
        ("1000001", "from 1 to"),
        ("abc", "whole number"),
        ("2", "no plan exists"),
    ],
)
def test_setup_bad_input_shows_form_with_message(client: FlaskClient, n: str, message: str) -> None:
    """Bad set-up input re-shows the form with a clear message and a 400."""
    r = client.post("/coins", data={"csrf_token": form_token(client, "/coins"), "n": n})
    assert r.status_code == 400 and message in r.get_data(as_text=True)
    assert 'role="alert"' in r.get_data(as_text=True)


def test_plan_root_page(client: FlaskClient) -> None:
    """The first weighing: scale picture, three outcome buttons, summary and verification."""
    r = client.get("/coins/plan?n=12")
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and "<html" in html
    assert '<svg class="scale"' in html and "Left pan:</strong> 1\u20134" in html
    for label in ("Left heavier", "Balance", "Right heavier"):
        assert f">{label}</button>" in html
    assert "replayed all 24 cases" in html and "Minimum weighings" in html


def test_plan_fragment_for_htmx(client: FlaskClient) -> None:
    """htmx requests get just the fragment (with a <title>), history restores get the page."""
    frag = client.get("/coins/plan?n=12&path=L", headers=HX).get_data(as_text=True)
    assert "<html" not in frag and "<title>" in frag and "Weighing 2" in frag
    full = client.get("/coins/plan?n=12&path=L", headers={**HX, "HX-History-Restore-Request": "true"})
    assert "<html" in full.get_data(as_text=True)


def test_plan_leaf_and_disabled_outcome(client: FlaskClient) -> None:
    """A leaf names the coin; an impossible outcome is a disabled button with its reason."""
    leaf = client.get("/coins/plan?n=12&path=LLL").get_data(as_text=True)
    assert "Coin 1 is heavier." in leaf and "Weighings used: 3" in leaf
    html = client.get("/coins/plan?n=12&path=LL").get_data(as_text=True)
    assert "disabled" in html and "cannot happen here" in html
    balance = client.get("/coins/plan?n=12&path=BB").get_data(as_text=True)  # a balance tips no scale
    assert "Balance cannot happen here: no remaining case gives that result." in balance


def test_plan_large_n_uses_ranges(client: FlaskClient) -> None:
    """N = 1,000,000: ranges instead of a coin grid."""
    html = client.get("/coins/plan?n=1000000&path=B").get_data(as_text=True)
    assert "Unknown:" in html and "coins-grid" not in html


COINS_1_TO_1M = "The number of coins (n) must be a whole number from 1 to 1,000,000"


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("n=0", COINS_1_TO_1M),
        ("n=-5", COINS_1_TO_1M),
        ("n=1000001", COINS_1_TO_1M),
        ("n=abc", COINS_1_TO_1M),
        ("n=", COINS_1_TO_1M),
        ("n=12&weight=medium", "weight must be one of: unknown, lighter, heavier"),
        ("n=12&goal=x", "goal must be one of: identify, find"),
        ("n=12&extra=-1", "The number of extra genuine coins must be a whole number from 0 to 1,000,000"),
        ("n=12&maybe_none=maybe", "maybe_none must be 1 or 0"),
        ("n=12&objective=best", "objective must be one of: worst, average"),
        ("n=12&path=X", "path must be a string of the letters L, B and R"),
        ("n=12&path=LLLL", "the plan ends after 3 weighings; the path 'LLLL' goes further"),
        ("n=12&path=" + "L" * 100, "path must be a string of the letters L, B and R"),
        ("n=2", "no plan exists: with two coins, weight unknown and no extra genuine coin"),
        ("n=101&objective=average", "the average-optimal plan is offered for up to 100 coins"),
        ("n=12&path=LLR", "outcome R after 3 weighings cannot happen in this plan"),
    ],
)
def test_plan_bad_input_is_400(client: FlaskClient, query: str, message: str) -> None:
    """Malformed or tampered URLs give a 400 page that names what is wrong, never a 500."""
    status, said = refusal(client.get("/coins/plan?" + query))
    assert status == 400 and said.startswith(message), (query, said)


def test_tree_page(client: FlaskClient) -> None:
    """The whole tree for 12 coins links every node to the navigator; refused above 40 coins."""
    html = client.get("/coins/tree?n=12").get_data(as_text=True)
    assert html.count("<details") >= 13 and "path=LLL" in html
    assert refusal(client.get("/coins/tree?n=41")) == (400, "full trees are only built for up to 40 coins")


def test_scheme_page(client: FlaskClient) -> None:
    """Dyson's scheme for 12 coins: 3 weighings and a 24-row table; a clear note where none exists."""
    html = client.get("/coins/scheme?n=12").get_data(as_text=True)
    assert html.count("<tr><td><code>") == 24 and "same as the best adaptive plan" in html
    none = client.get("/coins/scheme?n=2").get_data(as_text=True)
    assert "No non-adaptive scheme" in none


def test_unknown_route_and_method(client: FlaskClient) -> None:
    """404 and 405 use the error page."""
    assert client.get("/nope").status_code == 404
    assert client.delete("/coins").status_code == 405


PAGES = [
    "/coins",
    "/coins/plan?n=12",
    "/coins/tree?n=12",
    "/coins/scheme?n=12",
    "/adversary",
    "/adversary/play?n=12",
    "/aequitas",
    "/aequitas/play?game=F&n=5",
    "/aequitas/table?max=4",
    "/devil",
    "/devil/play?n=4",
    "/devil/solution?n=4",
    "/pegs",
    "/pegs/play?board=triangle-5&hole=1",
    "/pegs/solution?board=triangle-5&hole=1",
    "/pegs/table?board=triangle-5",
    "/codebreak",
    "/codebreak/game?game=mastermind&pegs=2&colours=4",
    "/codebreak/play?game=mastermind",
    "/codebreak/plan?game=mastermind&pegs=2&colours=4",
    "/coins/plan?n=0",
]


@pytest.mark.parametrize("url", PAGES)
def test_full_page_and_fragment_share_one_title(client: FlaskClient, url: str) -> None:
    """Each page's title is written once: the full page and the htmx fragment carry the same one, and the
    fragment (errors included) is only the title and the main region."""
    full = client.get(url).get_data(as_text=True)
    part = client.get(url, headers={"HX-Request": "true"}).get_data(as_text=True)
    title = re.search(r"<title>(.*?)</title>", full, re.S)
    assert title and part.lstrip().startswith(f"<title>{title.group(1)}</title>")
    assert "<html" in full and "<html" not in part and "<header" not in part


def test_aequitas_table_links_only_to_playable_positions(client: FlaskClient) -> None:
    """Every link in the Æquitas table opens a playable position (flagged N = 1 cells are not links)."""
    html = client.get("/aequitas/table?max=6").get_data(as_text=True)
    links = set(re.findall(r'href="(/aequitas/play\?[^"]+)"', html))
    assert links
    for href in links:
        assert client.get(href.replace("&amp;", "&")).status_code == 200, href


def test_code_breaking_follower_offers_only_possible_feedback(client: FlaskClient) -> None:
    """The feedback list holds only scores some remaining code can give (4B1W, for one, never)."""
    html = client.get("/codebreak/plan?game=mastermind&strategy=knuth").get_data(as_text=True)
    offered = set(re.findall(r'<option value="(\d+B\d+W)">', html))
    assert offered and "4B1W" not in offered and "3B1W" not in offered and len(offered) < 14


def test_favicon_and_footers_of_each_puzzle(client: FlaskClient) -> None:
    """A favicon (no 404), and each puzzle's footer names its own sources (also in htmx fragments)."""
    assert client.get("/favicon.ico").status_code == 301
    icon = client.get("/static/favicon.svg")
    icon.close()
    assert icon.status_code == 200
    assert "Lamping" in client.get("/devil").get_data(as_text=True)
    assert "Knuth" in client.get("/codebreak").get_data(as_text=True)
    fragment = client.get("/pegs", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert 'hx-swap-oob="true"' in fragment and "Bell" in fragment


def test_glossary_defines_every_term_the_pages_link(client: FlaskClient) -> None:
    """Every glossary link on the puzzles' pages points at a term the glossary defines (an id on the page), and
    each puzzle's set-up page has a How to play section with a picture."""
    glossary = client.get("/glossary").get_data(as_text=True)
    ids = set(re.findall(r'<div id="([a-z-]+)"><dt>', glossary))
    assert {"grundy", "p-position", "n-position", "destined", "case", "key-pegs", "jump", "move"} <= ids
    pages = ["/coins", "/adversary", "/aequitas", "/devil", "/pegs", "/codebreak", "/aequitas/play?game=D&n=4&hint=1"]
    linked: set[str] = set()
    for path in pages:
        html = client.get(path).get_data(as_text=True)
        linked |= set(re.findall(r'href="/glossary#([a-z-]+)"', html))
        if "play" not in path:
            assert "How to play" in html and 'class="thumb"' in html, path
    assert linked and linked <= ids, linked - ids


@pytest.mark.parametrize(
    ("path", "shown", "not_shown"),
    [
        ("/coins/plan?n=1000000", "1,000,000 coins", "1000000 coins"),
        ("/coins/plan?n=1000000&path=LBR", "1\u2013333,334 v 333,335\u2013666,668:", "333335"),
        ("/codebreak/game?game=mastermind", "1,296 secrets", "1296 secrets"),
        ("/adversary/play?n=1000", "1,000 coins", "1000 coins"),
    ],
)
def test_one_number_format(client: FlaskClient, path: str, shown: str, not_shown: str) -> None:
    """Numbers of 1,000 and more are written with comma thousands on every page."""
    text = re.sub(r"<[^>]+>", " ", client.get(path).get_data(as_text=True))
    assert shown in text and not_shown not in text


def test_coins_breadcrumbs_say_what_was_weighed(client: FlaskClient) -> None:
    """Each step of the path names its weighing and outcome; the answer page draws the last weighing tipped."""
    html = client.get("/coins/plan?n=12&path=LBL").get_data(as_text=True)
    text = re.sub(r"<[^>]+>", "", html)
    assert "1. 1–4 v 5–8: left heavier" in text and "2. 1–2, 5 v 3–4, 9: balance" in text
    assert "3. 6 v 7: left heavier" in text
    assert "The last weighing: 6 against 7, left heavier." in text and "the scale shows left heavier" in text
    # the outcome buttons carry the classes the style sheet uses to tip the beam on hover and focus
    node = client.get("/coins/plan?n=12").get_data(as_text=True)
    assert 'class="o-L"' in node and 'class="o-R"' in node


def test_forty_coins_all_drawn_on_the_pans(client: FlaskClient) -> None:
    """40 coins, second weighing: 11 coins a pan, every one drawn (no '+N more'), in the smaller size."""
    html = client.get("/coins/plan?n=40&path=L").get_data(as_text=True)
    svg = html.split('<svg class="scale"', 1)[1].split("</svg>", 1)[0]
    assert svg.count('<g class="coin') == 22 and "more" not in svg


def test_a_refused_form_says_what_the_browser_did(app: Flask) -> None:
    """The 400s of a form token say which state of the client caused them: a token from a page whose session
    cookie another page load replaced (pages loaded at once in a fresh session, another tab), and a POST whose
    browser sent no session cookie. A token with its own session is accepted."""
    first, second = app.test_client(), app.test_client()
    token = form_token(first, "/coins")
    form_token(second, "/coins")
    cookie = second.get_cookie("session")
    assert cookie is not None
    stale = app.test_client()
    stale.set_cookie("session", cookie.value)
    r = stale.post("/coins", data={"csrf_token": token, "n": "12"})
    assert r.status_code == 400 and "belongs to another load of the page" in r.get_data(as_text=True)
    r = app.test_client().post("/coins", data={"csrf_token": token, "n": "12"})
    assert r.status_code == 400 and "sent no session cookie" in r.get_data(as_text=True)
    assert first.post("/coins", data={"csrf_token": token, "n": "12"}).status_code == 303

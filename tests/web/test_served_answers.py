"""What a visitor is sent (issue: served answers): only the guesses the player entered, refusals inline, options a
job would refuse refused before anything is queued, heavy answers from their kept bytes with an ETag."""

from __future__ import annotations

import gzip
import re
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

from flask.testing import FlaskClient

from solvers.variants.model import Variant
from solvers.variants.report import VariantRow
from tests.conftest import TEST_KEY
from tests.web.forms import form_token, refusal
from webapp import create_app
from webapp.jobs.access import app_store
from webapp.results.catalogue import VARIANT_TABLE, VariantParams
from webapp.results.computations import write


def _location(r: object) -> dict[str, str]:
    location = r.headers["Location"]  # type: ignore[attr-defined]
    return {k: v[0] for k, v in parse_qs(urlsplit(location).query).items()}


def _guess(client: FlaskClient, game: str, pegs: dict[str, str], **more: str) -> dict[str, str]:
    csrf = form_token(client, f"/codebreak/play?game={game}&maker=adversarial")
    data = {"csrf_token": csrf, "game": game, "maker": "adversarial", **more, **pegs}
    r = client.post("/codebreak/guess", data=data)
    assert r.status_code == 303
    return _location(r)


def test_an_incomplete_guess_is_not_played(client: FlaskClient) -> None:
    """Empty pegs (the selects' empty first option) are never filled in: the game is unchanged and the row says
    why; a complete guess is played as entered."""
    for pegs in ({}, {"p0": "C"}, {"p0": "C", "p1": "", "p2": "E", "p3": "F"}):
        after = _guess(client, "mastermind", pegs)
        assert "moves" not in after or after["moves"] == "", after
        html = client.get("/codebreak/play?" + urlencode(after)).get_data(as_text=True)
        assert "Not played: choose a colour for each of the 4 pegs first." in html
        assert "0 guesses" not in html and "<td>1</td>" not in html  # no row was added
    after = _guess(client, "mastermind", {"p0": "C", "p1": "D", "p2": "E", "p3": "F"})
    assert after["moves"] == "CDEF" and "refused" not in after


def test_the_selects_start_empty_and_are_required(client: FlaskClient) -> None:
    """Without JavaScript a peg's select starts on an empty choice the browser will not submit."""
    html = client.get("/codebreak/play?game=mastermind&maker=adversarial").get_data(as_text=True)
    selects = re.findall(r'<select name="p\d" required><option value="">choose</option>', html)
    assert len(selects) == 4


def test_a_repeated_colour_in_bulls_and_cows_is_an_inline_message(client: FlaskClient) -> None:
    """AABB is no Bulls and Cows code: the game stays, with the reason beside the guess row (not a 400 page)."""
    before = _guess(client, "bulls-and-cows", {"p0": "A", "p1": "B", "p2": "C", "p3": "D"})
    after = _guess(
        client, "bulls-and-cows", {"p0": "A", "p1": "A", "p2": "B", "p3": "B"}, g=before["moves"]
    )  # the name the form had before: still read
    assert after["moves"] == "0123" and after["refused"] == "AABB"  # the address in digits, as the page shows
    page = client.get("/codebreak/play?" + urlencode(after))
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Not played: 0011 repeats a digit, and in this game a code never does." in html  # A-J shown as 0-9
    assert '<span class="peg digit">0</span><span class="peg digit">1</span>' in html  # the game is still there


def test_a_random_game_without_its_token_says_how_to_start_one(client: FlaskClient) -> None:
    """No token: a 400 that says a random game begins with Start, not that a token is damaged."""
    status, message = refusal(client.get("/codebreak/play?game=mastermind&maker=random"))
    assert status == 400 and "begins with its Start button" in message


def test_options_a_job_would_refuse_are_refused_at_once(client: FlaskClient) -> None:
    """A cap on the guesses with a heuristic is a 400 before anything is computed or queued."""
    url = "/api/codebreak?game=mastermind&pegs=4&colours=5&strategy=knuth&max_guesses=9"
    r = client.get(url)
    assert r.status_code == 400 and "max_guesses" in r.get_json()["error"]


def test_the_aequitas_table_is_served_from_kept_bytes(client: FlaskClient) -> None:
    """The table's API answer carries a strong ETag, is sent gzipped to a client that accepts it, answers a
    conditional GET with 304, and the same bytes come back on the next visit; the page holds no token."""
    url = "/api/aequitas?table=1&max_coins=5"
    first = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert first.status_code == 200 and first.headers["Content-Encoding"] == "gzip"
    etag = first.headers["ETag"]
    assert etag and not etag.startswith("W/")
    plain = client.get(url)
    assert plain.get_data() == gzip.decompress(first.get_data())
    assert plain.headers["ETag"] != etag  # another representation, another strong ETag
    assert plain.get_json()["max_coins"] == 5
    assert client.get(url, headers={"If-None-Match": etag, "Accept-Encoding": "gzip"}).status_code == 304
    assert client.get(url, headers={"If-None-Match": plain.headers["ETag"]}).status_code == 304
    again = client.get(url, headers={"Accept-Encoding": "gzip"})  # not the plain answer kept for this address
    assert again.headers["Content-Encoding"] == "gzip" and again.get_data() == first.get_data()
    page = client.get("/aequitas/table?max=5").get_data(as_text=True)
    assert page.count('<table class="grundy"') == 3 * 2 and "csrf" not in page.lower()


def test_a_variant_beyond_its_tables_reach_is_refused_at_once(tmp_path: Path) -> None:
    """Where a variant's stored table shows a size beyond the search's reach, its plan is refused at once with the
    largest size within reach (nothing queued), and the form says how far each table reaches. The table here is
    written by the test (a store of its own): what is checked is the refusal, not the table."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": TEST_KEY,
            "RESULT_STORE": f"sqlite:{tmp_path / 'r.db'}",
        }  # pragma: allowlist secret
    )
    base = Variant(1, "unknown", lies=2)
    rows = tuple(
        VariantRow(n, 3 if n <= 5 else None, 3, "" if n <= 5 else "beyond this search's reach (test)")
        for n in range(1, 8)
    )
    with app.app_context():
        store = app_store()
        write(store, VARIANT_TABLE, VARIANT_TABLE.key(VariantParams(base.to_token())), rows)
    client = app.test_client()
    status, message = refusal(client.get("/variants/plan?n=7&weight=unknown&lies=2&fakes=1&pans=2"))
    assert status == 400 and message == (
        "7 coins are beyond this search's reach for this variant (its table of sizes stops at 6 coins, the first it "
        "could not plan); the largest number of coins it plans is 5"
    )
    assert "up to 5 coins" in client.get("/variants").get_data(as_text=True)


def test_naming_the_coin_keeps_the_hints_and_a_win_reads_as_one(client: FlaskClient) -> None:
    """Three coins, one heavier, one weighing: after 1 against 2 one case is left, and its coin's badge says it is
    the counterfeit (H!); naming it keeps the hint count, the page is titled as a win, and no line says that
    more weighings are needed."""
    base = "/adversary/play?n=3&weight=heavier&goal=identify&extra=0&maybe_none=0&budget=1&mode=adversary"
    token = form_token(client, base)
    after = client.get(base + "&w=1-2&h=2").get_data(as_text=True)
    known = re.findall(r'<li class="coin-badge heavy"><span aria-hidden="true" class="glyph">H!</span> (\d)', after)
    assert len(known) == 1, after
    fields = {"csrf_token": token, "n": "3", "weight": "heavier", "budget": "1", "w": "1-2", "h": "2"}
    r = client.post("/adversary/guess", data={**fields, "coin": known[0], "fake_is": "heavier"})
    assert r.status_code == 303 and "h=2" in r.headers["Location"]
    html = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "<h1>Game won</h1>" in html and "needed, 0 left" not in html and "weighings needed" not in html
    assert re.search(r"Hints[^0-9]*2", re.sub(r"<[^>]+>", " ", html)), "the win screen counts the hints"

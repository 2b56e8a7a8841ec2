"""The adversary game's pages and API through the Flask client."""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlsplit

import pytest
from flask.testing import FlaskClient
from markupsafe import escape

from tests.web.forms import form_token, refusal

BASE = "/adversary/play?n=12&weight=unknown&goal=identify&extra=0&maybe_none=0&budget=3&mode=adversary"


def test_setup_starts_a_game(client: FlaskClient) -> None:
    """The set-up form posts and redirects (303) to the first position; budget defaults to the minimum."""
    r = client.post("/adversary", data={"csrf_token": form_token(client, "/adversary"), "n": "12"})
    assert r.status_code == 303 and r.headers["Location"] == BASE


def test_play_page(client: FlaskClient) -> None:
    """The first position: a select per coin, a Weigh button, the observer, hints."""
    html = client.get(BASE).get_data(as_text=True)
    assert html.count('<select id="c') == 12 and ">Weigh</button>" in html
    assert "24 cases left" in html and "Show a hint" in html


def test_weigh_and_warning(client: FlaskClient) -> None:
    """A wasteful weighing is accepted, then flagged with the solver's better weighing."""
    token = form_token(client, BASE)
    data = {"csrf_token": token, "n": "12", "budget": "3", "c1": "left", "c2": "right"}
    r = client.post("/adversary/weigh", data=data)
    assert r.status_code == 303 and r.headers["Location"].endswith("&moves=1-2")
    html = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "weighing 1 lost it" in html and "would have weighed 1\u20134 against 5\u20138" in html


def test_unequal_weighing_is_refused(client: FlaskClient) -> None:
    """Unequal pans: a 400 with the message, the choices kept, nothing spent."""
    token = form_token(client, BASE)
    data = {"csrf_token": token, "n": "12", "budget": "3", "c1": "left", "c2": "left", "c3": "right"}
    r = client.post("/adversary/weigh", data=data)
    html = r.get_data(as_text=True)
    assert r.status_code == 400 and "equal numbers of coins" in html and "cost nothing" in html
    assert 'data-coin="1" data-place="left"' in html and "Weighing 1 of 3" in html


def test_weigh_without_csrf_is_refused(client: FlaskClient) -> None:
    """CSRF applies to the game's POSTs too."""
    r = client.post("/adversary/weigh", data={"n": "12", "c1": "left", "c2": "right"})
    assert r.status_code == 400 and "without its security token" in r.get_data(as_text=True)


def test_hints_in_steps(client: FlaskClient) -> None:
    """Hint 1 says how many weighings remain; hint 2 gives the solver's weighing."""
    one = client.get(BASE + "&hint=1").get_data(as_text=True)
    assert "You can still finish in 3 more weighings" in one and "The solver would weigh" not in one
    two = client.get(BASE + "&hint=2").get_data(as_text=True)
    assert "The solver would weigh <strong>1\u20134</strong> against <strong>5\u20138</strong>" in two


def test_guess_ends_the_game(client: FlaskClient) -> None:
    """Naming a coin too early loses: one end screen (the weighings against the proved best, the take-backs made:
    the undo chain's count survives naming the coin), and the Observer says the game is over."""
    token = form_token(client, BASE)
    w = "1,2,3,4-5,6,7,8;1,2,3-4,5,6"  # the second weighing taken back (at=1), once (u=1)
    r = client.post(
        "/adversary/guess",
        data={
            "csrf_token": token,
            "n": "12",
            "budget": "3",
            "w": w,
            "at": "1",
            "u": "1",
            "coin": "9",
            "fake_is": "heavier",
        },
    )
    assert r.status_code == 303 and r.headers["Location"].endswith("&guess=9h")
    assert "at=1" in r.headers["Location"] and "u=1" in r.headers["Location"]
    html = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "Not proved: the scale could still say otherwise" in html and "fits every answer" in html
    assert html.count('class="win') == 1 and "Scorecard" not in html
    assert re.search(r'class="take-backs">1<', html), "the take-back was forgotten when the coin was named"
    assert "The game is over, with 2 weighings to spare." in html and "name the coin." not in html


def test_honest_game_hides_the_secret(client: FlaskClient) -> None:
    """Honest mode: the secret is only in an encrypted token; it is revealed when the game ends."""
    token = form_token(client, "/adversary")
    r = client.post("/adversary", data={"csrf_token": token, "n": "12", "mode": "honest"})
    url = r.headers["Location"]
    assert "&t=gAAAA" in url and "secret" not in url
    page = client.get(url)
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "You win" not in html
    assert "was heavier" not in html and "was lighter" not in html
    fields = dict(parse_qsl(urlsplit(url).query))
    done = client.post("/adversary/guess", data={**fields, "csrf_token": token, "coin": "1", "fake_is": "heavier"})
    ended = client.get(done.headers["Location"]).get_data(as_text=True)
    assert "The secret: " in ended
    tampered = client.get(url[:-6] + "AAAAAA")
    assert tampered.status_code == 400 and "this game token is damaged" in tampered.get_data(as_text=True)


COINS_3_TO_1000 = "The number of coins (n) must be a whole number from 3 to 1,000"


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("n=2&budget=3", COINS_3_TO_1000),
        ("n=1001", COINS_3_TO_1000),
        ("n=12&budget=2", "The weighing budget must be a whole number from 3 to 23"),
        ("n=12&budget=99", "The weighing budget must be a whole number from 3 to 23"),
        ("n=12&budget=2000000", "The weighing budget must be a whole number from 3 to 23"),
        ("n=12&budget=abc", "The weighing budget must be a whole number from 3 to 23"),
        ("n=12&budget=-4", "The weighing budget must be a whole number from 3 to 23"),
        ("n=12&w=1,2-3", "weighing 1: the pans must hold equal numbers of coins (left 2, right 1)"),
        ("n=12&w=1-1", "weighing 1: a coin can only be in one place at a time"),
        ("n=12&w=x", "weighing 1: write it as left coins, a '-', right coins (like 1,2-3,4)"),
        ("n=12&w=13-1", "weighing 1: there is no coin 13: coins are numbered 1 to 12"),
        ("n=12&w=1-2;3-4;5-6;7-8", "weighing 4 is beyond the budget of 3"),
        ("n=12&hint=3", "hint must be a whole number from 0 to 2"),
        ("n=12&guess=zz", "a case is a coin number with h or l (like 7h), or 'none'"),
        ("n=12&mode=honest&t=nope", "this game token is damaged"),
        ("n=12&extra=99", "Extra genuine coins must be a whole number from 0 to 50"),
        ("n=12&w=1-2&guess=13h", "there is no coin 13: coins are numbered 1 to 12"),
    ],
)
def test_bad_urls_are_400(client: FlaskClient, query: str, message: str) -> None:
    """Malformed or impossible positions give a 400 page that names what is wrong, as a sentence (a budget above the
    problem's range says the same range as one below it)."""
    r = client.get("/adversary/play?" + query)
    status, said = refusal(r)
    assert status == 400 and said.startswith(message), (query, said)
    assert f"{escape(said)}.</p>" in r.get_data(as_text=True)  # a sentence: its full stop


def test_api(client: FlaskClient) -> None:
    """The API's fields, for a balance then an unbalanced answer."""
    data = client.get("/api/adversary?n=12&w=1,2,3,4-5,6,7,8;9,10,11-1,2,3").get_json()
    assert data["outcomes"][0] == "balance" and len(data["outcomes"]) == 2
    assert set(data) >= {"outcomes", "cases_left", "can_still_finish", "weighings_left", "knowledge"}
    assert data["weighings_left"] == 1 and data["knowledge"]["1"] == "genuine"
    bad = client.get("/api/adversary?n=12&w=1-2-3")
    assert bad.status_code == 400 and "write it as left coins, a '-', right coins" in bad.get_json()["error"]


def test_pans_typed_as_ranges(client: FlaskClient) -> None:
    """Without JavaScript the pans can be typed (1-4 and 5..8, spaces allowed): they win over the coins' own
    controls; a coin on both pans or one the game does not have is refused inline, the typed text kept."""
    token = form_token(client, BASE)
    data = {"csrf_token": token, "n": "12", "budget": "3", "left": "1-4", "right": "5 .. 8", "c9": "left"}
    r = client.post("/adversary/weigh", data=data)
    assert r.status_code == 303 and r.headers["Location"].endswith("&moves=1..4-5..8")
    for left, right, message in [
        ("1-4", "4-7", "coin 4 is typed on both pans"),
        ("1-4", "13", "coin 13 is not in this game"),
    ]:
        bad = client.post("/adversary/weigh", data={**data, "left": left, "right": right})
        html = bad.get_data(as_text=True)
        assert bad.status_code == 400 and message in html and "Weighing 1 of 3" in html, html
        assert (
            f'name="right" class="pan-text" data-side="right" autocomplete="off" spellcheck="false" value="{right}"'
            in html
        )


def test_a_guess_the_answers_rule_out_is_called_wrong_and_says_the_truth(client: FlaskClient) -> None:
    """Three coins, 1 against 2 then 3 against 1: the adversary's answers leave one case, coin 3 (the answers
    replayed here). Naming it is proved; naming it with the other weight, or another coin, is wrong and says so,
    not 'Not proved'."""
    from solvers.weighing.adversary import cases_of, replay
    from solvers.weighing.knowledge import parse_weighings
    from solvers.weighing.problem import Problem

    base = "/adversary/play?n=3&weight=unknown&goal=identify&extra=0&maybe_none=0&budget=2&mode=adversary"
    left = cases_of(replay(Problem(3), 2, parse_weighings("1-2;3-1")).steps[-1].after)
    assert len(left) == 1 and left[0].coin == 3
    truth = "h" if left[0].heavier else "l"
    other = "l" if truth == "h" else "h"
    page = client.get(f"{base}&moves=1-2;3-1&guess=3{other}").get_data(as_text=True)
    weight = {"h": "heavier", "l": "lighter"}
    assert f"Wrong: you named coin 3 {weight[other]}; it is {weight[truth]}." in page and "Not proved" not in page
    assert "Not the coin" not in page  # the coin was right; the weight was not
    page = client.get(f"{base}&moves=1-2;3-1&guess=1h").get_data(as_text=True)
    assert f"Wrong: you named coin 1 heavier; the answers leave one case: Coin 3 is {weight[truth]}." in page
    assert "Proved: coin 3" in client.get(f"{base}&moves=1-2;3-1&guess=3{truth}").get_data(as_text=True)


def test_a_hint_counts_once_per_weighing_whatever_its_levels(client: FlaskClient) -> None:
    """The first hint of a position counts one (h=1); its second level (the solver's weighing) counts no more."""
    one = client.get(BASE).get_data(as_text=True)
    first = re.search(r'href="([^"]*hint=1[^"]*)"', one)
    assert first is not None and dict(parse_qsl(urlsplit(first.group(1).replace("&amp;", "&")).query))["h"] == "1"
    two = client.get(BASE + "&hint=1&h=1").get_data(as_text=True)
    second = re.search(r'href="([^"]*hint=2[^"]*)"', two)
    assert second is not None and dict(parse_qsl(urlsplit(second.group(1).replace("&amp;", "&")).query))["h"] == "1"


def test_the_setup_form_says_which_budgets_its_coins_allow(client: FlaskClient) -> None:
    """The line under the budget field names the range the server accepts for the coins chosen (the field's own
    bounds are every problem's), and the form asks for it again as its settings change."""
    problem = "weight=unknown&goal=identify&extra=0&maybe_none=0"
    # 12 coins, heavier or lighter, coin and weight named: 3 weighings (Dyson 1946), and the game allows 20 more
    assert "From 3 to 23 weighings" in client.get(f"/adversary/budget?n=12&{problem}").get_data(as_text=True)
    assert "From 3 to 23 weighings" in client.get(f"/adversary?n=12&{problem}").get_data(as_text=True)
    refused = client.get(f"/adversary/budget?n=2&{problem}").get_data(as_text=True)
    assert "cannot be played" in refused and COINS_3_TO_1000 in refused
    page = client.get("/adversary").get_data(as_text=True)
    assert 'hx-get="/adversary/budget"' in page and 'hx-target="#budget-help"' in page and "Leave it empty" in page

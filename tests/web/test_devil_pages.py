"""The Devil's game pages and API."""

from __future__ import annotations

import html
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from flask.testing import FlaskClient

from tests.web.forms import form_token, refusal


def test_adversarial_game(client: FlaskClient) -> None:
    """Three moves win N = 2 (flip both, one, both); one fewer is 'Not yet'."""
    won = client.get("/devil/play?n=2&moves=3,1,3").get_data(as_text=True)
    assert "You win after 3 moves." in won
    assert "Coins: HH</title>" in won  # against the adversarial Devil a win means every table is all heads
    not_yet = client.get("/devil/play?n=2&moves=3,1").get_data(as_text=True)
    assert "Not yet: the Devil's table can only be one table now, not all heads." in not_yet
    assert 'class="round-table"' in not_yet and "Coins:" not in not_yet


def test_flip_posts_and_redirects(client: FlaskClient) -> None:
    """The Flip form posts the checked places and redirects (303) to the position with the move added."""
    token = form_token(client, "/devil")
    r = client.post("/devil/flip", data={"csrf_token": token, "n": "4", "moves": "f", "place": ["0", "2"]})
    assert r.status_code == 303 and parse_qs(urlsplit(r.headers["Location"]).query)["moves"] == ["f,5"]


def test_peek_shows_rings(client: FlaskClient) -> None:
    """Peek shows how many tables are still possible, one ring per rotation class."""
    html = client.get("/devil/play?n=4&moves=f&peek=1").get_data(as_text=True)
    assert "14 tables still possible, in 4 rotation classes" in html and html.count('class="ring"') == 4


def test_no_strategy_page_explains(client: FlaskClient) -> None:
    """N = 3: the page says no sure win exists, and why, and still lets you play."""
    html = client.get("/devil/play?n=3").get_data(as_text=True)
    assert "No sequence of moves is sure to win" in html and "odd prime factor 3" in html and ">Flip<" in html


def test_random_devil_hides_the_table(client: FlaskClient) -> None:
    """The random Devil's table lives only in a sealed token; tampering is a 400."""
    r = client.post("/devil", data={"csrf_token": form_token(client, "/devil"), "n": "4", "devil": "random"})
    url = r.headers["Location"]
    assert "&t=gAAAA" in url
    assert client.get(url).status_code == 200
    assert client.get(url.replace("&t=gAAAA", "&t=gAAAB")).status_code == 400


def test_solution_navigator(client: FlaskClient) -> None:
    """Step through the 15-move solution for N = 4; paging for N = 8."""
    html = client.get("/devil/solution?n=4&step=15").get_data(as_text=True)
    assert "move 15 of 15" in html and "nothing: every table is all heads" in html
    big = client.get("/devil/solution?n=8&step=200").get_data(as_text=True)
    assert "Moves 193 to 224" in big and big.count("<tr") == 33


def test_the_solution_from_the_players_position(client: FlaskClient) -> None:
    """Mid-game, 'Show the solution' opens the shortest sure win from the position reached, numbered on from the
    player's moves: for N = 4 after flipping one coin (a wasted move), 15 more moves; the play page says how many
    tables the flip left and how many a best move would have left. A won game has nothing left to solve."""
    page = client.get("/devil/play?n=4&moves=1").get_data(as_text=True)
    assert 'Your flip left <strong class="tables-left">15</strong> of the 15 tables' in page
    assert 'would have left <strong class="best-left">14</strong>' in page
    (url,) = [u for u in re.findall(r'href="(/devil/solution[^"]*)"', page)]
    assert parse_qs(urlsplit(html.unescape(url)).query)["from"] == ["1"]
    sol = client.get(html.unescape(url)).get_data(as_text=True)
    assert "move 2 of 16" in sol and "From your position after 1 move: <strong>15</strong> more moves" in sol
    last = client.get("/devil/solution?n=4&from=1&step=16").get_data(as_text=True)
    assert "nothing: every table is all heads" in last
    assert refusal(client.get("/devil/solution?n=4&from=1&step=1"))[0] == 400  # the player's own moves are not steps
    assert refusal(client.get("/devil/solution?n=2&from=3,1,3")) == (
        400,
        "these moves have already won the game: there is nothing left to solve",
    )


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("n=0", "The number of coins (n) must be a whole number from 1 to 16"),
        ("n=17", "The number of coins (n) must be a whole number from 1 to 16"),
        ("n=4&moves=zz", "moves are hexadecimal bitmasks of places, like 5 for places 0 and 2"),
        ("n=4&moves=10", "a move names places 0 to 3"),
        ("n=2&moves=3,1,3,1", "the game was already won after move 3"),
        ("n=4&devil=x", "devil must be one of: adversarial, random"),
        ("n=4&goal=some", "goal must be one of: all-heads, all-equal"),
    ],
)
def test_bad_input(client: FlaskClient, query: str, message: str) -> None:
    """Malformed or impossible positions: a 400 page that names what is wrong."""
    assert refusal(client.get("/devil/play?" + query)) == (400, message)


def test_api(client: FlaskClient) -> None:
    """The API's fields and moves (0-based, 0 at 12 o'clock)."""
    data = client.get("/api/devil?n=2&moves=1").get_json()
    assert data == {
        "coins": 2,
        "goal": "all-heads",
        "reflections": False,
        "states": 2,
        "solvable": True,
        "length": 3,
        "method": "search",
        "verified": True,
        "moves": [[0, 1], [0], [0, 1]],
    }
    no = client.get("/api/devil?n=12").get_json()
    assert no["solvable"] is False and no["method"] == "search" and "0, 4, 8" in no["reason"]
    assert refusal(client.get("/api/devil?n=16&states=3")) == (
        400,
        "3^16 configurations is more than this tool handles",
    )


def test_three_coins_can_be_given_up_or_played_against_the_random_devil(client: FlaskClient) -> None:
    """3 coins against the adversarial Devil: no sure win exists (only powers of two have one), so the page offers
    to give up (the end screen, the flip form gone) and a game against the random Devil, which luck can end; the
    solution page says there is no sure win."""
    page = client.get("/devil/play?n=3&moves=1").get_data(as_text=True)
    assert "No sequence of moves is sure to win." in page and "Play against the random Devil" in page
    give_up = re.search(r'<a href="([^"]*resign=1[^"]*)"', page)
    assert give_up
    ended = client.get(give_up[1].replace("&amp;", "&")).get_data(as_text=True)
    assert "You gave up: the Devil keeps its table" in ended and "You gave up after 1 move." in ended
    assert "none: no sequence of moves is sure to win" in ended and 'id="flip-button"' not in ended
    token = form_token(client, "/devil")
    form = page.split('class="random-devil"')[1]
    fields = dict(re.findall(r'name="(n|goal|reflections|devil)" value="([^"]*)"', form))
    r = client.post("/devil", data={"csrf_token": token, **fields})
    assert r.status_code == 303 and "devil=random" in r.headers["Location"] and "n=3" in r.headers["Location"]
    solution = client.get("/devil/solution?n=3").get_data(as_text=True)
    assert "<h1>No sure win for 3 coins</h1>" in solution and "The sure win" not in solution


def test_a_game_with_a_sure_win_can_be_given_up_too(client: FlaskClient) -> None:
    """4 coins: giving up shows the proved best beside the moves made (15 moves: Norvig, 'The Devil and the Coin
    Flip Game', the shortest sure win for 4 coins)."""
    ended = client.get("/devil/play?n=4&moves=1&resign=1").get_data(as_text=True)
    assert "You gave up: the Devil keeps its table" in ended and 'class="optimum">15<' in ended


def test_the_solution_leads_back_to_the_game_and_counts_as_a_hint(client: FlaskClient) -> None:
    """'Show the solution' carries the game (its moves and hints) to the solution page, whose steps keep it; its
    'Back to the game' opens the same position with one hint more counted; opened on its own, it has no way back."""
    page = client.get("/devil/play?n=4&devil=adversarial&moves=1&h=2").get_data(as_text=True)
    (url,) = [html.unescape(u) for u in re.findall(r'href="(/devil/solution[^"]*)"', page)]
    assert parse_qs(urlsplit(url).query)["h"] == ["3"]
    sol = client.get(url).get_data(as_text=True)
    step = [html.unescape(u) for u in re.findall(r'href="(/devil/solution[^"]*)"', sol)][-1]
    back = re.findall(r'<a href="([^"]+)">Back to the game</a>', client.get(step).get_data(as_text=True))
    assert len(back) == 1
    query = parse_qs(urlsplit(html.unescape(back[0])).query)
    assert urlsplit(html.unescape(back[0])).path == "/devil/play"
    assert (query["moves"], query["h"], query["n"]) == (["1"], ["3"], ["4"])
    game = client.get(html.unescape(back[0])).get_data(as_text=True)
    assert "Your flip left" in game
    assert "Back to the game" not in client.get("/devil/solution?n=4").get_data(as_text=True)


def test_one_table_left_is_said_in_the_singular(client: FlaskClient) -> None:
    """When the Devil's table can be only one table, the page says so, not 'any of 1 table that are'."""
    from solvers.devil import DevilVariant, adversarial_sizes, moves_from_text

    v = DevilVariant(2, "all-heads", False)
    moves = next(
        m
        for m in ("1", "2", "3", "1,3", "3,1", "1,2", "2,1", "3,2")
        if adversarial_sizes(v, moves_from_text(v, m))[-1] == 1
    )
    page = client.get(f"/devil/play?n=2&moves={moves}").get_data(as_text=True)
    assert "can only be one table now, not all heads" in page and "any of 1 table" not in page

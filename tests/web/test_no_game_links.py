"""A link to a game with a sealed secret that lost its token (a bookmark, an edited address) offers the Start button
of a new game with the same settings, which starts one; the Æquitas rules read as words wherever they are named."""

from __future__ import annotations

import html
import re

import pytest
from flask.testing import FlaskClient


@pytest.mark.parametrize(
    ("link", "what"),
    [
        ("/codebreak/play?game=bulls-and-cows&maker=random", "a game against the random code maker"),
        ("/codebreak/play?game=mastermind&maker=random&pegs=3&colours=5", "a game against the random code maker"),
        ("/adversary/play?n=12&mode=honest", "a game on the honest scale"),
        ("/devil/play?n=4&devil=random", "a game against the random Devil"),
    ],
)
def test_a_link_without_its_token_offers_a_start_button_that_starts_the_game(
    client: FlaskClient, link: str, what: str
) -> None:
    """The page says why it holds no game and posts the link's settings to the game's start; the new game's
    address keeps them and carries a token."""
    r = client.get(link)
    page = r.get_data(as_text=True)
    assert r.status_code == 400 and f"This link holds no game: {what} begins with its Start button" in page
    form = re.search(r'<form method="post" action="([^"]+)">(.*?)</form>', page, re.S)
    assert form is not None and ">Start</button>" in form.group(2)
    fields = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', form.group(2)))
    started = client.post(form.group(1), data={k: html.unescape(v) for k, v in fields.items()})
    assert started.status_code == 303
    address = started.headers["Location"]
    assert "t=" in address and "t=&" not in address and not address.endswith("t=")
    for key, value in re.findall(r"[?&](\w+)=([^&]*)", link):
        assert f"{key}={value}" in address, (key, address)
    assert client.get(address).status_code == 200


def test_the_aequitas_rules_are_named_in_words(client: FlaskClient) -> None:
    """The game's statistics label and the table's headings name a rule in words, never its URL value."""
    page = client.get("/aequitas/play?game=F&n=6&conv=misere-last-mover-loses&moves=").get_data(as_text=True)
    assert "(misère, last mover loses)" in page and "(misere-last-mover-loses)" not in page
    table = client.get("/aequitas/table").get_data(as_text=True)
    assert "<h2>Misère, last mover loses</h2>" in table and "<h2>misere-last-mover-loses</h2>" not in table

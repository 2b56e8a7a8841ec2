"""Æquitas pages and API through the Flask client."""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, unquote, urlparse

import pytest
from flask.testing import FlaskClient

from tests.web.forms import form_token, refusal

D4 = "/aequitas/play?game=D&n=4&extra=1&light=4&fake=1&heavier=0&conv=normal&first=you"


def test_setup_starts_a_game(client: FlaskClient) -> None:
    """The set-up posts and redirects (303) to the first position."""
    token = form_token(client, "/aequitas")
    data = {"csrf_token": token, "game": "D", "n": "4", "light": "4", "fake": "1", "extra": "1"}
    r = client.post("/aequitas", data=data)
    assert r.status_code == 303 and r.headers["Location"] == D4


def test_the_setup_and_the_first_turn_say_who_wins(client: FlaskClient) -> None:
    """The set-up page marks its start (from the form's settings, and as a fragment the form swaps in when they
    change); settings that cannot be played say why; the first turn of a lost start says so and links to the
    set-up with the computer first; what the Observer knows is in plain words."""
    page = client.get("/aequitas?game=F&n=4").get_data(as_text=True)
    assert "<strong>Lost for the first player</strong>" in page and 'hx-get="/aequitas/verdict"' in page
    fragment = client.get("/aequitas/verdict?game=F&n=4&first=computer").get_data(as_text=True)
    assert "You, moving second, can win." in fragment and "<html" not in fragment
    bad = client.get("/aequitas/verdict?game=D&n=3&light=9").get_data(as_text=True)
    said = "cannot be played: Coins that would be light if fake (light) must be a whole number from 0 to 3."
    assert said in bad
    play = client.get("/aequitas/play?game=F&n=4&conv=normal&first=you&w=").get_data(as_text=True)
    assert "This start is lost for you" in play and "first=computer" in play
    assert "What she knows: 4 coins she knows nothing about, no coin known genuine." in play
    observer = play.split('id="observer-h"')[1].split("</section>")[0]
    assert "destined" not in observer and "viewed with" not in play
    won = client.get(D4).get_data(as_text=True)
    assert "This start is won for you" in won and "its <a" in won


def test_play_shows_the_fake_and_hints(client: FlaskClient) -> None:
    """The fake is shown; hints give the position's value and each option's value."""
    html = client.get(D4 + "&hint=1").get_data(as_text=True)
    assert "The fake is coin 1 (lighter)" in html and "Grundy value</a> <strong>3</strong>" in html
    assert 'class="winning"' in html


def test_win_in_one_and_computer_replies(client: FlaskClient) -> None:
    """Excluding every real coin at once wins (normal play); otherwise the computer answers."""
    token = form_token(client, D4)
    r = client.post(
        "/aequitas/weigh",
        data={
            "csrf_token": token,
            **dict(parse_qsl(urlparse(D4).query)),
            "c2": "left",
            "c3": "left",
            "c4": "right",
            "cG1": "right",
        },
    )
    html = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "You win" in html and "revealed the last piece of information" in html
    assert "<h1>You win</h1>" in html and "Game over" not in html and html.count('id="win-h"') == 1
    r = client.post(
        "/aequitas/weigh",
        data={"csrf_token": token, **dict(parse_qsl(urlparse(D4).query)), "c3": "left", "c4": "right"},
    )
    assert r.status_code == 303 and unquote(r.headers["Location"]).count(";") == 1  # user's move and the computer's


def test_uninformative_weighing_is_refused(client: FlaskClient) -> None:
    """Weighing coins the Observer already knows are genuine tells her nothing: refused, with the reason."""
    url = "/aequitas/play?game=D&n=6&light=6&fake=6&conv=misere-last-mover-loses&w=1-2;3-4"
    token = form_token(client, url)
    r = client.post(
        "/aequitas/weigh",
        data={"csrf_token": token, **dict(parse_qsl(urlparse(url).query)), "c1": "left", "c2": "right"},
    )
    assert r.status_code == 400 and "no new information" in r.get_data(as_text=True)


def test_table_page(client: FlaskClient) -> None:
    """The table shows agreement counts and flags disagreements with links to playable positions."""
    html = client.get("/aequitas/table?max=12").get_data(as_text=True)
    assert "misere-stop-before-reveal" in html and ("&#9873;" in html or "\u2691" in html)
    assert re.search(r'href="/aequitas/play\?[^"]*hint=1"', html)


NOTHING_TO_PLAY = "nothing to play: the Observer already knows the answer, or no weighing tells her anything"


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("game=X&n=4", "game must be one of: D, F, FI"),
        ("game=D&n=0", "The number of coins (n) must be a whole number from 1 to 40"),
        ("game=D&n=41", "The number of coins (n) must be a whole number from 1 to 40"),
        ("game=D&n=4&light=9", "Coins that would be light if fake (light) must be a whole number from 0 to 4"),
        ("game=D&n=4&fake=5", "The fake coin must be a whole number from 1 to 4"),
        ("game=F&n=1", NOTHING_TO_PLAY),
        ("game=D&n=2&light=1&fake=2", NOTHING_TO_PLAY),
        ("game=D&n=4&w=1-2-3", "weighing 1: write it as left coins, a '-', right coins"),
        ("game=D&n=4&w=1-1", "weighing 1: a coin can only be in one place at a time"),
        ("game=D&n=4&conv=odd", "conv must be one of: normal, misere-last-mover-loses, misere-stop-before-reveal"),
        (
            "game=D&n=4&light=4&fake=1&extra=1&w=1,2-3,G1;3-4",
            "weighing 2 is not a move: this weighing gives the Observer no new information",
        ),
    ],
)
def test_bad_positions_are_400(client: FlaskClient, query: str, message: str) -> None:
    """Malformed or impossible positions are a 400 that names what is wrong."""
    status, said = refusal(client.get("/aequitas/play?" + query))
    assert status == 400 and said.startswith(message), (query, said)


def test_api_position(client: FlaskClient) -> None:
    """The API's fields; the winning move of D+(4,0) excludes every real coin."""
    data = client.get("/api/aequitas?game=D&coins=4&light=4&heavy=0&fake=light&extra=1").get_json()
    assert {"game", "coins", "misere", "extra", "grundy", "outcome", "winning_moves"} <= set(data)
    assert data["grundy"] == 3 and data["outcome"] == "N" and len(data["winning_moves"]) == 1
    p = client.get("/api/aequitas?game=F&coins=4").get_json()
    assert p["grundy"] == 0 and p["outcome"] == "P" and p["winning_moves"] == []
    assert client.get("/api/aequitas?game=F&n=4").get_json() == p  # the pages' name for the coins, too


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("game=D&coins=4&light=3&heavy=3", "light + heavy must equal coins"),
        ("game=D&coins=4&fake=heavy", "the fake cannot be heavy: no coin would be heavy if it were the fake"),
        ("game=F&coins=4&misere=0&convention=misere-last-mover-loses", "misere and convention disagree"),
        ("game=Q&coins=3", "game must be one of: D, F, FI"),
    ],
)
def test_api_bad_input(client: FlaskClient, query: str, message: str) -> None:
    """Inconsistent parameters: a JSON 400 naming the inconsistency."""
    assert refusal(client.get("/api/aequitas?" + query)) == (400, message)


def test_api_table(client: FlaskClient) -> None:
    """table=1 returns every cell with flags; certificates=1 lists the certificates of the disagreeing ones, which
    the table otherwise counts (options), each count the length of the list it stands for."""
    data = client.get("/api/aequitas?table=1&max_coins=6").get_json()
    whole = client.get("/api/aequitas?table=1&max_coins=6&certificates=1").get_json()
    assert data["paper_tables_use"] == whole["paper_tables_use"] == "misere-stop-before-reveal"
    assert data["certificates"] is False and whole["certificates"] is True
    flagged = [c for c in whole["cells"] if not c["agrees"]]
    assert flagged and all("certificate" in c and "options" not in c for c in flagged)
    counted = [c for c in data["cells"] if not c["agrees"]]
    assert [c["options"] for c in counted] == [len(c["certificate"]) for c in flagged]
    assert all("certificate" not in c for c in data["cells"])
    assert [{k: v for k, v in c.items() if k != "options"} for c in data["cells"]] == [
        {k: v for k, v in c.items() if k != "certificate"} for c in whole["cells"]
    ]


def test_api_table_up_to_30_is_compact_without_gzip(client: FlaskClient) -> None:
    """N <= 30 without Accept-Encoding: under 2 MB (22 MB with every certificate listed)."""
    response = client.get("/api/aequitas?table=1&max_coins=30")
    assert response.status_code == 200 and "Content-Encoding" not in response.headers
    assert len(response.get_data()) < 2_000_000 and b'": ' not in response.get_data()  # compact, as jsonify
    assert len(response.get_json()["cells"]) == 5940


def test_outcomes_drawn_and_written_for_both_players(client: FlaskClient) -> None:
    """Game F with 5 coins, the fake coin 1 heavier: the player weighs 1 against 2 (left heavier, as coin 1 is
    the heavy fake), the computer replies; the page draws both weighings tipped the way they came out and says
    what the Observer learned from each, and the history says the outcomes."""
    url = "/aequitas/play?game=F&n=5&extra=0&light=0&fake=1&heavier=1&conv=normal&first=you&w=1-2;2-3"
    text = re.sub(r"<[^>]+>", "", client.get(url).get_data(as_text=True))
    assert "Your weighing and the computer's reply" in text
    # coin 1 (heavy) on the left: left heavier; coins 3-5 off the scale are cleared, 1 can only be heavy, 2 light
    assert "1. You weighed 1 against 2: left heavier. The Observer learned: coins 3–5 are known genuine; " in text
    assert "coin 1 can only be heavy; coin 2 can only be light (10 &rarr; 2 cases)" in text
    # 2 against 3 with the fake elsewhere balances: coin 2 is cleared
    assert "2. The computer weighed 2 against 3: balance. The Observer learned: coin 2 is known genuine" in text
    assert "the scale shows left heavier" in text and "the scale shows balance" in text  # the pictures' titles
    assert "(you): left heavier. Coins 3–5 are known genuine" in text
    assert "(computer): balance. Coin 2 is known genuine." in text


def test_the_set_up_offers_classic_games_in_plain_words(client: FlaskClient) -> None:
    """/aequitas's classic games each open a game; the pages say 'would be light', not the paper's 'destined'."""
    page = client.get("/aequitas").get_data(as_text=True)
    games = re.findall(r'class="button-link" href="(/aequitas/play\?[^"]+)"', page)
    assert len(games) == 4
    for url in games:
        html = client.get(url.replace("&amp;", "&"), follow_redirects=True).get_data(as_text=True)
        assert "-destined" not in html.split("<main", 1)[1].split("</main>", 1)[0]
    d = client.get("/aequitas/play?game=D&n=6&light=3").get_data(as_text=True)
    assert "would be light</a> if fake, 3 would be heavy" in d


def test_a_link_with_the_computer_first_plays_its_move_and_shows_the_controls(client: FlaskClient) -> None:
    """A GET of a start where the computer moves first (a preset, a bookmark) redirects to the position after the
    computer's weighing, which offers your weighing's controls; a position where it is your turn is not moved."""
    start = "/aequitas/play?game=F&n=12&first=computer&conv=misere-last-mover-loses"
    r = client.get(start)
    assert r.status_code == 303
    moves = dict(parse_qsl(urlparse(r.headers["Location"]).query))["moves"]
    assert moves and ";" not in moves  # the computer's one weighing, then your turn
    page = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "<form" in page and "Weigh" in page
    assert client.get(r.headers["Location"]).status_code == 200


def test_the_presets_last_and_say_what_they_offer(client: FlaskClient) -> None:
    """Every Æquitas preset is a game no first weighing ends, and its line is true by the solver's Grundy values:
    how many first weighings there are and how many of them win (leave value 0), or that the computer, moving
    first, faces a lost start."""
    from solvers.aequitas.game import grundy, playable
    from webapp.pages.aequitas import parse_game, puzzle

    page = client.get("/aequitas").get_data(as_text=True)
    for label, _, query, note in puzzle.presets:  # type: ignore[misc]
        assert label in page and note in page
        m = parse_game(query)
        t = m.start()
        pos, _ = t.position()
        legal = playable(pos, t.goal, m.convention)
        assert all(playable(after, t.goal, m.convention) for after, _ in legal), label  # none ends the game
        winning = sum(grundy(after, t.goal, m.convention) == 0 for after, _ in legal)
        if m.first == "computer":
            assert winning == 0 and "lost start" in note, label
        else:
            assert f"{winning} winning first weighing among {len(legal)}" in note or (
                f"Only {winning} of the {len(legal)} possible first weighings wins" in note
            ), label


def test_the_observer_counts_every_coin_she_knows_genuine(client: FlaskClient) -> None:
    """Eight coins, the computer first: after its weighing (1 against 2) six coins are known genuine, and the
    Observer's line says six, not the two a position keeps for the search."""
    page = client.get("/aequitas/play?game=FI&n=8&first=computer", follow_redirects=True).get_data(as_text=True)
    said = re.search(r"What she knows: ([^<]*)\.</p>", page)
    assert said is not None and "6 known genuine" in said.group(1), said

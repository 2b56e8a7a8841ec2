"""Games with a hidden secret cannot be cheated: the attacks found in a review (issue 11) all fail.

The honest scale, the random Devil and the random code maker are bound to their recorded history: a token
vouches for one position, only the latest position of a game that is not over can move, earlier positions are
read-only, the secret is shown only once the game has ended, and sealed tokens all have one length.
"""

from __future__ import annotations

import html
import re
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from flask.testing import FlaskClient

from solvers.errors import InputError
from tests.web.forms import form_token, refusal

HISTORY = "this position is not part of this game's history"
MOVED_ON = "this game has moved on since this position"


def query(url: str) -> dict[str, str]:
    """A URL's query as a dict."""
    return dict(parse_qsl(urlsplit(url).query))


def honest_game(client: FlaskClient, n: int = 12) -> tuple[str, dict[str, str]]:
    """Start an honest-scale game: its CSRF token and its first position's query."""
    csrf = form_token(client, "/adversary")
    r = client.post("/adversary", data={"csrf_token": csrf, "n": str(n), "mode": "honest"})
    return csrf, query(r.headers["Location"])


def weigh(
    client: FlaskClient, csrf: str, position: dict[str, str], left: list[int], right: list[int]
) -> tuple[int, str] | str:
    """Post a weighing; the new position's URL, or the status and message when refused."""
    places = {f"c{c}": "left" for c in left} | {f"c{c}": "right" for c in right}
    r = client.post("/adversary/weigh", data={**position, **places, "csrf_token": csrf})
    return r.headers["Location"] if r.status_code == 303 else refusal(r)


def test_a_guess_cannot_be_read_from_the_url(client: FlaskClient) -> None:
    """Adding &guess= to a live position reveals nothing (it once showed the fake and let play go on)."""
    _, position = honest_game(client)
    r = client.get("/adversary/play?" + urlencode({**position, "guess": "11h"}))
    assert refusal(r) == (400, "on the honest scale the coin is named with the Name it button, once")
    assert "was heavier" not in r.get_data(as_text=True)


def test_a_finished_game_cannot_be_played_again(client: FlaskClient) -> None:
    """After naming the coin (and seeing the secret), the same token neither weighs nor guesses again."""
    csrf, position = honest_game(client)
    done = client.post("/adversary/guess", data={**position, "csrf_token": csrf, "coin": "11", "fake_is": "heavier"})
    assert done.status_code == 303 and "The secret:" in client.get(done.headers["Location"]).get_data(as_text=True)
    assert weigh(client, csrf, position, [11], [1]) == (400, "this game is over")
    again = client.post("/adversary/guess", data={**position, "csrf_token": csrf, "coin": "3", "fake_is": "heavier"})
    assert refusal(again) == (400, "this game is over")
    found = re.search(r'<a href="([^"]*)">Go to this game\'s latest position', again.get_data(as_text=True))
    assert found and "The secret:" in client.get(html.unescape(found.group(1))).get_data(as_text=True)  # its end


def test_extending_the_history_in_the_url_is_refused(client: FlaskClient) -> None:
    """'w=11-1;11-2' with the first position's token: the token does not vouch for that history."""
    _, position = honest_game(client)
    r = client.get("/adversary/play?" + urlencode({**position, "w": "11-1;11-2"}))
    assert refusal(r) == (400, HISTORY + " (its token vouches for another one)")


def test_the_budget_is_sealed(client: FlaskClient) -> None:
    """budget=3 edited to 23 with the same token: refused."""
    _, position = honest_game(client)
    r = client.get("/adversary/play?" + urlencode({**position, "budget": "23"}))
    assert refusal(r) == (400, "this game token belongs to a different game")  # the token seals the settings


def test_going_back_is_read_only_and_branches_are_refused(client: FlaskClient) -> None:
    """Back to an earlier position shows it without the weigh form and links to the latest; weighing from it
    (a branch that would probe the secret) is refused."""
    csrf, first = honest_game(client)
    second = weigh(client, csrf, first, [1, 2, 3, 4], [5, 6, 7, 8])
    assert isinstance(second, str)
    earlier = client.get("/adversary/play?" + urlencode(first)).get_data(as_text=True)
    assert "An earlier position" in earlier and 'action="/adversary/weigh"' not in earlier
    assert weigh(client, csrf, first, [9, 10, 11, 12], [1, 2, 3, 4]) == (400, MOVED_ON)
    assert isinstance(weigh(client, csrf, query(second), [9], [10]), str)


def test_sealed_tokens_all_have_one_length(client: FlaskClient) -> None:
    """Tokens no longer leak the secret through their length (48 games, every coin and weight likely seen)."""
    lengths = {len(honest_game(client)[1]["t"]) for _ in range(48)}
    assert len(lengths) == 1


def random_devil(client: FlaskClient) -> tuple[str, dict[str, str]]:
    """Start a game of 4 coins against the random Devil."""
    csrf = form_token(client, "/devil")
    r = client.post("/devil", data={"csrf_token": csrf, "n": "4", "devil": "random"})
    return csrf, query(r.headers["Location"])


def test_the_random_devil_cannot_be_probed(client: FlaskClient) -> None:
    """Throw-away URLs with moves the game never made are refused; so is a second move from an old position."""
    csrf, position = random_devil(client)
    probe = client.get("/devil/play?" + urlencode({**position, "moves": "f"}))
    assert refusal(probe) == (400, HISTORY + " (its token vouches for another one)")
    first = client.post("/devil/flip", data={**position, "csrf_token": csrf, "place": ["0"]})
    assert first.status_code == 303
    branch = client.post("/devil/flip", data={**position, "csrf_token": csrf, "place": ["1"]})
    assert refusal(branch) == (400, MOVED_ON)
    lengths = {len(random_devil(client)[1]["t"]) for _ in range(24)}
    assert len(lengths) == 1


@pytest.mark.parametrize("extra", [{"g": "AAAA"}, {"g": "ABCD,AABB"}])
def test_the_random_code_maker_cannot_be_probed(client: FlaskClient, extra: dict[str, str]) -> None:
    """Guesses written into the URL are not scored against the secret: the token vouches for no such history."""
    csrf = form_token(client, "/codebreak")
    r = client.post("/codebreak/start", data={"csrf_token": csrf, "game": "mastermind", "maker": "random"})
    position = query(r.headers["Location"])
    probe = client.get("/codebreak/play?" + urlencode({**position, **extra}))
    assert refusal(probe) == (400, HISTORY + " (its token vouches for another one)")
    guess = {"csrf_token": csrf, **position, "p0": "A", "p1": "A", "p2": "B", "p3": "B"}
    assert client.post("/codebreak/guess", data=guess).status_code == 303
    assert refusal(client.post("/codebreak/guess", data=guess)) == (400, MOVED_ON)  # the same old position again


def test_a_move_on_a_game_let_go_says_so(client: FlaskClient) -> None:
    """A game whose record the store let go (evicted past the games' budget, or started elsewhere): its page and a
    move on it say that it is not kept here any more, with the promise, never "moved on" (a record gone between
    the page's read and the move's compare-and-swap once said that)."""
    import sqlite3

    from webapp.jobs.access import app_store

    def games() -> set[str]:  # the games' class: 2
        with client.application.app_context():
            address = app_store().address.removeprefix("sqlite:")
        with sqlite3.connect(address) as db:
            return {str(k) for (k,) in db.execute("SELECT key FROM results WHERE kept = 2")}

    before = games()
    csrf, position = honest_game(client)
    new = games() - before
    assert len(new) == 1
    with client.application.app_context():
        app_store().delete(new.pop())
    said = weigh(client, csrf, position, [1], [2])
    assert isinstance(said, tuple) and said[0] == 400 and "not kept here any more" in said[1], said
    assert "at least 7 days after its last move or view" in said[1] and MOVED_ON not in said[1]


def devil_moved_once(client: FlaskClient) -> tuple[str, dict[str, str], dict[str, str]]:
    """A game against the random Devil after one move that did not win (1 start in 15 has its only tail where place
    0 flips: a new game then): its CSRF token, its first position's query and its second's."""
    for _ in range(20):
        csrf, first = random_devil(client)
        after = query(
            client.post("/devil/flip", data={**first, "csrf_token": csrf, "place": ["0"]}).headers["Location"]
        )
        if "The Devil is beaten!" not in client.get("/devil/play?" + urlencode(after)).get_data(as_text=True):
            return csrf, first, after
    raise AssertionError("20 games against the random Devil were won at the first move")


def test_a_move_from_an_older_tab_links_to_the_latest_position(client: FlaskClient) -> None:
    """A move or take-back posted from a tab left at an older position is refused with a link to the game's latest
    position (once the bare message left the visitor to find it), which opens that position with its move form."""
    csrf, first, moved = devil_moved_once(client)
    newest = client.post("/devil/take-back", data={**moved, "csrf_token": csrf}).headers["Location"]
    csrf_code = form_token(client, "/codebreak")
    start = client.post("/codebreak/start", data={"csrf_token": csrf_code, "game": "mastermind", "maker": "random"})
    before = {"csrf_token": csrf_code, **query(start.headers["Location"]), "p0": "A", "p1": "A", "p2": "B", "p3": "B"}
    guessed = client.post("/codebreak/guess", data=before).headers["Location"]
    csrf_scale, scale = honest_game(client)
    weighed = weigh(client, csrf_scale, scale, [1, 2, 3, 4], [5, 6, 7, 8])
    assert isinstance(weighed, str)
    again = {**scale, "csrf_token": csrf_scale, "c9": "left", "c10": "right"}
    stale = [
        (client.post("/adversary/weigh", data=again), weighed, "/adversary/weigh"),
        (client.post("/devil/flip", data={**first, "csrf_token": csrf, "place": ["1"]}), newest, "/devil/flip"),
        (client.post("/devil/take-back", data={**moved, "csrf_token": csrf}), newest, "/devil/flip"),
        (client.post("/codebreak/guess", data=before), guessed, "/codebreak/guess"),
    ]
    for r, latest, form in stale:
        assert refusal(r) == (400, MOVED_ON) and "<h1>No move from this position</h1>" in r.get_data(as_text=True)
        found = re.search(r'<a href="([^"]*)">Go to this game\'s latest position', r.get_data(as_text=True))
        link = html.unescape(found.group(1)) if found else ""
        assert query(link) == query(latest)
        opened = client.get(link)
        assert opened.status_code == 200 and f'action="{form}"' in opened.get_data(as_text=True)


def test_giving_up_against_the_random_devil_ends_its_record(client: FlaskClient) -> None:
    """Give up against the random Devil is a form that ends the game's record (it was a link whose resign=1 ended
    nothing: taken off the URL, the game played on, and an older tab gave up again, counting the game twice). Given
    up, no flip and no second give-up is taken, from that tab or an older one, and its page says so with no URL
    flag; an older tab's give-up is refused with the link to the latest position."""
    csrf, first, after = devil_moved_once(client)
    page = client.get("/devil/play?" + urlencode(after)).get_data(as_text=True)
    assert 'action="/devil/give-up"' in page and "resign=1" not in page
    older = client.post("/devil/give-up", data={**first, "csrf_token": csrf})
    assert refusal(older) == (400, MOVED_ON) and "latest position" in older.get_data(as_text=True)
    gave_up = client.post("/devil/give-up", data={**after, "csrf_token": csrf})
    assert gave_up.status_code == 303
    ended = client.get(gave_up.headers["Location"]).get_data(as_text=True)
    assert "You gave up after 1 move." in ended and 'id="flip-button"' not in ended
    assert "resign" not in gave_up.headers["Location"]
    over = (400, "this game is over")
    again = {**query(gave_up.headers["Location"]), "csrf_token": csrf}
    assert refusal(client.post("/devil/give-up", data=again)) == over
    assert refusal(client.post("/devil/flip", data={**again, "place": ["1"]})) == over


def test_the_refusal_of_an_older_tab_never_fails_itself(client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the posted position no longer opens its game by the time the refusal is written (its record let go
    meanwhile), the refusal comes without its link to the latest position, never a 500."""
    from webapp.keys import secretbox

    csrf, first = random_devil(client)
    assert client.post("/devil/flip", data={**first, "csrf_token": csrf, "place": ["0"]}).status_code == 303
    loaded: list[str] = []

    def gone_after_the_view(game_id: str) -> tuple[secretbox.Record, bytes]:
        loaded.append(game_id)
        if len(loaded) > 1:  # the refusal's own look at the game
            raise InputError(secretbox.GONE)
        return real(game_id)

    real = secretbox._load
    monkeypatch.setattr(secretbox, "_load", gone_after_the_view)
    r = client.post("/devil/flip", data={**first, "csrf_token": csrf, "place": ["1"]})
    assert refusal(r) == (400, secretbox.GONE.removesuffix(".")) and "latest position" not in r.get_data(as_text=True)

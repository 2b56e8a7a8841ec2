"""Game IDs and undo chains through the Flask client: an ID opens its position, a random code maker's sealed ID
opens the latest position of that game (never a branch), bad IDs and chains are refused with a 400 naming them,
and the QR code route only encodes this site's paths."""

from __future__ import annotations

import ast
import re
from html import unescape
from pathlib import Path
from urllib.parse import urlencode

import pytest
from flask.testing import FlaskClient

from solvers.weighing import Problem
from solvers.weighing.adversary import cases_of
from solvers.weighing.plan import make_plan
from solvers.weighing.report import node_view
from tests.unit.test_weighing_lesson import brute_worst, every_weighing
from tests.web.forms import form_token, refusal, refused
from tests.web.test_honest_games import MOVED_ON, honest_game, query, random_devil, weigh


def test_a_sealed_id_opens_the_latest_position(client: FlaskClient) -> None:
    """The ID of a random game's first position, entered after a guess, opens the position after the guess."""
    csrf = form_token(client, "/codebreak")
    r = client.post("/codebreak/start", data={"csrf_token": csrf, "game": "mastermind", "maker": "random"})
    start = query(r.headers["Location"])
    guess = {"csrf_token": csrf, **start, "p0": "A", "p1": "A", "p2": "B", "p3": "B"}
    after = query(client.post("/codebreak/guess", data=guess).headers["Location"])
    opened = client.get("/codebreak/id?" + urlencode({"id": f"mastermind:4x6#{start['t']}"}))
    assert opened.status_code == 303 and query(opened.headers["Location"]) == {**after, "pegs": "4", "colours": "6"}
    assert "mastermind:4x6#" in client.get("/codebreak/play?" + urlencode(after)).get_data(as_text=True)


def test_ids_open_their_positions(client: FlaskClient) -> None:
    """A peg board ID and a Mastermind ID redirect to the play page of that position."""
    r = client.get("/pegs/id?id=triangle-5:1:4-1,6-4")
    assert r.status_code == 303 and query(r.headers["Location"]) == {
        "board": "triangle-5",
        "hole": "1",
        "moves": "4-1,6-4",
    }
    r = client.get("/codebreak/id?id=mastermind:3x4:AAB,BCD")
    want = {"game": "mastermind", "pegs": "3", "colours": "4", "maker": "adversarial", "moves": "AAB,BCD"}
    assert r.status_code == 303 and query(r.headers["Location"]) == want


def test_bulls_and_cows_ids_are_written_in_digits_and_old_ones_still_open(client: FlaskClient) -> None:
    """A Bulls and Cows game's ID shows its guesses as the page does (digits), and so does the address it opens;
    an ID written before, in the engine's letters, opens the same game; a digit not of the game's is refused."""
    page = client.get("/codebreak/play?game=bulls-and-cows&maker=adversarial&g=ABCD").get_data(as_text=True)
    assert "bulls-and-cows:4x10:0123" in page and "bulls-and-cows:4x10:ABCD" not in page
    want = {"game": "bulls-and-cows", "pegs": "4", "colours": "10", "maker": "adversarial", "moves": "0123,4567"}
    for ident in ("bulls-and-cows:4x10:0123,4567", "bulls-and-cows:4x10:ABCD,EFGH"):
        r = client.get("/codebreak/id?" + urlencode({"id": ident}))
        assert r.status_code == 303 and query(r.headers["Location"]) == want, ident
    r = client.get("/codebreak/id?" + urlencode({"id": "bulls-and-cows:4x10:012\u00b2"}))
    assert r.status_code == 400


def test_a_bulls_and_cows_guess_writes_digits_into_the_address(client: FlaskClient) -> None:
    """After a guess (against either code maker) the game's address, and so its share link and QR code, carry the
    guesses in digits, as its ID does; the address of a game written in letters before still opens."""
    from tests.web.forms import form_token

    base = "/codebreak/play?game=bulls-and-cows&maker=adversarial&pegs=4&colours=10"
    for maker in ("adversarial", "random"):
        start = client.post(
            "/codebreak/start",
            data={"csrf_token": form_token(client, "/codebreak"), "game": "bulls-and-cows", "maker": maker},
        )
        fields = {
            k: v for k, v in query(start.headers["Location"]).items() if k in ("game", "maker", "t", "pegs", "colours")
        }
        guess = {
            **fields,
            "csrf_token": form_token(client, base),
            "p0": "A",
            "p1": "B",
            "p2": "C",
            "p3": "D",
        }  # as the form sends it
        r = client.post("/codebreak/guess", data=guess)
        assert r.status_code == 303 and query(r.headers["Location"])["moves"] == "0123", maker
        page = client.get(r.headers["Location"]).get_data(as_text=True)
        assert "moves=ABCD" not in page and "moves=0123" in page, maker
    assert client.get(base + "&moves=ABCD,EFGH").status_code == 200


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("/pegs/id?id=english", "is not a peg board game ID"),
        ("/pegs/id?id=english:d4:d4-d2", "d4 cannot jump"),
        ("/pegs/id?id=nowhere:1:", "unknown board"),
        ("/codebreak/id?id=mastermind:4x6", "is not a code-breaking game ID"),
        ("/codebreak/id?id=mastermind:4x6:AAZZ", "AAZZ"),
        ("/codebreak/id?id=mastermind:4x6%23nonsense", "this game token is damaged"),
        ("/pegs/play?board=triangle-4&hole=2&j=7-2&at=2", "expected a whole number from 0 to 1"),
        ("/pegs/play?board=triangle-4&hole=2&j=7-2,restart,1-4", "1 cannot jump"),
        ("/codebreak/play?game=mastermind&maker=random&g=restart", "no restart"),
        ("/aequitas/id?id=F:5:0", "is not an Æquitas game ID"),
        ("/variants/id?id=12-unknown-l1-f1-p2:zz", "a weighing names 2 pans"),
        ("/aequitas/play?game=F&n=12&turns=1..4-5..8|1-2&at=0", "entry 2 is not a turn of yours"),
        ("/aequitas/play?game=F&n=5&w=1-2&turns=3-4", "moves and turns disagree"),
        ("/qr.svg?path=//evil.example/x", "a path of this site"),
        ("/qr.svg?path=https://evil.example/", "a path of this site"),
    ],
)
def test_bad_ids_and_chains_are_refused(client: FlaskClient, url: str, message: str) -> None:
    """Each refusal is a 400 that names what is wrong."""
    refused(client, url, message)


def test_a_redo_entry_is_checked_before_it_is_offered(client: FlaskClient) -> None:
    """A chain whose undone part breaks the rules is refused at once (a redo never fails later)."""
    refused(client, "/pegs/play?board=triangle-4&hole=2&j=7-2,1-7&at=1", "1 to 7 is not a jump")


def test_the_qr_code_is_svg_of_the_link(client: FlaskClient) -> None:
    """The QR route answers an SVG image, kept by shared caches (a function of its address)."""
    r = client.get("/qr.svg?path=/pegs/play%3Fboard%3Dtriangle-5%26hole%3D1")
    assert r.status_code == 200 and r.mimetype == "image/svg+xml" and r.data.startswith(b"<svg")
    assert r.cache_control.s_maxage == 86400 and r.cache_control.public and r.get_etag()[0]


def test_the_adversary_game_ends_with_its_result(client: FlaskClient) -> None:
    """Naming a coin before any weighing is not a proof: the end screen says so, with 0 weighings against the
    fewest that surely suffice (3 for 12 coins, Dyson 1946), counted as played and not won."""
    page = "/adversary/play?n=12"
    csrf = form_token(client, page)
    r = client.post(
        "/adversary/guess", data={"csrf_token": csrf, "n": "12", "budget": "3", "coin": "1", "fake_is": "heavier"}
    )
    html = client.get(r.headers["Location"]).get_data(as_text=True)
    assert 'data-won="0"' in html and "Not proved" in html
    assert '<dd class="score">0</dd>' in html and '<dd class="optimum">3</dd>' in html


def test_the_adversary_page_says_what_a_weighing_can_leave(client: FlaskClient) -> None:
    """Six against six of 12 coins can leave 12 of the 24 cases; four against four leaves 8, the best (Dyson 1946)."""
    six = client.get("/adversary/play?n=12&w=1..6-7..12").get_data(as_text=True)
    assert "up to <strong>12</strong> of the 24 cases" in six and "leaves at most <strong>8</strong>" in six
    four = client.get("/adversary/play?n=12&w=1..4-5..8").get_data(as_text=True)
    assert "up to <strong>8</strong> of the 24 cases" in four and "(yours was one)" in four


def test_a_random_game_allows_counted_take_backs_without_branching(client: FlaskClient) -> None:
    """Against the random code maker: a guess taken back leaves the table, stays in the log with its score and is
    counted; the position before the take-back cannot be played from again (no branching), a crafted log is
    refused (no probing), and there is nothing to take back at the start."""
    csrf = form_token(client, "/codebreak")
    for _ in range(3):  # a game whose secret is AABB (1 in 1,296) is won by its first guess: start another
        start = query(
            client.post("/codebreak/start", data={"csrf_token": csrf, "game": "mastermind", "maker": "random"}).headers[
                "Location"
            ]
        )
        guess = {"csrf_token": csrf, **start, "p0": "A", "p1": "A", "p2": "B", "p3": "B"}
        after = query(client.post("/codebreak/guess", data=guess).headers["Location"])
        assert after["moves"] == "AABB"
        if "You win in" not in client.get("/codebreak/play?" + urlencode(after)).get_data(as_text=True):
            break
    back = client.post("/codebreak/take-back", data={"csrf_token": csrf, **after})
    taken = query(back.headers["Location"])
    assert taken["moves"] == "AABB,undo"
    html = client.get("/codebreak/play?" + urlencode(taken)).get_data(as_text=True)
    assert "Taken back (1)" in html and "AABB</span> scored" in html and "1,296 codes still possible" in html
    again = {"csrf_token": csrf, **after, "p0": "C", "p1": "C", "p2": "D", "p3": "D"}
    assert refusal(client.post("/codebreak/guess", data=again)) == (400, MOVED_ON)  # no branch from before it
    probe = client.get("/codebreak/play?" + urlencode({**taken, "moves": "AABB,undo,AABB"}))
    assert probe.status_code == 400
    nothing = client.post("/codebreak/take-back", data={"csrf_token": csrf, **taken})
    assert refusal(nothing) == (400, "there is no guess to take back")


def moved(answer: tuple[int, str] | str) -> dict[str, str]:
    """The query of the position a weighing led to (failing when it was refused)."""
    assert isinstance(answer, str), answer
    return query(answer)


def test_the_honest_scale_allows_counted_take_backs_without_branching(client: FlaskClient) -> None:
    """On the honest scale a weighing taken back stays in the log with the answer that was seen and is counted;
    links to earlier positions are prefixes of the log (read-only), the position before a take-back cannot be
    played from again, a crafted log is refused, and the count reaches the end screen."""
    csrf, start = honest_game(client)
    after = moved(weigh(client, csrf, start, [1, 2, 3, 4], [5, 6, 7, 8]))
    taken = query(client.post("/adversary/take-back", data={"csrf_token": csrf, **after}).headers["Location"])
    assert taken["moves"] == after["moves"] + ";undo"
    html = client.get("/adversary/play?" + urlencode(taken)).get_data(as_text=True)
    assert "Taken back (1): 1, 2, 3, 4 against 5, 6, 7, 8: " in html and "Weighing 1 of 3" in html
    assert weigh(client, csrf, after, [9], [10]) == (400, MOVED_ON)
    probe = client.get("/adversary/play?" + urlencode({**taken, "moves": taken["moves"] + ";1..4-5..8"}))
    assert probe.status_code == 400
    third = moved(weigh(client, csrf, taken, [9, 10, 11], [1, 2, 3]))
    fourth = moved(weigh(client, csrf, third, [9], [10]))
    page = client.get("/adversary/play?" + urlencode(fourth)).get_data(as_text=True)
    history = page[page.index('<ol class="history">') : page.index("Back to the start of this game")]
    links = [query(unescape(h)).get("moves", "") for h in re.findall(r'href="([^"]+)"', history)]
    assert links == [third["moves"], fourth["moves"], ""]  # after the 1st and 2nd weighings in effect, and the start
    earlier = client.get("/adversary/play?" + urlencode(third)).get_data(as_text=True)
    assert "An earlier position" in earlier
    done = client.post("/adversary/guess", data={**fourth, "csrf_token": csrf, "coin": "12", "fake_is": "heavier"})
    end = client.get(done.headers["Location"]).get_data(as_text=True)
    assert '<dd class="take-backs">1</dd>' in end
    nothing = client.post("/adversary/take-back", data={"csrf_token": csrf, **start})
    assert refusal(nothing)[0] == 400


def test_the_random_devil_allows_counted_take_backs_without_branching(client: FlaskClient) -> None:
    """Against the random Devil a move taken back stays in the log and is counted; the position before it cannot
    be played from again, a crafted log is refused, and there is nothing to take back at the start."""
    csrf, start = random_devil(client)
    nothing = client.post("/devil/take-back", data={"csrf_token": csrf, **start})
    assert refusal(nothing) == (400, "there is no move to take back")
    for _ in range(20):  # a first move that does not win (1 start in 15 has its only tail where place 0 flips)
        after = query(
            client.post("/devil/flip", data={**start, "csrf_token": csrf, "place": ["0"]}).headers["Location"]
        )
        if "The Devil is beaten!" not in client.get("/devil/play?" + urlencode(after)).get_data(as_text=True):
            break
        csrf, start = random_devil(client)
    taken = query(client.post("/devil/take-back", data={"csrf_token": csrf, **after}).headers["Location"])
    assert taken["moves"] == "1,undo"
    html = client.get("/devil/play?" + urlencode(taken)).get_data(as_text=True)
    assert "Taken back (1): flip 0." in html and "Moves so far: <strong>0</strong>" in html
    branch = client.post("/devil/flip", data={**after, "csrf_token": csrf, "place": ["1"]})
    assert refusal(branch) == (400, MOVED_ON)
    probe = client.get("/devil/play?" + urlencode({**taken, "moves": "1,undo,2"}))
    assert probe.status_code == 400
    again = client.post("/devil/flip", data={**taken, "csrf_token": csrf, "place": ["1"]})
    assert query(again.headers["Location"])["moves"] == "1,undo,2"
    # flipping nothing is no move: the position again, with the reason (the adversarial Devil's: never won by chance)
    empty = client.post("/devil/flip", data={"n": "4", "moves": "f", "csrf_token": csrf})
    said = empty.get_data(as_text=True)
    assert empty.status_code == 400 and "choose at least one place to flip" in said and 'id="flip-button"' in said
    assert "Moves so far: <strong>1</strong>" in said


def test_the_navigator_says_what_the_plans_weighing_can_leave(client: FlaskClient) -> None:
    """At every node of the 7-coin plan (and the 12-coin root, Dyson 1946: four against four leaves 8 of 24, the
    best), the page's figures are a brute force's: the most cases one reading of the plan's weighing leaves, and
    the fewest any weighing of concrete coins can leave at worst."""
    weighings = every_weighing(7)
    plan = make_plan(Problem(7), "worst")
    paths, seen = [""], 0
    while paths:
        path = paths.pop()
        node = plan.node(path)
        if node.weighing is None:
            continue
        cases = [(c.coin, c.heavier) for c in cases_of(node.coins)]
        pans = (node.weighing.left, node.weighing.right)
        left, right = ({c for a, b in pan.coins for c in range(a, b)} for pan in pans)
        seen += 1
        page = client.get(f"/coins/plan?n=7&path={path}").get_data(as_text=True)
        worst, best = brute_worst(cases, left, right), min(brute_worst(cases, a, b) for a, b in weighings)
        figures = f"can leave up to <strong>{worst}</strong> of the {len(cases)} cases; the most balanced weighing"
        assert figures in page and f"leaves at most <strong>{best}</strong>" in page, path
        paths += [path + o.letter for o in node_view(plan, path).outcomes if o.secrets]
    assert seen >= 4  # the root and its children at least
    root = client.get("/coins/plan?n=12").get_data(as_text=True)
    assert "up to <strong>8</strong> of the 24 cases" in root and "at most <strong>8</strong> (it is one)" in root


OLD_LINKS = [  # links in the forms the site wrote before its pages were reworked (main at 9b04c7a)
    ("/pegs/play?board=triangle-4&hole=2&j=7-2,1-4&sel=9", 200),
    ("/pegs/play?board=english&hole=d4&finish=d4&j=d2-d4", 200),
    ("/codebreak/play?game=mastermind&maker=adversarial&g=AABB", 200),
    ("/codebreak/game?game=mastermind", 200),
    ("/adversary/play?n=12&weight=unknown&goal=identify&extra=0&maybe_none=0&budget=3&mode=adversary&w=1..4-5..8", 200),
    ("/devil/play?n=4&moves=f,5", 200),
    ("/devil/solution?n=4&step=2", 200),
    # the computer to move: it moves, and the page after it opens (it was a dead end with no controls)
    ("/aequitas/play?game=F&n=5&extra=0&light=0&fake=1&heavier=1&conv=normal&first=you&w=1-2", 303),
    ("/variants/play?n=12&lies=1&w=1,2,3,4-5,6,7,8", 200),
    ("/variants/play?n=5&weight=heavier&lies=1&pan1=1,2&pan2=3,4", 303),
    ("/coins/plan?n=12&path=LB", 200),
    ("/adversary/id?id=12-unknown-identify-0-0:3:1..4-5..8", 303),
    ("/codebreak/id?id=mastermind:4x6:AABB", 303),
    ("/devil/id?id=4:all-heads:0:5,3", 303),
]


@pytest.mark.parametrize(("url", "status"), OLD_LINKS)
def test_old_links_keep_working(client: FlaskClient, url: str, status: int) -> None:
    """Bookmarked positions, shared links and game IDs from before keep opening their games (no parameter was
    renamed: the new fields, such as the typed pans, are additions)."""
    assert client.get(url).status_code == status


@pytest.mark.parametrize(
    ("url", "start"),
    [
        ("/pegs/id?id=english:d4", {"board": "english", "hole": "d4"}),
        ("/codebreak/id?id=mastermind:4x6:", {"game": "mastermind", "maker": "adversarial", "moves": ""}),
        ("/devil/id?id=4:all-heads:0:", {"n": "4", "goal": "all-heads"}),
        ("/adversary/id?id=12-unknown-identify-0-0:3:", {"n": "12", "budget": "3"}),
        ("/variants/id?id=12-unknown-l1-f1-p2:", {"n": "12"}),
        ("/variants/id?id=12-unknown-l1-f1-p2:%23x", {"n": "12"}),  # a game with no secret: a token is dropped
        ("/coins/id?id=12-unknown-identify-0-0:worst:", {"n": "12", "objective": "worst"}),
        ("/aequitas/id?id=F:5:0:0:1:1:normal:you:", {"game": "F", "n": "5"}),
    ],
)
def test_an_id_without_its_moves_opens_the_start(client: FlaskClient, url: str, start: dict[str, str]) -> None:
    """Every game's ID is read by one parser (`gamebar.split_id`): with no moves (as `format_id` writes the start:
    a last ':' and nothing after it; the peg board's also without the ':', as always), it opens the game's start,
    and a field left out is still refused (the ID of a game of another kind)."""
    r = client.get(url)
    assert r.status_code == 303, (url, r.get_data(as_text=True)[:300])
    opened = query(r.headers["Location"])
    assert {k: opened.get(k, "") for k in start} == start, opened
    assert not opened.get("moves") and not opened.get("j") and not opened.get("path")


def hand_made_ids(root: Path) -> list[str]:
    """The modules of webapp/pages/ that write or read a game ID themselves instead of through gamebar's
    `format_id` and `split_id`: a sealed game's '#' and token written by hand, or an ID split at ':' in what opens
    one (the function under the page's `@id_route`, or a `from_id` of its own)."""
    found = []
    for path in sorted((root / "webapp" / "pages").glob("*.py")):
        if path.name == "gamebar.py":
            continue
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        readers = [  # its own from_id, or what it hands the midend's ID route (`@id_route(...)`)
            ast.get_source_segment(text, f) or ""
            for f in ast.walk(tree)
            if isinstance(f, ast.FunctionDef)
            if f.name == "from_id"
            or any(ast.unparse(getattr(d, "func", d)).endswith("id_route") for d in f.decorator_list)
        ]
        if "#{" in text or any('split(":")' in body for body in readers):
            found.append(path.name)
    return found


def test_game_ids_are_written_and_read_in_one_place(tmp_path: Path) -> None:
    """One format, one parser: no page writes a sealed game's ID or splits an ID itself (a planted page that does
    is found)."""
    root = Path(__file__).resolve().parents[2]
    assert hand_made_ids(root) == []
    pages = tmp_path / "webapp" / "pages"
    pages.mkdir(parents=True)
    (pages / "gamebar.py").write_text('def format_id(): return f"{head}#{token}"\n')
    (pages / "mine.py").write_text('ident = f"{name}:{sizes}#{token}"\n')
    (pages / "theirs.py").write_text('def from_id():\n    text = request.args["id"]\n    return text.split(":")\n')
    (pages / "other.py").write_text('def rule():\n    return NAMES[c].split(":")[0]\n')
    (pages / "opens.py").write_text(
        '@id_route(bp, 3, "a game", "a:b:c")\ndef _opened(parts, token):\n    return parts[0].split(":")\n'
    )
    (pages / "qualified.py").write_text(
        '@gamebar.id_route(bp, 3, "a game", "a:b:c")\ndef _opened(parts, token):\n    return parts[0].split(":")\n'
    )
    assert hand_made_ids(tmp_path) == ["mine.py", "opens.py", "qualified.py", "theirs.py"]

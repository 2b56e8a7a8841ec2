"""Code-breaking pages and API."""

from __future__ import annotations

import io
import itertools
import re
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import numpy as np
import pytest
from flask.testing import FlaskClient

from solvers.codebreak.optima import Kept, cell
from solvers.codebreak.strategy import Stats
from tests.web.forms import form_token, refusal


def test_game_page_shows_file_and_stats(client: FlaskClient) -> None:
    """The game page shows the definition file beside each strategy's figures."""
    html = client.get("/codebreak/game?game=mastermind").get_data(as_text=True)
    assert "outcome: black-white" in html and "5,801" in html
    for href in re.findall(r'href="(/codebreak/[^"]*)"', html):  # no link on the page leads to an error
        assert client.get(href.replace("&amp;", "&")).status_code == 200, href


def test_the_game_page_puts_play_first_and_folds_the_file(client: FlaskClient) -> None:
    """The game's own description, then its Play form (both code makers), then the strategies; the definition
    file folded away below them."""
    html = client.get("/codebreak/game?game=mastermind").get_data(as_text=True)
    assert "black = right colour in the right place" in html  # the file's own words, in the lede
    play, stats, folded = (
        html.index('id="play-h"'),
        html.index('id="stats-h"'),
        html.index('<details class="gamefile">'),
    )
    assert play < stats < folded and html.index("experiments: sequences") > folded
    assert 'name="game" value="mastermind"' in html and 'value="random"' in html


def test_bulls_and_cows_is_played_in_digits_bulls_and_cows(client: FlaskClient) -> None:
    """Bulls and Cows' page shows digits 0-9 (the letters A-J of its file), scores as bulls and cows, places not
    pegs; Mastermind keeps colours, pegs, black and white. A suggestion is a button that enters its code."""
    bc = client.get("/codebreak/play?game=bulls-and-cows&maker=adversarial&g=ABCD&hint=1").get_data(as_text=True)
    assert "Bulls and Cows (4 places, 10 digits)" in bc and "a bull: right digit, right place" in bc
    assert '<span class="peg digit">0</span><span class="peg digit">1</span>' in bc and "0 bulls, 1 cow" in bc
    game = bc.split("<main")[1].split(">New game</a>")[0]  # the game, before the puzzle's general how-to
    words = re.sub(r"<[^>]+>", " ", game)  # what the page says (not its links' parameters)
    assert 'data-key="9" aria-label="digit 9"' in game and "black" not in words and "colour" not in words
    mm = client.get("/codebreak/play?maker=adversarial&g=AABB&hint=1").get_data(as_text=True)
    assert "(4 pegs, 6 colours)" in mm and re.search(r'class="keys" role="img" aria-label="\d black, \d white"', mm)
    codes = re.findall(r'class="suggestion" data-code="([A-F]{4})"', mm)
    assert codes and all(c in mm for c in codes)


def test_adversarial_play_and_hints(client: FlaskClient) -> None:
    """Guesses in the URL; the adversary keeps the largest set; hints list each heuristic's suggestion."""
    html = client.get("/codebreak/play?maker=adversarial&g=AABB&hint=1").get_data(as_text=True)
    assert "256 codes still possible" in html and "knuth:" in html


def test_plan_navigator_and_contradiction(client: FlaskClient) -> None:
    """Knuth's plan starts with AABB; feedback that no code gives is pointed out."""
    html = client.get("/codebreak/plan?game=mastermind&strategy=knuth").get_data(as_text=True)
    assert "Next: AABB" in html
    assert "average 4.4761 (5,801 guesses over 1,296 secrets" in html  # Knuth 1977: 5,801 / 1,296, as a decimal too
    bad = client.get("/codebreak/plan?game=mastermind&strategy=knuth&path=&next=3B1W")
    assert bad.status_code == 400 and "contradicts" in bad.get_data(as_text=True)
    ok = client.get("/codebreak/plan?game=mastermind&strategy=knuth&path=&next=0B0W")
    assert ok.status_code == 303 and "path=0B0W" in ok.headers["Location"]


def test_a_plan_followed_to_its_end_lists_the_guesses_and_the_secret(client: FlaskClient) -> None:
    """Knuth's plan followed with the feedback a hand-written scorer gives for a secret ends within five guesses
    (Knuth 1977), on a page that names the secret and lists each guess with its feedback."""
    secret, base, path = "FCDA", "/codebreak/plan?game=mastermind&strategy=knuth", []
    html = client.get(base).get_data(as_text=True)
    while "Next: " in html:
        guess = html.split("Next: ", 1)[1][:4]
        black = sum(a == b for a, b in zip(guess, secret, strict=True))
        white = sum(min(guess.count(c), secret.count(c)) for c in "ABCDEF") - black
        path.append((guess, f"{black}B{white}W"))
        html = client.get(base + "&path=" + ",".join(f for _, f in path)).get_data(as_text=True)
    assert path[-1] == (secret, "4B0W") and len(path) <= 5
    assert f"Solved in {len(path)} guesses: the last one, {secret}, was the secret." in html
    assert "".join(f"<li>{g}: {f}</li>" for g, f in path) in html and "Follow the plan again from its start" in html


def test_random_code_is_sealed(client: FlaskClient) -> None:
    """A random code maker's secret is sealed in the URL; a tampered token is a 400."""
    token = form_token(client, "/codebreak")
    r = client.post("/codebreak/start", data={"csrf_token": token, "game": "mastermind", "maker": "random"})
    url = r.headers["Location"]
    assert "t=gAAAA" in url and client.get(url).status_code == 200
    status, said = refusal(client.get(url.replace("t=gAAAA", "t=gAAAB")))
    assert status == 400 and said.startswith("this game token is damaged"), said


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("g=ZZZZ", "'ZZZZ' is not a code of this game"),
        ("pegs=9", "pegs must be a whole number from 1 to 6"),
        ("colours=1", "colours must be a whole number from 2 to 10"),
        ("maker=cheater", "maker must be one of: adversarial, random"),
        ("game=nope", "no shipped game 'nope'"),
        ("game=super-mastermind&g=AABB", "'AABB' is not a code of this game"),  # four pegs, not five
    ],
)
def test_bad_play_input(client: FlaskClient, query: str, message: str) -> None:
    """Malformed positions are a 400 that names what is wrong."""
    assert refusal(client.get("/codebreak/play?" + query)) == (400, message)


def test_api(client: FlaskClient) -> None:
    """The API's fields."""
    data = client.get("/api/codebreak?game=mastermind&strategy=knuth").get_json()
    assert data == {
        "game": "mastermind",
        "secrets": 1296,
        "strategy": "knuth",
        "worst": 5,
        "total": 5801,
        "average": "5801/1296",
        "verified": True,
        "proved": False,
    }
    big = client.get("/api/codebreak?game=bulls-and-cows&pegs=5&strategy=optimal-average")
    assert big.status_code == 400 and "8,000 secrets" in big.get_json()["error"]
    small = client.get("/api/codebreak?game=mastermind&pegs=2&colours=3&strategy=optimal-average&tree=1").get_json()
    assert small["total"] == 21 and "tree" in small


def test_pages_say_what_is_proved(client: FlaskClient) -> None:
    """The plan page and the game table say which strategies are proved optimal and which are heuristics."""
    base = "/codebreak/plan?game=mastermind&pegs=2&colours=4&strategy="
    plan = client.get(base + "optimal-average").get_data(as_text=True)
    assert "proved by complete search" in plan
    assert "<h1>Follow the optimal average strategy: Mastermind</h1>" in plan  # the game's title, not its file name
    assert "not proved optimal" in client.get(base + "knuth").get_data(as_text=True)
    table = client.get("/codebreak/game?game=mastermind&pegs=2&colours=4").get_data(as_text=True)
    assert table.count("<td>verified, proved optimal</td>") == 3 and table.count("<td>verified, heuristic</td>") == 4
    only = "strategy=optimal-average&amp;pegs=2&amp;colours=4&amp;possible_only=1"
    assert f'{only}">optimal-average, possible codes only</a>' in table
    page = client.get(base + "optimal-average&possible_only=1").get_data(as_text=True)
    assert "<h1>Follow the optimal average strategy, guessing possible codes only: Mastermind</h1>" in page
    assert "no strategy guessing only codes still possible has a smaller total" in page


def test_viewing_the_table_never_starts_a_long_search(client: FlaskClient) -> None:
    """Black-peg Mastermind 5x4's optimal searches are beyond the precomputed list: the game table shows the
    heuristics and invites opening a plan instead of starting minutes of search (and a stored refusal is shown
    as text, not an error page)."""
    from webapp.results.codebreak_results import CODEBREAK, codebreak_params
    from webapp.results.computations import Failed, write
    from webapp.store import default_store

    url = "/codebreak/game?game=mastermind-black&pegs=5&colours=4"
    html = client.get(url).get_data(as_text=True)
    assert html.count("a long search: open the plan to start it") == 3  # and the average guessing possible codes
    params = codebreak_params("mastermind-black", (5, 4, None), "optimal-worst")
    write(default_store(), CODEBREAK, CODEBREAK.key(params), Failed("limit", "past its budget"))
    page = client.get(url)
    assert page.status_code == 200 and "past its budget" in page.get_data(as_text=True)


def test_counterfeit_coin_through_the_engine_beyond_8_coins(client: FlaskClient) -> None:
    """12 and 13 coins through the engine (weighings generated up to coin permutations): the API's proved worst
    case matches the weighing solver, the plan can be followed, and a heuristic is refused with a 400."""
    for n, worst in ((12, 3), (13, 4)):
        data = client.get(f"/api/codebreak?game=counterfeit-coin&coins={n}&strategy=optimal-worst").get_json()
        assert (data["worst"], data["verified"], data["proved"], data["secrets"]) == (worst, True, True, 2 * n)
    html = client.get("/codebreak/plan?game=counterfeit-coin&coins=12&strategy=optimal-worst").get_data(as_text=True)
    assert "Next: " in html and " v " in html
    status, said = refusal(client.get("/api/codebreak?game=counterfeit-coin&coins=12&strategy=knuth"))
    assert status == 400 and said.startswith("above 8 coins the engine generates weighings"), said
    too_many = client.get("/api/codebreak?game=counterfeit-coin&coins=41&strategy=optimal-worst")
    assert refusal(too_many) == (400, "coins must be a whole number from 2 to 40")


def test_game_table_beyond_8_coins_offers_the_optimal_worst_case_only(client: FlaskClient) -> None:
    """The table for 12 coins links only the plan it can show; the others say why, briefly, without a link."""
    html = client.get("/codebreak/game?game=counterfeit-coin&coins=12").get_data(as_text=True)
    assert html.count("not offered above 8 coins") == 5 and "strategy=knuth" not in html
    assert "strategy=optimal-worst" in html and "verified, proved optimal" in html


def test_super_mastermind_plays_without_long_requests(client: FlaskClient) -> None:
    """Super Mastermind (32,768 codes, scored on demand): a game against the adversary is played from its URL,
    a hint that would score too many pairs says so instead of computing for seconds, and the optimal searches
    are refused with a clear 400."""
    html = client.get("/codebreak/play?game=super-mastermind&maker=adversarial&g=AABBC&hint=1").get_data(as_text=True)
    assert re.search(r"[\d,]+ codes still possible", html) and "<h1>Super Mastermind (5 pegs, 8 colours)" in html
    # the strategies whose shipped trees do not pass through this position (AABBC opens the most-parts tree)
    assert "knuth, expected, entropy: too many codes are still possible for a quick answer" in html
    refused = client.get("/api/codebreak?game=super-mastermind&strategy=optimal-average")
    said = refused.get_json()["error"]
    assert refused.status_code == 400 and "8,000 secrets (32,768 guessing possible codes only)" in said


@pytest.mark.parametrize(
    "url",
    [
        "/codebreak/game?game=counterfeit-coin&coins=2",
        "/api/codebreak?game=counterfeit-coin&coins=2&strategy=knuth&tree=1",
        "/codebreak/plan?game=counterfeit-coin&coins=2&strategy=optimal-worst",
    ],
)
def test_coins_that_cannot_be_told_apart_get_a_400_saying_why(client: FlaskClient, url: str) -> None:
    """Two coins of unknown weight (or one) and no genuine coin: a 400 naming two secrets no weighing separates
    (these once answered 500 after a RecursionError)."""
    r = client.get(url)
    assert r.status_code == 400 and "can never be told apart" in r.get_data(as_text=True)


def test_optima_table_page(client: FlaskClient) -> None:
    """The optima table lists every size; a proved size links to its optimal plan (which opens), says whether it
    agrees with its publication, and is a point on the chart; a size the package certifies is proved at its
    certificate's total on a fresh store (5x6 among them); the rest say what they wait for."""
    from webapp.jobs.shipped import certificates

    for strategy in ("optimal-average", "optimal-worst"):
        assert client.get(f"/api/codebreak?game=mastermind&pegs=2&colours=4&strategy={strategy}").status_code == 200
    html = client.get("/codebreak/optima").get_data(as_text=True)
    plan = "/codebreak/plan?game=mastermind&amp;strategy=optimal-average&amp;pegs=2&amp;colours=4"
    assert plan in html and "2.813 (Goddard" in html and "agrees" in html and "<circle" in html
    assert client.get(plan.replace("&amp;", "&")).status_code == 200
    assert f"{certificates()[5, 6].total:,}" in html and "`" not in html and "5 &times; 6" in html
    # a small size no job holds (this app runs no background precomputation): not claimed to be queued
    assert "not proved yet: not queued now" in html and "queued by" not in html
    data = client.get("/api/codebreak/optima").get_json()
    row = next(r for r in data["rows"] if (r["pegs"], r["colours"]) == (2, 4))
    assert (row["total"], row["average"]) == (45, "2.812500") and row["worst_of_average"] >= row["optimal_worst"]
    assert re.fullmatch("[A-D]{2}", row["first_guess"]) and row["new"] is False
    assert data["proved"] >= 1 and len(data["rows"]) == len({(r["pegs"], r["colours"]) for r in data["rows"]})


def test_the_optimal_average_within_a_cap(client: FlaskClient) -> None:
    """max_guesses asks the optimal average within that many guesses: the report says so and its worst case
    keeps to it; a cap no strategy meets, or on a heuristic, is a 400 that says why."""
    url = "/api/codebreak?game=mastermind&pegs=3&colours=3&strategy=optimal-average"
    capped = client.get(url + "&max_guesses=4").get_json()
    assert capped["max_guesses"] == 4 and capped["worst"] <= 4 and capped["proved"] is True
    assert "max_guesses" not in client.get(url).get_json()
    low = client.get(url + "&max_guesses=3")
    assert low.status_code == 400 and "no strategy finds every secret within 3 guesses" in low.get_json()["error"]
    heuristic = client.get("/api/codebreak?game=mastermind&pegs=3&colours=3&max_guesses=4")
    assert heuristic.status_code == 400 and "for the optimal-average strategy" in heuristic.get_json()["error"]


def test_the_optimum_guessing_possible_codes_only(client: FlaskClient) -> None:
    """possible_only=1 asks the optimum among strategies that guess only codes still possible: Mastermind 4x4's
    total is above the unrestricted 905 (Goddard 2004), its tree guesses only possible codes (checked here by
    following it); the counterfeit coin, whose secret is never guessed, is a 400 that says why."""
    url = "/api/codebreak?game=mastermind&pegs=4&colours=4&strategy=optimal-average"
    free, only = client.get(url).get_json(), client.get(url + "&possible_only=1&tree=1").get_json()
    assert free["total"] == 905 and "possible_only" not in free
    assert only["possible_only"] is True and only["verified"] and only["total"] > 905

    def codes(node: dict[str, object], alive: list[str]) -> bool:  # every guess among the codes still possible
        guess = node.get("experiment")
        if guess is None:
            return True
        children = node.get("children", {})
        assert isinstance(children, dict) and isinstance(guess, str) and guess in alive
        return all(
            codes(child, [x for x in alive if score(guess, x) == outcome])
            for outcome, child in children.items()
            if isinstance(child, dict) and "experiment" in child
        )

    def score(g: str, x: str) -> str:
        black = sum(a == b for a, b in zip(g, x, strict=True))
        white = sum(min(g.count(c), x.count(c)) for c in set(g)) - black
        return f"{black}B{white}W"

    everything = ["".join(c) for c in itertools.product("ABCD", repeat=4)]
    assert codes(only["tree"], everything)
    coin = client.get("/api/codebreak?game=counterfeit-coin&coins=4&strategy=optimal-worst&possible_only=1")
    assert coin.status_code == 400 and "possible codes only" in coin.get_json()["error"]


def test_a_first_guess_of_mastermind_is_judged(client: FlaskClient) -> None:
    """A first guess of 4x6 is judged (searched under the symmetries that fix it): the best total is the published
    optimum, 5,625 with AABC (Koyama and Lai 1993), and the worst case AABB leaves is a count of codes by score."""
    from collections import Counter

    from solvers.codebreak import build, parse

    games = Path(__file__).resolve().parents[2] / "games"
    g = build(parse((games / "mastermind.game").read_text()), {"length": 4, "colours": 6})
    aabb = g.experiments.index("AABB")
    most = max(Counter(g.outcome(aabb, s) for s in range(len(g.secrets))).values())
    page = client.get("/codebreak/play?game=mastermind&maker=adversarial&g=AABB").get_data(as_text=True)
    assert "the best guess, AABC" in page and f"up to <strong>{most:,}</strong> codes" in page
    assert "5,625 with the best" in page  # Koyama and Lai (1993): 5,625 guesses over the 1,296 codes


def test_bulls_and_cows_first_guess_is_alike(client: FlaskClient) -> None:
    """Every first guess of Bulls and Cows is alike (digits relabelled, places reordered): 0 lost, said without a
    search; the most codes it leaves is 1,440 (one cow: which guessed digit, which other place, and the other three
    places from the six digits not guessed). Every second guess of it is judged (at most 1,440 codes before it); a
    later guess of Mastermind 4x8 before which 7^4 = 2,401 codes are possible (AAAA scored nothing) is not, and
    the page says why."""
    page = client.get("/codebreak/play?game=bulls-and-cows&maker=adversarial&g=ABCD").get_data(as_text=True)
    assert "Every first guess of this game is alike" in page
    assert f"up to <strong>{4 * 3 * (6 * 5 * 4):,}</strong> codes" in page
    later = client.get("/codebreak/play?game=mastermind&maker=adversarial&pegs=4&colours=8&g=AAAA,BBBB")
    assert "a guess is judged when at most 1,440 codes are still possible before it (2,401 here)" in later.get_data(
        as_text=True
    )


@pytest.mark.parametrize("unproved", [frozenset(), frozenset({(5, 6)})])
def test_super_mastermind_possible_only_is_queued_by_precompute_only(
    unproved: frozenset[tuple[int, int]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Super Mastermind's optimum guessing possible codes only (6.6 GB over three processes) is queued by `make
    precompute` (large), after everything but the Mastermind sizes not proved yet (optima.FRONTIER: none now; 5x6
    until 2026-11-26), never by `make run`'s background queue; Mastermind's (a second) by both."""
    from solvers.codebreak import optima
    from webapp.jobs.precompute import everything

    monkeypatch.setattr(optima, "FRONTIER", unproved)

    def wanted(large: bool) -> list[str]:
        return [p.game for _, p in everything(large) if getattr(p, "possible_only", None)]

    assert wanted(False) == ["mastermind"] and wanted(True) == ["mastermind", "super-mastermind"]
    listed = [p for _, p in everything(True)]
    at = next(i for i, p in enumerate(listed) if getattr(p, "possible_only", None) and p.game == "super-mastermind")
    assert len([p for p in listed if getattr(p, "pegs", 0) == 5 and p.colours == 6]) == 2  # listed once either way
    assert {(p.pegs, p.colours) for p in listed[at + 1 :]} == set(unproved)


def test_optima_link_their_certificates(client: FlaskClient) -> None:
    """A proved size whose certificate is kept (webapp/data/certificates) links to it; the file is served as it is kept
    and says the same total; names not kept are 404s. A certificate of another total is never shown."""
    url = "/api/codebreak?game=mastermind&pegs=4&colours=5&strategy=optimal-average"
    assert client.get(url).get_json()["total"] == 2463  # Goddard 2004: 3.941 on average over 625 codes
    html = client.get("/codebreak/optima").get_data(as_text=True)
    link = "/codebreak/optima/certificates/mastermind-4x5.npz"
    assert f'href="{link}"' in html and "tests/certify/checker.py" in html
    row = next(r for r in client.get("/api/codebreak/optima").get_json()["rows"] if (r["pegs"], r["colours"]) == (4, 5))
    assert row["certificate"] == "mastermind-4x5.npz"
    cpu = f"proof {row['proof_cpu_seconds']:,.1f} s, check {row['check_cpu_seconds']:,.1f} s"
    made = f"({row['certified_on']}; CPU: {cpu})"
    assert made in html  # when its certificate was made and what it cost (made.json), in the table's cell
    got = client.get(link)
    data = got.data
    got.close()  # the file the response streamed from
    assert got.status_code == 200 and "attachment" in got.headers["Content-Disposition"]
    with np.load(io.BytesIO(data)) as f:
        assert int(f["total"]) == 2463
    for name in ("mastermind-9x9.npz", "..%2Fpyproject.toml", "README.md"):
        assert client.get(f"/codebreak/optima/certificates/{name}").status_code == 404
    stats = Stats(worst=6, total=2464, secrets=625, verified=True)
    assert cell(4, 5, (0, stats), None, certified={(4, 5): Kept("mastermind-4x5.npz", 2463)}).certificate is None


def test_a_random_code_won_says_the_proved_best_average(client: FlaskClient) -> None:
    """Against the random code maker (Mastermind 2x3, nine codes), guessing every code in turn wins; the end screen
    gives the least average over every code, checked by the brute force written in the lesson's test."""
    from solvers.codebreak import build, parse
    from tests.unit.test_codebreak_lesson import GAMES, brute

    g = build(parse((GAMES / "mastermind.game").read_text()), {"length": 2, "colours": 3})
    best = brute(g)[0](frozenset(range(len(g.secrets))))
    token = form_token(client, "/codebreak")
    sizes = {"game": "mastermind", "pegs": "2", "colours": "3"}
    url = client.post("/codebreak/start", data={"csrf_token": token, **sizes, "maker": "random"}).headers["Location"]
    for code in g.secrets:
        fields = dict(parse_qsl(urlsplit(url).query))
        form = {**fields, "csrf_token": token, "p0": code[0], "p1": code[1]}
        url = client.post("/codebreak/guess", data=form).headers["Location"]
        page = client.get(url).get_data(as_text=True)
        if "You broke the code!" in page:
            break
    assert f"{best / 9:.4f} guesses on average over the 9 codes ({best:,} guesses in all)" in page
    assert "not known here" not in page


def test_the_random_code_presets_start_a_sealed_game(client: FlaskClient) -> None:
    """/codebreak's classic sizes include the classic random code: a button posting the start form, whose game has
    its secret sealed in the URL."""
    page = client.get("/codebreak").get_data(as_text=True)
    presets = page.split('class="presets"', 1)[1].split("</nav>", 1)[0]
    forms = re.findall(r'<form method="post" action="/codebreak/start".*?</form>', presets)
    assert len(forms) == 2 and all('name="maker" value="random"' in f for f in forms)
    assert "Mastermind 4x6, a random code (the classic)" in forms[0]
    fields = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', forms[0]))
    r = client.post("/codebreak/start", data=fields)
    assert r.status_code == 303 and "maker=random" in r.headers["Location"] and "t=gAAAA" in r.headers["Location"]


def test_a_bulls_and_cows_second_guess_is_read_from_the_stored_totals(client: FlaskClient) -> None:
    """Once the totals of every second guess are stored (the precomputation's `SECOND` job), a second guess of
    Bulls and Cows is judged with nothing searched (its lesson's parameters carry its total and the best) and the
    page says what the search says without them, for a poor guess and a best one."""
    import re

    from solvers.codebreak import build, parse
    from solvers.codebreak.play import play_round
    from webapp.jobs.access import computed, peek
    from webapp.results.codebreak_results import SECOND, game_params, lesson_params

    sizes = (3, 5, None)
    games = Path(__file__).resolve().parents[2] / "games"
    g = build(parse((games / "bulls-and-cows.game").read_text()), {"length": 3, "colours": 5})
    judged = re.compile(r'<section class="note judged" id="judged".*?</section>', re.S)
    pages = {}
    for second in ("ABC", "CDE", "ABD"):
        url = f"/codebreak/play?game=bulls-and-cows&maker=adversarial&pegs=3&colours=5&g=ABC,{second}"
        found = judged.search(client.get(url).get_data(as_text=True))
        assert found, second
        pages[url] = found[0]
    with client.application.app_context():
        computed(SECOND, game_params("bulls-and-cows", sizes))
        for url, before in pages.items():
            after = judged.search(client.get(url).get_data(as_text=True))
            assert after and after[0] == before, url
        r = play_round(g, (g.experiments.index("ABC"), g.experiments.index("CDE")))
        lp = lesson_params("bulls-and-cows", sizes, g, r, peek)
        assert lp.total is not None and lp.best is not None and lp.best_guess is not None
    assert any("lost" in p and "was a best guess" not in p for p in pages.values())  # a poorer guess among them


def test_the_start_form_offers_every_size_a_game_may_be_played_at(client: FlaskClient) -> None:
    """The form's pegs and colours reach the sizes the play page accepts (6 pegs: 6x3 and 6x4 are certified), and
    one past them is refused with the same bounds the form shows."""
    page = client.get("/codebreak").get_data(as_text=True)
    pegs = re.search(r'<input id="pegs"[^>]*min="(\d+)" max="(\d+)"', page)
    colours = re.search(r'<input id="colours"[^>]*min="(\d+)" max="(\d+)"', page)
    assert pegs is not None and colours is not None
    assert (pegs[1], pegs[2], colours[1], colours[2]) == ("1", "6", "2", "10")
    assert client.get("/codebreak/play?game=mastermind&pegs=6&colours=3").status_code == 200
    r = client.get("/codebreak/play?game=mastermind&pegs=7&colours=3")
    assert r.status_code == 400 and "from 1 to 6" in r.get_data(as_text=True)

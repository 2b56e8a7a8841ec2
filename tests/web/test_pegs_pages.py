"""Peg board pages and API."""

from __future__ import annotations

import html
import itertools
import re
from urllib.parse import parse_qsl, urlsplit

import pytest
from flask.testing import FlaskClient

from solvers.pegs import board
from tests.web.forms import refusal


def test_play_select_and_jump(client: FlaskClient) -> None:
    """Selecting a coin marks its targets as links; a jump extends the URL."""
    html = client.get("/pegs/play?board=triangle-4&hole=2&sel=7").get_data(as_text=True)
    assert 'aria-label="Jump to 2"' in html and "moves=7-2" in html


def test_chain_counts_as_one_move(client: FlaskClient) -> None:
    """Consecutive jumps by the same coin count as one move."""
    html = client.get("/pegs/play?board=triangle-4&hole=2&j=7-2,1-4,9-7,7-2").get_data(as_text=True)
    assert "Moves: <strong>3</strong>" in html and "Jumps: <strong>4</strong>" in html


def test_hint_and_dead_end(client: FlaskClient) -> None:
    """The hint gives fewest moves left and the best move; a dead position is reported."""
    html = client.get("/pegs/play?board=triangle-4&hole=2&hint=1").get_data(as_text=True)
    assert 'in <strong class="fewest-here">5</strong> more moves at the fewest' in html and "Best next move" in html
    dead = client.get("/pegs/play?board=triangle-4&hole=2&j=7-2,1-4,6-1,4-6,9-7,10-3,1-6").get_data(as_text=True)
    assert "Dead end: no jump is possible and 2 coins remain" in dead


def test_solution_and_table(client: FlaskClient) -> None:
    """The solution page steps through 5 moves; the table links every start to a game."""
    html = client.get("/pegs/solution?board=triangle-4&hole=2&step=5").get_data(as_text=True)
    assert "5 moves, the fewest possible" in html and "After move 5" in html
    table = client.get("/pegs/table?board=triangle-4").get_data(as_text=True)
    assert table.count("/pegs/play?board=triangle-4&amp;hole=") - table.count("finish=") == 10


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("board=x&hole=1", "unknown board 'x'; boards: triangle-4, triangle-5, triangle-6, triangle-7, triangle-8"),
        ("board=triangle-4&hole=0", "board triangle-4 has no hole '0'"),
        ("board=triangle-4&hole=2&j=1-4", "1 cannot jump over 2 into 4 here"),
        ("board=triangle-4&hole=2&j=7", "'7' is not a jump: write it as from-to, like 4-1"),
        ("board=triangle-4&hole=2&sel=2", "there is no coin on 2 to select"),
        ("board=triangle-4&hole=2&sel=zz", "board triangle-4 has no hole 'zz'"),
    ],
)
def test_bad_input(client: FlaskClient, query: str, message: str) -> None:
    """Illegal jumps and malformed URLs: a 400 that names what is wrong."""
    status, said = refusal(client.get("/pegs/play?" + query))
    assert status == 400 and said.startswith(message), (query, said)


def test_api(client: FlaskClient) -> None:
    """The API's fields for the 10-hole board."""
    data = client.get("/api/pegs?board=triangle-4&hole=2&count=1").get_json()
    assert {"board", "hole", "solvable", "min_moves", "min_jumps", "finals", "solution", "solutions"} <= set(data)
    assert data["min_moves"] == 5 and data["min_jumps"] == 8 and data["solutions"] == 14
    assert data["finals"] == {"3": 5} and len(data["solution"]) == 5
    counts = "solution counts are computed for boards of up to 21 holes"
    assert refusal(client.get("/api/pegs?board=english&hole=d4&count=1")) == (400, counts)


def test_a_count_that_cannot_be_made_is_refused_before_a_job_is_queued(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a served site a job waits its turn: a count refused only as it ran answered 202 and its 400 a minute
    later (a visitor's tour, the French board). Now its computation's check refuses it at once, by the rule the
    report itself applies (`report.counted`)."""
    queues = client.application.extensions["coin_puzzles_queues"]
    monkeypatch.setattr(queues, "enqueue", lambda *a: pytest.fail("queued a job that cannot be made"))
    counts = "solution counts are computed for boards of up to 21 holes"
    assert refusal(client.get("/api/pegs?board=french&hole=d3&count=1")) == (400, counts)
    anywhere = "solution counts are for finishing anywhere: leave out the finish hole"
    assert refusal(client.get("/api/pegs?board=triangle-5&hole=1&count=1&finish=1")) == (400, anywhere)


def test_unfinishable_start_says_so_at_once(client: FlaskClient) -> None:
    """triangle-4 without hole 1 (the natural first choice) cannot be solved: the page says so without a hint."""
    html = client.get("/pegs/play?board=triangle-4&hole=1").get_data(as_text=True)
    assert "This position cannot be finished" in html and "the table of starts" in html
    # which starts can: 2, 3, 4, 6, 8, 9 (the plain finals search in tests/unit finds none from 1, 5, 7, 10)
    assert "from another hole: 2, 3, 4, 6, 8, 9 can be solved" in html
    french = client.get("/pegs/play?board=french&hole=d4").get_data(as_text=True)
    assert "This position cannot be finished" in french and "class" in french


def test_solution_from_the_current_position(client: FlaskClient) -> None:
    """'Show a solution from here' continues the game in progress, not from the start."""
    play = client.get("/pegs/play?board=triangle-4&hole=2&j=7-2").get_data(as_text=True)
    assert "moves=7-2" in play.split("Show a solution from here")[0].rsplit("href=", 1)[1]
    html = client.get("/pegs/solution?board=triangle-4&hole=2&j=7-2").get_data(as_text=True)
    assert "from jump 1" in html and "4 moves" in html


def test_setup_starts_a_game_by_clicking_a_hole(client: FlaskClient) -> None:
    """The set-up page draws every board; each hole is a link that starts the game without it."""
    html = client.get("/pegs").get_data(as_text=True)
    assert 'aria-label="Start with hole d4 empty"' in html and "/pegs/play?board=english&amp;hole=d4" in html


def test_finish_hole_goal(client: FlaskClient) -> None:
    """The goal 'finish in the start hole' (or the centre): said on the page, switchable, checked at once by the
    position class, kept in every link, and a last coin elsewhere is not a win."""
    html = client.get("/pegs/play?board=triangle-4&hole=2&finish=start").get_data(as_text=True)
    assert "Goal: one coin left, on 2." in html and "finish=2" in html
    # the 10-hole triangle without hole 2 can only end on hole 3 (the API test above; the plain search in
    # tests/unit agrees), so the page says at once that this goal cannot be reached
    assert "This position cannot be finished" in html
    anywhere = client.get("/pegs/play?board=triangle-4&hole=2").get_data(as_text=True)
    assert "Goal: one coin left." in anywhere and "in the start hole 2" in anywhere
    moves = client.get("/api/pegs?board=triangle-4&hole=2").get_json()["solution"]
    text = ",".join(f"{a}-{b}" for move in moves for a, b in zip(move, move[1:], strict=False))
    done = client.get(f"/pegs/play?board=triangle-4&hole=2&j={text}&finish=3").get_data(as_text=True)
    assert "Solved: one coin left on 3" in done
    missed = client.get(f"/pegs/play?board=triangle-4&hole=2&j={text}&finish=1").get_data(as_text=True)
    assert "One coin left, but on 3, not on 1: not solved for this goal" in missed
    french = client.get("/pegs/play?board=french&hole=c1&finish=start").get_data(as_text=True)
    assert "a last coin on c1 would not have this position" in french
    assert refusal(client.get("/pegs/play?board=triangle-4&hole=2&finish=centre")) == (
        400,
        "the triangle-4 board has no centre hole: give a hole, 'start' or 'any'",
    )
    assert refusal(client.get("/pegs/play?board=triangle-4&hole=2&finish=zz")) == (
        400,
        "board triangle-4 has no hole 'zz'",
    )


def test_finish_hole_api_and_table(client: FlaskClient) -> None:
    """API: finish=start gives the fewest moves to that hole and a solution ending there; the table has the
    'finish in the start hole' column."""
    data = client.get("/api/pegs?board=triangle-5&hole=1&finish=start").get_json()
    assert data["finish"] == "1" and data["solvable"] is True and list(data["finals"]) == ["1"]
    assert data["solution"][-1][-1] == "1"
    assert refusal(client.get("/api/pegs?board=triangle-5&position=7ffe&finish=start")) == (
        400,
        "finish=start needs hole",
    )
    assert "Finish in the start hole" in client.get("/pegs/table?board=triangle-5").get_data(as_text=True)


def test_proved_fewest_solution_page(client: FlaskClient) -> None:
    """fewest=1 steps through the thorough report's solution: the 15-hole triangle from the apex back to the apex
    in 10 moves (Bell's 15-hole catalogue; the exact layers in tests/unit agree); with jumps played or without a
    finish hole it is a clear 400."""
    html = client.get("/pegs/solution?board=triangle-5&hole=1&finish=1&fewest=1&step=10").get_data(as_text=True)
    assert "10 moves, the fewest possible" in html and "After move 10" in html and "fewest=1" in html
    fewest_needs = "fewest=1 is for a start with a finish hole: leave out j and give finish"
    assert refusal(client.get("/pegs/solution?board=triangle-5&hole=1&fewest=1")) == (400, fewest_needs)
    assert refusal(client.get("/pegs/solution?board=triangle-5&hole=1&finish=1&j=4-1&fewest=1")) == (400, fewest_needs)


def test_table_lists_the_classic_problem(client: FlaskClient) -> None:
    """The English table names the centre game under 'Shortest solutions', linked to its proved solution page,
    proved at once from what the package ships (18 moves: Bergholt 1912, proved least by Beasley); a problem not
    shipped says, while its report is not stored, whether a job is computing it or opening the link will (the page
    never computes it itself)."""
    from webapp.jobs.access import app_store
    from webapp.results.catalogue import PEGS_REPORT, pegs_problem

    html = client.get("/pegs/table?board=english").get_data(as_text=True)
    assert (
        "Shortest solutions" in html and "/pegs/solution?board=english&amp;hole=d4&amp;finish=d4&amp;fewest=1" in html
    )
    assert "Empty d4, finish on d4</a>: 18 moves, proved" in html
    corner = "Empty c1, finish on c1</a>: "
    assert corner + "not computed yet: the link starts its proof" in html
    with client.application.app_context():
        key = PEGS_REPORT.key(pegs_problem("english", "c1", "c1"))
        app_store().claim(key)
        html = client.get("/pegs/table?board=english").get_data(as_text=True)
        app_store().release(key)
    assert corner + "being computed (the link shows its progress)" in html
    assert corner + "not computed yet" in client.get("/pegs/table?board=english").get_data(as_text=True)


def test_a_coin_that_can_jump_again_stays_selected(client: FlaskClient) -> None:
    """After 7-2, 1-4 on triangle-4 the coin on 9 jumps to 7 and can go on to 2: the jump's link keeps it selected,
    and the page that follows says it can jump again (unless the position is lost, which it says first); every
    other target's link drops the selection. Checked against the board's lines, replayed without the solver's rules."""
    b = board("triangle-4")
    full = set(range(b.size)) - {b.index("2")}
    chained = client.get("/pegs/play?board=triangle-4&hole=2&j=7-2,1-4,9-7&sel=7").get_data(as_text=True)
    assert "The coin on 7 can jump again: choose where, or choose another coin." in chained
    for f, t in ((7, 2), (1, 4)):
        (o,) = [o for ff, o, tt in b.jumps if (b.labels[ff], b.labels[tt]) == (str(f), str(t))]
        full -= {b.index(str(f)), o}
        full.add(b.index(str(t)))
    for coin in sorted(full):
        page = client.get(f"/pegs/play?board=triangle-4&hole=2&j=7-2,1-4&sel={b.labels[coin]}").get_data(as_text=True)
        jumps = [(o, t) for f, o, t in b.jumps if f == coin and o in full and t not in full]
        if not jumps:
            assert f"The coin on {b.labels[coin]} cannot jump from here: choose another coin." in page
        for o, t in jumps:
            after = full - {coin, o} | {t}
            again = any(f == t and oo in after and tt not in after for f, oo, tt in b.jumps)
            (href,) = re.findall(rf'<a href="([^"]*)" data-hole="{b.labels[t]}" aria-label="Jump to', page)
            assert (f"sel={b.labels[t]}" in href) == again, (coin, t)
            if again:
                follow = client.get(html.unescape(href)).get_data(as_text=True)
                assert f"The coin on {b.labels[t]} can jump again" in follow or "cannot be finished" in follow
                assert f'aria-label="Coin on {b.labels[t]} (selected)"' in follow


def test_a_solution_counts_as_a_hint_and_leads_back_to_the_same_game(client: FlaskClient) -> None:
    """From a game with a goal, a jump taken back (an undo chain) and a hint used: the solution link carries the
    goal, the chain and one hint more; the solution page's way back keeps all three."""
    game = "/pegs/play?board=triangle-5&hole=1&j=4-1,6-4&at=1&u=0&finish=1&h=1"
    page = client.get(game).get_data(as_text=True)
    link = re.search(r'<a href="(/pegs/solution\?[^"]+)"', page)
    assert link
    fields = dict(parse_qsl(urlsplit(html.unescape(link[1])).query))
    assert fields == {"board": "triangle-5", "hole": "1", "moves": "4-1,6-4", "at": "1", "finish": "1", "h": "2"}
    solution = client.get(html.unescape(link[1])).get_data(as_text=True)
    assert "Computing a hint" not in solution
    back = re.search(r'<a href="([^"]+)">Back to the game</a>', solution)
    assert back and dict(parse_qsl(urlsplit(html.unescape(back[1])).query)) == {
        "board": "triangle-5",
        "hole": "1",
        "moves": "4-1,6-4",
        "at": "1",
        "finish": "1",
        "h": "2",
    }
    again = client.get(html.unescape(back[1])).get_data(as_text=True)
    assert "Hints: <strong>2</strong>" in again and "in the start hole 1" in again


def test_the_french_showcase_hints_follow_its_proved_solution(client: FlaskClient) -> None:
    """The French board from d3, finishing anywhere, on a fresh store: no job and no search, the hints follow the
    proved 21-move solution shipped in the package (solvers/pegs/shipped.py), each saying the fewest moves left,
    proved, one fewer each move, and following every hint ends the game with one coin in 21 moves. The table of
    classic problems shows it proved."""
    from solvers.pegs import board as peg_board
    from solvers.pegs.rules import pegs, replay

    b = peg_board("french")
    jumps: list[str] = []
    moves = 0
    while pegs(replay(b, b.start("d3"), [tuple(b.index(h) for h in j.split("-")) for j in jumps])) > 1:
        page = client.get(f"/pegs/play?board=french&hole=d3&j={','.join(jumps)}&hint=1").get_data(as_text=True)
        left = re.search(r"in (\d+) more moves? at the fewest \(proved\)[^.]*\. Best next move: ([a-g0-9 →]+)\.", page)
        assert left, page[page.find('id="hint-h"') :][:600]
        assert int(left[1]) == 21 - moves
        holes = left[2].split(" → ")
        jumps += [f"{x}-{y}" for x, y in zip(holes, holes[1:], strict=False)]
        moves += 1
    assert moves == 21
    assert "Solved!" in client.get(f"/pegs/play?board=french&hole=d3&j={','.join(jumps)}").get_data(as_text=True)
    table = client.get("/pegs/table?board=french").get_data(as_text=True)
    assert re.search(r"Empty d3, finish on a5</a>: 21 moves, proved", table)


def test_finishing_anywhere_shows_a_proved_finish_before_every_finish_is_proved(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """English d4, finishing anywhere, with only d4 -> d4 proved in the store (a fresh site, before the other
    finishes' proofs ran): the solution page and the hint serve that proved solution, saying it is the fewest
    finishing on d4 and no more, instead of a longer one the search found (a visitor's tour saw 26 moves, not
    proved, beside the proved 18 of the page for finish d4); after its first move they go on along it; a shorter
    solution of the search's own is kept."""
    import webapp.pages.pegs as pages
    from solvers.pegs.analysis import Analysis
    from tests.unit.test_pegs_proved import _report

    home = _report("d4", "d4")  # marked proved: what is checked is which solution the pages serve, and their words
    listed = pages.pegs_problem("english", "d4", "d4")
    monkeypatch.setattr(pages, "_peek_report", lambda p: home if p == listed else None)
    searched = Analysis(None, None, None, None, [], "search")  # the search's budget ran out: no solution of its own
    monkeypatch.setattr(pages, "computed", lambda c, p: searched)
    n, first = len(home.solution), home.solution[0]
    page = html.unescape(client.get("/pegs/solution?board=english&hole=d4").get_data(as_text=True))
    assert f"{n} moves, the fewest possible finishing on d4 (proved); that no solution finishing on another" in page
    assert "fewest-move solution" not in page and ", finishing on d4</h1>" in page
    hint = html.unescape(client.get("/pegs/play?board=english&hole=d4&hint=1").get_data(as_text=True))
    assert f"in {n} more moves, the fewest finishing on d4 (proved;" in hint
    assert f"A next move of that solution: {' → '.join(first)}." in hint
    jumps = ",".join(f"{x}-{y}" for x, y in itertools.pairwise(first))
    on = html.unescape(client.get(f"/pegs/solution?board=english&hole=d4&j={jumps}").get_data(as_text=True))
    assert f"{n - 1} moves, the fewest possible finishing on d4 (proved)" in on
    shorter = Analysis(True, None, None, None, [tuple(board("english").index(h) for h in first)], "search")
    monkeypatch.setattr(pages, "computed", lambda c, p: shorter)  # (not a solution: only its length counts here)
    kept = html.unescape(
        client.get("/pegs/solution?board=english&hole=d4&step=0").get_data(as_text=True)
    )  # (another address: the page cache kept the first answer, its store peek replaced)
    assert "1 moves (found by search; not proved shortest)" in kept and "finishing on d4" not in kept

"""Weighing variants on the web: set-up page, plan navigator, tables with their chart, and the JSON API."""

from __future__ import annotations

import functools
import re

import pytest
from flask.testing import FlaskClient

from solvers.variants.model import Variant
from solvers.variants.report import table
from tests.web.forms import refusal, refused
from webapp.results import catalogue


def test_index_lists_the_tables_and_the_form(client: FlaskClient) -> None:
    """The variants page has the set-up form and a link to each table."""
    html = client.get("/variants").get_data(as_text=True)
    assert 'action="/variants/plan"' in html
    assert html.count('href="/variants/table?') == len(catalogue.VARIANT_TABLES)
    assert "Weighing variants" in client.get("/").get_data(as_text=True)


def test_one_lie_plan_to_an_answer_with_a_lie(client: FlaskClient) -> None:
    """Follow 5 coins, one lie: every button leads on; some leaf on the way says which reading was a lie."""
    base = "/variants/plan?n=5&weight=unknown&lies=1&fakes=1&pans=2"
    first = client.get(base).get_data(as_text=True)
    assert "Weighing 1 of at most 5" in first and "proved optimal" in first and "Checked: 10 secrets" in first
    seen_lie = False
    stack = [""]
    while stack:
        path = stack.pop()
        page = client.get(f"{base}&path={path}")
        assert page.status_code == 200
        html = page.get_data(as_text=True)
        if "Conclusion" in html:
            seen_lie |= "The scale lied at weighing" in html
            continue
        stack += re.findall(r'name="path" value="([LBR]+)"', html)
    assert seen_lie


def test_paths_and_combinations_that_do_not_exist(client: FlaskClient) -> None:
    """Bad letters, impossible readings, too long paths and combinations not offered are 400s."""
    base = "/variants/plan?n=12&lies=1"
    refused(client, base + "&path=X", "path must be a string of the letters LBR")
    refused(client, base + "&path=" + "L" * 41, "path must be a string of the letters LBR")
    refused(client, "/variants/plan?n=3&weight=heavier&fakes=2&path=LL", "the path is longer than the plan")
    refused(client, "/variants/plan?n=12&lies=1&pans=3", "a lying balance has two pans here")
    refused(client, "/variants/plan?n=12&fakes=2&lies=1", "two counterfeit coins are weighed on an honest two-pan")
    refused(client, "/variants/plan?n=101&pans=3", "must be a whole number from 1 to 100")
    refused(client, "/variants/plan?n=12&pans=6", "pans must be a whole number from 2 to 5")
    html = client.get("/variants/plan?n=4&fakes=2").get_data(as_text=True)
    assert "No plan exists" in html


def test_api_reports_each_variant(client: FlaskClient) -> None:
    """/api/coins with lies, fakes or pans gives the variant's fields; bad combinations are JSON 400s. Figures:
    each is a lower bound worked out here (one lie: 24 x 11 > 3^5; two fakes: 132 pairs > 3^4; three pans:
    12 > 4^1 - 1 by the capacity argument in the unit tests) met by a plan the independent replay verified."""
    lie = client.get("/api/coins?n=12&lies=1").get_json()
    assert (lie["weighings"], lie["lower_bound"], lie["bound"]) == (6, 6, "volume")
    assert lie["verified"] is True and lie["proved"] is True and lie["secrets"] == 24
    assert lie["paths"] > lie["secrets"]  # lies add paths beyond each secret's truthful one
    two = client.get("/api/coins?n=12&fakes=2&tree=1").get_json()
    assert two["weighings"] == 5 and two["secrets"] == 132 and set(two["tree"]) == {"pans", "readings"}
    three = client.get("/api/coins?n=12&pans=3").get_json()
    assert three["weighings"] == 2 and len(three["first_weighing"]) == 3
    not_combined = "lies, fakes and pans are not combined with goal=find, extra or maybe_none"
    for bad, message in (
        ("n=12&lies=1&goal=find", not_combined),
        ("n=12&fakes=2&objective=average", "the variants have worst-case plans only (no objective=average, no scheme)"),
        ("n=12&pans=3&extra=2", not_combined),
        ("n=12&lies=5", "lies must be a whole number from 0 to 2"),
    ):
        assert refusal(client.get("/api/coins?" + bad)) == (400, message), bad


def test_table_page_draws_the_chart(client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The table (cut to N = 12 here) lists every N with its bound and draws both on an SVG chart."""
    monkeypatch.setattr(catalogue, "variant_table", functools.partial(table, top=12))
    html = client.get("/variants/table?weight=heavier&fakes=2").get_data(as_text=True)
    assert "<svg" in html and 'class="bound"' in html
    rows = re.findall(r'<th scope="row">(\d+)(?:&ndash;(\d+))?</th><td>(\d+|-)</td><td>(\d+)</td>', html)
    covered = [n for a, b, _, _ in rows for n in range(int(a), int(b or a) + 1)]
    assert covered == list(range(2, covered[-1] + 1)) and covered[-1] >= 12  # the store may hold all 100
    assert all(w == "-" or int(w) >= int(bd) for _, _, w, bd in rows)
    assert html.count("<circle") == covered[-1] - 1  # the chart has a dot for every N with a figure
    refused(client, "/variants/table?pans=9", "pans must be a whole number from 2 to 5")


def test_table_api(client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """/api/variants/table gives the rows: three pans, weight known, N = 1..12 is ceil(log4 N) but for N = 2."""
    monkeypatch.setattr(catalogue, "variant_table", functools.partial(table, top=12))
    data = client.get("/api/variants/table?weight=heavier&pans=3").get_json()
    assert data["bound"] == "counting"
    got = {r["coins"]: r["weighings"] for r in data["rows"] if r["coins"] <= 12}  # the store may hold all 100
    assert got == {1: 0, 2: None, 3: 1, 4: 1, **{n: 2 for n in range(5, 13)}}


def test_adversary_game_pages(client: FlaskClient) -> None:
    """The next weighing's form redirects to the game's URL; bad weighings and large sizes are 400s; the observer
    shows cases by lies used; a finished game names the coin."""
    r = client.get("/variants/play?n=5&weight=heavier&lies=1&pan1=1,2&pan2=3,4")
    assert r.status_code == 303 and "moves=1,2-3,4" in r.headers["Location"]
    html = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "What an observer knows" in html and "by lies used" in html
    refused(client, "/variants/play?n=5&lies=1&pan1=1,2&pan2=3", "every pan needs the same number of coins")
    refused(client, "/variants/play?n=5&lies=1&w=1-1", "a coin can be on one pan only")
    refused(client, "/variants/play?n=100&lies=2", "the adversary game is played on the sizes planned within a second")
    done = client.get("/variants/play?n=3&weight=heavier&pans=3&w=1-2-3").get_data(as_text=True)
    assert "Found after 1 weighing" in done and 'role="status"' in done


def test_the_coins_menus_weigh_without_javascript(client: FlaskClient) -> None:
    """Without JavaScript the picker's per-coin menus are the form (the typed pans left empty): the coins each menu
    puts on a pan are that pan's, checked as typed pans are; a refusal keeps every coin on the pan it was put on."""
    menus = "&".join(f"c{c}={pan}" for c, pan in ((1, "pan1"), (2, "pan1"), (3, "pan2"), (4, "pan2"), (5, "off")))
    r = client.get(f"/variants/play?n=5&weight=heavier&lies=1&pan1=&pan2=&{menus}")
    assert r.status_code == 303 and "moves=1,2-3,4" in r.headers["Location"]
    three = client.get("/variants/play?n=3&weight=heavier&pans=3&pan1=&pan2=&pan3=&c1=pan1&c2=pan2&c3=pan3")
    assert three.status_code == 303 and "moves=1-2-3" in three.headers["Location"]
    url = "/variants/play?n=5&lies=1&pan1=&pan2=&c1=pan1&c2=pan1&c3=pan2"
    refused(client, url, "every pan needs the same")
    page = client.get(url).get_data(as_text=True)
    assert re.search(r'name="c2"><option value="off">off</option><option value="pan1" selected>', page)
    assert re.search(
        r'name="c3"><option value="off">off</option><option value="pan1">left pan</option>'
        r'<option value="pan2" selected>',
        page,
    )


def test_large_plan_goes_through_a_job_and_the_store(client: FlaskClient) -> None:
    """41 coins with one lie is past the in-request size: the plan is computed as a job, stored pickled (without
    its nodes), and the navigator rebuilds nodes from the stored search; the adversary game is not offered."""
    assert not catalogue.variant_quick(Variant(41, lies=1))
    html = client.get("/variants/plan?n=41&lies=1&path=LB").get_data(as_text=True)
    most = re.search(r"Weighing 3 of at most (\d+)", html)
    assert most and int(most[1]) >= 7  # the volume bound: 82 x (1 + 2 x 6) > 3^6
    assert "Checked: 82 secrets" in html
    assert "Weigh against the adversary" not in html
    refused(client, "/variants/play?n=41&lies=1", "the adversary game is played on the sizes planned within a second")


def test_the_variants_play_like_the_other_games(client: FlaskClient) -> None:
    """Pans typed as ranges; a refused weighing is an inline message that keeps the game and what was typed;
    each weighing says what it cost against a best one; undo and redo are links; the game's ID opens it again;
    naming the coin in the fewest weighings shows the win screen with the score against the proved minimum."""
    r = client.get("/variants/play?n=12&lies=1&pan1=1-4&pan2=5..8")
    assert r.status_code == 303 and r.headers["Location"].endswith("moves=1,2,3,4-5,6,7,8")
    page = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "a best weighing" in page and "Weighing 2: against the adversary" in page
    undo = re.search(r'href="([^"]*)"[^>]*data-key="undo"', page)
    assert undo and "at=0" in undo[1]
    assert "Weighing 1: against the adversary" in client.get(undo[1].replace("&amp;", "&")).get_data(as_text=True)
    bad = client.get("/variants/play?n=12&lies=1&w=1,2,3,4-5,6,7,8&pan1=1-4&pan2=9")
    html = bad.get_data(as_text=True)
    assert bad.status_code == 400 and "Not weighed: every pan needs the same number of coins" in html
    assert "Weighing 2: against the adversary" in html and 'value="1-4"' in html
    wasteful = client.get("/variants/play?n=12&lies=0&w=1-2").get_data(as_text=True)  # 10 coins left: 3 more
    assert '(then 3 more needed; <span class="cost">it cost 1 weighing against a best one</span>)' in wasteful
    gid = re.search(r"Game ID: <code class=\"game-id\">([^<]+)<", page)
    assert gid and gid[1].strip() == "12-unknown-l1-f1-p2:1,2,3,4-5,6,7,8"
    opened = client.get("/variants/id?id=" + gid[1].strip())
    assert opened.status_code == 303 and opened.headers["Location"].endswith("moves=1,2,3,4-5,6,7,8")
    won = client.get("/variants/play?n=3&weight=heavier&pans=3&w=1-2-3").get_data(as_text=True)
    assert "Found in the fewest weighings" in won and "Found after 1 weighing" in won


def test_bare_play_opens_the_set_up_with_its_presets(client: FlaskClient) -> None:
    """/variants/play without a variant: the set-up, whose classic games each open a game."""
    r = client.get("/variants/play")
    assert r.status_code == 303 and r.headers["Location"] == "/variants#presets-variants"
    page = client.get("/variants").get_data(as_text=True)
    plays = re.findall(r'<a class="button-link" href="(/variants/play\?[^"]+)"', page)
    assert len(plays) == 3
    for url in plays:
        assert client.get(url.replace("&amp;", "&")).status_code == 200


def test_a_hint_shows_the_solvers_weighing_and_is_counted(client: FlaskClient) -> None:
    """The hint link shows a best next weighing and adds one to the hints on the game's bar."""
    page = client.get("/variants/play?n=12&lies=1").get_data(as_text=True)
    url = re.search(r'href="(/variants/play\?[^"]*hint=1[^"]*)"', page)
    assert url and "h=1" in url[1]
    hinted = client.get(url[1].replace("&amp;", "&")).get_data(as_text=True)
    from solvers.variants.adversary import play
    from solvers.variants.model import Variant
    from solvers.variants.plan import make_plan

    hint = play(make_plan(Variant(12, lies=1)), [], hint=True).hint  # its optimality: tests/unit/test_variants.py
    assert hint is not None
    assert f"The solver would weigh {' against '.join(', '.join(map(str, pan)) for pan in hint)}" in hinted
    assert "Hints: <strong>1</strong>" in hinted


def test_a_two_pan_balance_tilts_its_beam_with_the_reading(client: FlaskClient) -> None:
    """The last weighing's picture on a two-pan balance tilts the beam toward the heavier pan (left heavier:
    negative, anticlockwise on screen) and hangs that pan lower; a balance reading leaves the beam level."""
    import re

    page = client.get("/variants/play?n=5&weight=heavier&lies=1&moves=1,2-3,4").get_data(as_text=True)
    svg = page.split('id="last-scale"', 1)[1].split("</svg>", 1)[0]
    title = svg.split("</title>", 1)[0]
    beam = re.search(r'class="beam" transform="rotate\(([-0-9.]+) ', svg)
    pans = [float(dy) for dy in re.findall(r'<g transform="translate\(0 ([-0-9.]+)\)">', svg)]
    assert beam is not None and len(pans) == 2
    tilt = float(beam.group(1))
    if "left" in title.lower() and "heavier" in title.lower():
        assert tilt < 0 and pans[0] > pans[1]
    elif "right" in title.lower() and "heavier" in title.lower():
        assert tilt > 0 and pans[1] > pans[0]
    else:
        assert tilt == 0 and pans[0] == pans[1]
    assert tilt != 0 or "balance" in title.lower()

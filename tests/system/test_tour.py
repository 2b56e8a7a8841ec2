"""A visitor's tour of the app as `make run` starts it: gunicorn and the real consumers (visitors', quick lane,
precomputation) from a fresh instance folder, the precomputation queued and running, and a real browser on each
puzzle's heaviest page. The fixture fails the test if the server's log holds a traceback."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.system.conftest import QUEUED_WITHIN, Served
from tests.system.test_jobs import descendants
from tests.waiting import until

SHOTS = Path("test-results")
ENGLISH_D4 = "/pegs/solution?board=english&hole=d4&finish=d4&fewest=1"


def _shot(page: Page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"tour-{name}.png"), full_page=False)


def niceness(app: Served, queue: str, group: bool = False) -> set[int]:
    """The niceness of a queue's consumer and its workers (their processes' command lines name the queue); group:
    that of their session's scheduling group instead (Linux's autogroup; none where the kernel has none)."""
    found = set()
    for pid in descendants(app.process.pid):
        try:
            command = (Path("/proc") / str(pid) / "cmdline").read_bytes().split(b"\0")
            stat = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
            autogroup = (Path("/proc") / str(pid) / "autogroup").read_text() if group else ""
        except OSError:
            continue
        if b"--queue" in command and command[command.index(b"--queue") + 1] == queue.encode():
            found.add(int(autogroup.rsplit("nice", 1)[1]) if group else int(stat[16]))
    return found


@pytest.mark.slow
def test_a_visitor_gets_every_heavy_answer_while_the_precomputation_runs(
    browser: Browser, serve: Callable[..., Served]
) -> None:
    """The Mastermind 4x6 optimal plan (a parallel proof inside a job process) until it shows the proved
    5,625 (Koyama and Lai, 1993); a peg hint one move into an English game answered within seconds though the
    precomputation holds a core; the English d4 to d4 solution proved in 18 moves (Bergholt's 1912 solution, proved
    shortest by Beasley); the Æquitas table twice, the second time from its kept bytes."""
    app = serve(COIN_PUZZLES_PRECOMPUTE="1", JOB_WORKERS="2", PRECOMPUTE_WORKERS="2")
    assert niceness(app, "precompute") == {19} and niceness(app, "visitors") == {0}  # the fill yields to visitors
    if Path("/proc/self/autogroup").exists():  # and its session's group too, or it would share the cores equally
        assert niceness(app, "precompute", group=True) == {19} and niceness(app, "visitors", group=True) == {0}
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()

    # the heavy pages opened at once, each queueing its job (the visitors' two workers busy: one with a parallel
    # proof); then a hint one move into an English game: the quick lane, not behind them or the precomputation
    heavy = ["/codebreak/plan?game=mastermind&strategy=optimal-average", ENGLISH_D4, "/aequitas/table?max=30"]
    for path in heavy:
        context.new_page().goto(app.url + path)
    page.goto(app.url + "/pegs/play?board=english&hole=d4&j=d2-d4&hint=1")
    hint = page.get_by_text(
        re.compile(r"(Best next move|A next move of a solution found by search|A next move of that solution)")
    )
    expect(hint).to_be_visible(timeout=20_000)  # not minutes behind the heavy jobs
    _shot(page, "peg-hint")

    page.goto(app.url + "/codebreak/plan?game=mastermind&strategy=optimal-average")
    expect(page.get_by_text("5,625").first).to_be_visible(timeout=180_000)
    _shot(page, "mastermind-plan")

    page.goto(app.url + ENGLISH_D4)
    expect(page.get_by_text("18 moves, the fewest possible")).to_be_visible(timeout=240_000)
    _shot(page, "english-d4")
    # two moves of that proved solution, then a solution and a hint from there: the rest of the proof, 16 moves
    first = [m.split(" → ") for m in page.locator("ol.history li").all_inner_texts()[:2]]
    jumps = ",".join(f"{a}-{b}" for move in first for a, b in zip(move, move[1:], strict=False))
    page.goto(app.url + f"/pegs/play?board=english&hole=d4&finish=d4&j={jumps}")
    page.get_by_role("link", name="Show a solution from here").click()
    expect(page.get_by_text("16 moves, the fewest possible")).to_be_visible(timeout=60_000)
    page.get_by_role("link", name="Back to the game").click()
    expect(page.get_by_text("Hints: 1")).to_be_visible()
    page.get_by_role("link", name="Hint", exact=True).click()
    expect(page.get_by_text("in 16 more moves at the fewest (proved)")).to_be_visible()
    _shot(page, "english-after-two")

    page.goto(app.url + "/aequitas/table?max=30")
    expect(page.get_by_role("heading", name="Æquitas: Grundy values, searched and from the paper")).to_be_visible(
        timeout=180_000
    )
    with urllib.request.urlopen(app.url + "/aequitas/table?max=30", timeout=30) as r:  # now from the store at once
        assert r.status == 200 and "<progress" not in r.read().decode()
    context.close()

    url = app.url + "/api/aequitas?table=1&max_coins=30"
    with urllib.request.urlopen(urllib.request.Request(url, headers={"Accept-Encoding": "gzip"}), timeout=30) as r:
        assert r.status == 200 and r.headers["Content-Encoding"] == "gzip" and r.headers["ETag"]
        etag = r.headers["ETag"]
    with urllib.request.urlopen(url, timeout=30) as r:
        assert json.loads(r.read())["max_coins"] == 30
    request = urllib.request.Request(url, headers={"If-None-Match": etag, "Accept-Encoding": "gzip"})
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(request, timeout=30)
    assert e.value.code == 304
    e.value.close()
    # the precomputation's consumer, at the lowest priority, queued the rest (what is shipped, it stored)
    until(
        lambda: "results queued for precomputation" in app.output(), QUEUED_WITHIN, "the precomputation queued nothing"
    )

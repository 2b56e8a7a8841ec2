"""Whole pages, through nginx on a non-default port as `coin-puzzles serve` (`make run`) puts it in front: a
newcomer's first judged Mastermind guess shows its answer without the page going blank, share links keep the
port, opening every page of the site spends none of the visitor's quota, and odd or over-long addresses get a
4xx, never a 5xx. The fixture fails each test if the server's log holds a traceback."""

from __future__ import annotations

import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from urllib.parse import parse_qs, urljoin, urlparse

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.system.conftest import Served
from tests.waiting import until
from tests.web.test_odd_input import PLAYS
from webapp.http.errors import MAX_URL

SHOTS = Path("test-results")
JUDGED = "/codebreak/play?game=mastermind&maker=adversarial&pegs=4&colours=6&g=ABCD,CDEF"  # within the request
POLLED = "/codebreak/play?game=bulls-and-cows&maker=adversarial&g=ABCD,EFGH,AEBF"  # 504 codes: a job of seconds


def _shot(page: Page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"whole-{name}.png"), full_page=False)


def status(url: str) -> int:
    """One GET's status (an error status too)."""
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            return int(r.status)
    except urllib.error.HTTPError as e:
        e.close()
        return int(e.code)


@pytest.mark.slow
def test_a_first_judged_guess_shows_its_answer_and_the_page_stays_whole(
    browser: Browser, serve: Callable[..., Served]
) -> None:
    """From a fresh server: a Mastermind 4x6 guess is judged by the quick lane's job, which its page waits for a
    moment (or polls for) without a reload; a Bulls and Cows guess judged by a longer job polls its own note until
    the judgement shows, the page never blank meanwhile and the guess row left as the visitor typed it; the Share
    link and the QR code's link carry nginx's port."""
    app = serve()
    assert urlparse(app.url).port not in (80, None)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(app.url + JUDGED)
    expect(page.locator("#judged")).to_contain_text("CDEF lost", timeout=30_000)
    page.goto(app.url + POLLED)
    expect(page.locator("#judged")).to_contain_text("Working out how good", timeout=60_000)  # the game built first
    page.locator(".palette button[data-colour]").nth(1).click()  # the visitor starts the next guess

    def judged() -> bool:  # never blank while it waits
        assert "codes still possible" in page.locator("main").inner_text(), "the page went blank"
        return "a best guess" in (text := page.locator("#judged").text_content() or "") or "in all over" in text

    until(judged, 180, "the judgement never showed")
    expect(page.get_by_role("heading", name="Your last guess")).to_have_count(1)  # swapped in place, not nested
    expect(page.locator(".guess-row .peg").first).not_to_have_text("?")  # what the visitor typed is still there
    _shot(page, "judged-phone")
    page.goto(app.url + JUDGED)
    shared = page.locator("button.copy-link").get_attribute("data-share") or ""
    assert shared.startswith(app.url + "/codebreak/play?"), shared
    qr = page.locator("img.qr").get_attribute("src") or ""
    with urllib.request.urlopen(urljoin(app.url, qr), timeout=30) as r:  # the QR code's link, in its description
        assert r.status == 200 and f"<desc>{app.url}/codebreak/play?" in r.read().decode()
    context.close()


def site_links(page: Page, base: str) -> list[str]:
    """The page's links to the site's pages (no static files, API answers, QR codes, hints or game IDs: a hint
    and an ID entered are explicit asks)."""
    found = []
    for href in page.eval_on_selector_all("a[href]", "els => els.map(e => e.getAttribute('href'))"):
        u = urlparse(urljoin(base + "/", href))
        if u.netloc != urlparse(base).netloc or u.path.startswith(("/static", "/api", "/qr")):
            continue
        if {"hint", "id"} & set(parse_qs(u.query)):
            continue
        found.append(u.path + (f"?{u.query}" if u.query else ""))
    return found


@pytest.mark.slow
def test_opening_every_page_of_the_site_gets_no_429(browser: Browser, serve: Callable[..., Served]) -> None:
    """One browser opens every page two links from the home page on a fresh server whose limit is one job per
    visitor: the pages' jobs are the server's (none counted against the visitor), so no page is refused, and
    none fails."""
    app = serve(COIN_PUZZLES_JOBS_PER_CLIENT="1")
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    seen: dict[str, int] = {}
    frontier = ["/"]
    for depth in range(3):
        following: list[str] = []
        for path in frontier:
            if path in seen:
                continue
            response = page.goto(app.url + path)
            assert response is not None
            seen[path] = response.status
            if depth < 2:
                following.extend(p for p in site_links(page, app.url) if p not in seen)
        frontier = list(dict.fromkeys(following))
    refused = {path: code for path, code in seen.items() if code == 429 or code >= 500}
    assert not refused, refused
    assert len(seen) > 150 and any("variants/table" in p for p in seen) and any("aequitas/table" in p for p in seen)
    page.goto(app.url + "/variants/table?weight=unknown&lies=2&fakes=1&pans=2")  # queued, not refused
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    _shot(page, "variants-table-queued")
    page.context.close()


def test_odd_and_long_addresses_get_a_4xx_through_nginx(serve: Callable[..., Served]) -> None:
    """A superscript digit in an undo field: 400 on every play route (Bulls and Cows' game is a job on a fresh
    server: tests/web/test_odd_input.py has it); an address of up to MAX_URL characters is
    answered (nginx's buffers hold it with its cache key), one past it gets 414, from the app (JSON on the API) as
    far as nginx's buffers reach."""
    app = serve()
    for path in [p for p in PLAYS if "bulls-and-cows" not in p]:
        assert status(f"{app.url}{path}&u=%C2%B2") == 400, path
        assert status(f"{app.url}{path}&at=%C2%B2") in (200, 400), path
    base = "/codebreak/play?game=mastermind&maker=adversarial&g=ABCD&x="
    for length in (2900, 3200, 3450, MAX_URL):
        assert status(app.url + base + "a" * (length - len(base))) == 200, length
    assert status(app.url + base + "a" * (MAX_URL + 1 - len(base))) == 414
    assert status(app.url + base + "a" * 12_000) == 414
    for length in (5_000, 12_000):  # past gunicorn's own 4,094 bytes, within nginx's buffers: the app's 414
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(f"{app.url}/api/coins?n={'x' * length}", timeout=30)
        e.value.close()
        assert e.value.code == 414 and e.value.headers["Content-Type"] == "application/json", length


def test_the_french_showcase_hints_are_proved_from_a_fresh_server(serve: Callable[..., Served]) -> None:
    """Through nginx on a fresh server (nothing precomputed, no job run): the French board from d3, finishing
    anywhere, gives a proved best next move with the fewest moves left, 21 at the start and 20 after that move
    (the shipped proof's solution), and its solution page says the fewest possible."""
    import re

    app = serve()
    with urllib.request.urlopen(app.url + "/pegs/play?board=french&hole=d3&hint=1", timeout=30) as r:
        page = r.read().decode()
    found = re.search(r"in (\d+) more moves at the fewest \(proved\)[^.]*\. Best next move: ([a-g0-9 →]+)\.", page)
    assert found and found[1] == "21", page[page.find('id="hint-h"') :][:400]
    holes = found[2].split(" → ")
    jumps = ",".join(f"{a}-{b}" for a, b in zip(holes, holes[1:], strict=False))
    with urllib.request.urlopen(app.url + f"/pegs/play?board=french&hole=d3&j={jumps}&hint=1", timeout=30) as r:
        assert "in 20 more moves at the fewest (proved)" in r.read().decode()
    with urllib.request.urlopen(app.url + "/pegs/solution?board=french&hole=d3", timeout=30) as r:
        assert "21 moves, the fewest possible" in r.read().decode()

"""A person's path through the counterfeit-coin planner in a real browser (Chromium via Playwright)."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from solvers.weighing import Problem, make_plan
from tests.e2e.axe_check import assert_accessible
from tests.e2e.test_layout_e2e import SHOTS

OUTCOME = {"L": "Left heavier", "B": "Balance", "R": "Right heavier"}


def answer(path: str) -> str:
    """The solver's own conclusion at a node of the 12-coin plan."""
    leaf = make_plan(Problem(12)).node(path).answer
    assert leaf is not None
    return leaf.sentence()


def ask_for_twelve(page: Page, base: str) -> None:
    """Open /coins and submit the form for 12 coins."""
    page.goto(f"{base}/coins")
    page.get_by_label("Number of coins").fill("12")
    page.get_by_role("button", name="Show the plan").click()
    expect(page.get_by_role("heading", name="Weighing 1")).to_be_visible()


def follow(page: Page, letters: str) -> None:
    """Click outcome buttons, checking the weighing number after each."""
    for i, letter in enumerate(letters):
        page.get_by_role("button", name=OUTCOME[letter], exact=True).click()
        heading = "Answer after 3 weighings" if i == 2 else f"Weighing {i + 2}"
        expect(page.get_by_role("heading", name=heading)).to_be_visible()


def test_follow_the_twelve_coin_plan(page: Page, live_server: str, browser: Browser) -> None:
    """Ask for 12 coins, follow a plan to a leaf, Back, reload, and open the shared link elsewhere."""
    ask_for_twelve(page, live_server)
    expect(page).to_have_url(re.compile(r"/coins/plan\?n=12&"))
    expect(page.get_by_role("img", name=re.compile("left pan 1\u20134"))).to_be_visible()
    follow(page, "LBL")
    expect(page.get_by_role("status").filter(has_text="Coin")).to_have_text(answer("LBL"))
    leaf_url = page.url
    assert "path=LBL" in leaf_url

    page.go_back()
    page.wait_for_load_state()
    expect(page.get_by_role("heading", name="Weighing 3")).to_be_visible()
    expect(page).to_have_url(re.compile(r"path=LB(&|$)"))
    page.reload()
    expect(page.get_by_role("heading", name="Weighing 3")).to_be_visible()
    expect(page.get_by_role("navigation", name="Path so far")).to_contain_text("2. 1–2, 5 v 3–4, 9: balance")

    other = browser.new_page()
    other.goto(leaf_url)
    expect(other.get_by_text(answer("LBL"))).to_be_visible()
    other.close()


def test_impossible_outcome_is_disabled(page: Page, live_server: str) -> None:
    """An outcome that cannot happen is a disabled button that says why."""
    page.goto(f"{live_server}/coins/plan?n=12&path=LL")
    disabled = page.get_by_role("button", name="Right heavier", exact=True)
    expect(disabled).to_be_disabled()
    expect(disabled).to_have_accessible_description(re.compile("cannot happen"))


def test_keyboard_only(page: Page, live_server: str) -> None:
    """The outcome buttons work from the keyboard; after each outcome focus is on the new weighing's heading (read
    out by a screen reader), not on the page's body, and Tab goes on from there."""
    page.goto(f"{live_server}/coins/plan?n=12")
    page.get_by_role("button", name="Balance", exact=True).focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Weighing 2")).to_be_focused()
    page.get_by_role("button", name="Left heavier", exact=True).focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Weighing 3")).to_be_focused()


def test_every_breadcrumb_shows_its_pans_on_a_phone(browser: Browser, live_server: str) -> None:
    """At 390 px, each step of the path says what was weighed, not only the last one."""
    context = browser.new_context(viewport={"width": 390, "height": 800})
    page = context.new_page()
    page.goto(f"{live_server}/coins/plan?n=12&path=BL")
    crumbs = page.locator("nav.crumbs .what")
    expect(crumbs).to_have_count(2)
    for i in range(2):
        expect(crumbs.nth(i)).to_be_visible()
        expect(crumbs.nth(i)).to_contain_text(" v ")
    page.screenshot(path=str(SHOTS / "coins-crumbs-390.png"), full_page=True)
    context.close()


def test_without_javascript(browser: Browser, live_server: str) -> None:
    """With JavaScript off the form posts and redirects, and the outcome buttons are plain GET forms."""
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    ask_for_twelve(page, live_server)
    follow(page, "BBR")
    expect(page.get_by_text(answer("BBR"))).to_be_visible()
    leaf_url = page.url
    page.go_back()
    page.wait_for_load_state()
    expect(page.get_by_role("heading", name="Weighing 3")).to_be_visible()
    page.reload()
    expect(page.get_by_role("navigation", name="Path so far")).to_contain_text("2. 9–10 v 1, 11: balance")
    shared = context.new_page()
    shared.goto(leaf_url)
    expect(shared.get_by_text(answer("BBR"))).to_be_visible()
    context.close()


def test_tree_view_links_to_nodes(page: Page, live_server: str) -> None:
    """The whole-tree view opens branches and links into the navigator."""
    page.goto(f"{live_server}/coins/tree?n=12")
    link = page.get_by_role("link", name="coin 1 is heavier")
    expect(link).to_be_hidden()
    closed = page.locator("details:not([open]) > summary")
    while closed.count():
        closed.first.click()
    link.click()
    expect(page.get_by_text("Coin 1 is heavier.")).to_be_visible()


def test_bad_input_shows_message(page: Page, live_server: str) -> None:
    """A hand-edited URL shows a clear 400 page."""
    response = page.goto(f"{live_server}/coins/plan?n=12&path=LLLL")
    assert response is not None and response.status == 400
    expect(page.get_by_role("alert")).to_contain_text("path")


def test_accessibility(page: Page, live_server: str) -> None:
    """axe finds no serious or critical violations on the main pages."""
    assert_accessible(
        page,
        live_server,
        [
            "/",
            "/coins",
            "/coins/plan?n=12&path=L",
            "/coins/plan?n=12&path=LBL",
            "/coins/tree?n=12",
            "/coins/scheme?n=12",
            "/coins/plan?n=1000000",
        ],
    )

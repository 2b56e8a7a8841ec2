"""Phone and desktop layouts: no page the site links to scrolls sideways at 360 px, 390 px or 1280 px, and each
is axe clean at 390 px (each puzzle's accessibility test scans its main pages at 1280 px); every page's
screenshot at both sizes is saved in screenshots/ (not committed) for a reviewer to look at; the next action of
each game page is visible without scrolling on a phone."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.axe_check import serious

PAGES = [
    "/",
    "/glossary",
    "/coins",
    "/coins/plan?n=12",
    "/coins/plan?n=40&path=LB",
    "/coins/tree?n=12",
    "/coins/scheme?n=12",
    "/adversary",
    "/adversary/play?n=12",
    "/aequitas",
    "/aequitas/play?game=F&n=5",
    "/aequitas/play?game=F&n=5&extra=0&light=0&fake=1&heavier=1&conv=normal&first=you&w=1-2;2-3",
    "/aequitas/table?max=8",
    "/devil",
    "/devil/play?n=8",
    "/devil/solution?n=4",
    "/devil/play?n=4&moves=1",
    "/devil/solution?n=4&from=1",
    "/devil/play?n=3&moves=1",
    "/devil/play?n=3&moves=1&resign=1",
    "/pegs",
    "/pegs/play?board=triangle-5&hole=1",
    "/pegs/play?board=english&hole=d4",
    "/pegs/play?board=english&hole=d4&finish=d4",
    "/pegs/table?board=triangle-5",
    "/pegs/solution?board=triangle-5&hole=1",
    "/codebreak",
    "/codebreak/game?game=mastermind&pegs=2&colours=4",
    "/codebreak/play?game=mastermind",
    "/codebreak/play?game=super-mastermind&maker=adversarial&g=AABBC,CDDEE&hint=1",
    "/codebreak/plan?game=mastermind&pegs=2&colours=4",
    "/codebreak/optima",
    "/variants",
    "/variants/plan?n=12&lies=1",
    "/variants/plan?n=12&lies=1&path=LLB",
    "/variants/plan?n=12&pans=4&path=1",
    "/variants/plan?n=12&fakes=2&path=L",
    "/variants/play?n=12&lies=1&w=1,2,3,4-5,6,7,8",
    "/variants/play?n=12&lies=1&hint=1&h=1",
    "/variants/table?weight=heavier&pans=3",
]
SHOTS = Path(__file__).resolve().parents[2] / "screenshots"  # pytest-playwright empties test-results/


def shot_name(path: str, width: int, theme: str = "light") -> str:
    """A file name for a page's screenshot."""
    name = path.strip("/").replace("/", "_").replace("?", "_").replace("&", "_").replace("=", "-")
    return f"{(name or 'home')[:90]}-{width}{'' if theme == 'light' else '-' + theme}.png"


GROUPS = 4  # the pages in this many groups per width, so that the test processes share them out


@pytest.mark.parametrize("group", range(GROUPS))
@pytest.mark.parametrize("width", [390, 1280])
def test_no_page_scrolls_sideways(browser: Browser, live_server: str, width: int, group: int) -> None:
    """The document is never wider than the window (on a phone also at 360 px, the same page resized); its
    whole-page screenshot is saved, on the phone in the light and the dark theme (the system's preference,
    emulated: the page follows it without a reload), on the desktop in the light one (the dark theme's colours are
    the phone's); on the phone each page is axe clean in both themes (no serious or critical
    violation: colour contrast included, the only rule a theme changes, so the dark theme is checked for it alone;
    each puzzle's own accessibility test scans its main pages at the desktop width)."""
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    SHOTS.mkdir(parents=True, exist_ok=True)
    too_wide, violations = [], []
    for path in PAGES[group::GROUPS]:
        page.emulate_media(color_scheme="light")
        page.goto(live_server + path)  # waits for the load event: the page is server-rendered, htmx only adds to it
        for narrow in (360, width) if width < 400 else (width,):
            page.set_viewport_size({"width": narrow, "height": 800})
            scroll = page.evaluate("document.documentElement.scrollWidth")
            if scroll > narrow:
                too_wide.append((path, narrow, scroll))
        for theme in ("light", "dark") if width < 400 else ("light",):
            page.emulate_media(color_scheme=theme)
            page.screenshot(path=str(SHOTS / shot_name(path, width, theme)), full_page=True)
            bad = serious(page, contrast_only=theme == "dark") if width < 400 else []
            if bad:
                violations.append((path, theme, bad))
    context.close()
    assert not too_wide, too_wide
    assert not violations, violations


@pytest.mark.parametrize(
    ("path", "action"),
    [
        ("/coins/plan?n=12", "Right heavier"),
        ("/coins/plan?n=1000000&path=LBR", "Right heavier"),
        ("/adversary/play?n=12", "Weigh"),
        ("/codebreak/play?game=mastermind", "Guess"),
        ("/codebreak/play?game=super-mastermind", "Guess"),
        ("/devil/play?n=4", "Flip"),
        ("/aequitas/play?game=F&n=5", "Weigh"),
        ("/aequitas/play?game=D&n=12&light=6", "Weigh"),
        ("/variants/plan?n=12&lies=1", "Right heavier"),
        ("/variants/plan?n=12&pans=3", "Pan 3 lighter"),
    ],
)
def test_next_action_above_the_fold_on_a_phone(browser: Browser, live_server: str, path: str, action: str) -> None:
    """On a 390 x 844 phone screen the page's next action is visible without scrolling."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(live_server + path)
    box = page.get_by_role("button", name=action, exact=True).bounding_box()
    context.close()
    assert box is not None and box["y"] + box["height"] <= 844, (path, box)


@pytest.mark.parametrize("path", ["/pegs/play?board=triangle-5&hole=4", "/pegs/play?board=english&hole=d4&finish=d4"])
def test_peg_board_above_the_fold_on_a_phone(browser: Browser, live_server: str, path: str) -> None:
    """On a 390 x 844 phone screen the whole peg board (the next action: click a coin) is visible."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(live_server + path)
    box = page.locator("svg.pegboard").bounding_box()
    context.close()
    assert box is not None and box["y"] + box["height"] <= 844, (path, box)


def test_links_and_forms_swap_the_page_in_place(browser: Browser, live_server: str) -> None:
    """The layout boosts every link and form (hx-boost): a link swaps the main region without reloading the
    page and pushes its URL, so Back returns; a JSON link opens the JSON itself."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(live_server + "/")
    page.evaluate("window.stayed = true")  # a full page load would forget it
    page.get_by_role("navigation", name="Site").get_by_role("link", name="Counterfeit coin").click()
    page.wait_for_url("**/coins")
    assert page.evaluate("window.stayed === true")
    page.get_by_role("button", name="Show the plan").click()  # a boosted form
    page.wait_for_url("**/coins/plan?**")
    assert page.evaluate("window.stayed === true") and "Weighing 1" in page.title()
    page.go_back()  # htmx keeps no history cache here: the page is loaded again
    page.wait_for_url("**/coins")
    expect(page.get_by_role("button", name="Show the plan")).to_be_visible()
    plan = context.new_page()
    plan.goto(live_server + "/coins/plan?n=12")
    with plan.expect_navigation():
        plan.get_by_role("link", name="JSON", exact=True).click()
    assert plan.evaluate("document.body.innerText").lstrip().startswith("{")
    context.close()


def test_theme_follows_the_system_and_the_toggle_is_remembered(browser: Browser, live_server: str) -> None:
    """With no choice made the page takes the system's theme; the header's button cycles auto, dark, light, and
    the choice survives a reload and applies to other pages; every colour comes from the theme's properties."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, color_scheme="dark")
    page = context.new_page()
    page.goto(live_server + "/pegs/play?board=triangle-5&hole=1")
    background = "getComputedStyle(document.documentElement).backgroundColor"
    dark = page.evaluate(background)
    toggle = page.get_by_role("button", name="Theme: auto")
    toggle.click()  # dark, chosen: the same colours as the system's dark
    expect(page.get_by_role("button", name="Theme: dark")).to_be_visible()
    assert page.evaluate(background) == dark
    page.get_by_role("button", name="Theme: dark").click()  # light, against the system
    expect(page.get_by_role("button", name="Theme: light")).to_be_visible()
    light = page.evaluate(background)
    assert light != dark and page.evaluate("document.documentElement.dataset.theme") == "light"
    page.goto(live_server + "/codebreak/play?game=mastermind&maker=adversarial")
    assert page.evaluate(background) == light
    expect(page.get_by_role("button", name="Theme: light")).to_be_visible()
    page.get_by_role("button", name="Theme: light").click()  # auto again: the system's dark
    assert page.evaluate(background) == dark and page.evaluate("localStorage.getItem('coin-puzzles:theme')") == "auto"
    # the dark theme's check (the colour rules alone) finds text of too little contrast (styled through the DOM:
    # the site's content security policy ignores inline style attributes)
    assert not serious(page, contrast_only=True)
    page.evaluate(
        "const p = document.createElement('p'); p.textContent = 'A faint sentence, hard to read.';"
        "p.style.color = '#777'; p.style.background = '#888'; document.querySelector('main').prepend(p)"
    )
    assert serious(page, contrast_only=True) == ["color-contrast"]
    context.close()

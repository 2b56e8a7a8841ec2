"""Phone and desktop layouts: no page the site links to scrolls sideways at 360 px, 390 px or 1280 px; each
size's screenshot is saved (test-results/layout/) for a reviewer to look at."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser

PAGES = [
    "/",
    "/coins",
    "/coins/plan?n=12",
    "/coins/plan?n=40&path=LB",
    "/coins/tree?n=12",
    "/coins/scheme?n=12",
    "/adversary",
    "/adversary/play?n=12",
    "/aequitas",
    "/aequitas/play?game=F&n=5",
    "/aequitas/table?max=8",
    "/devil",
    "/devil/play?n=8",
    "/devil/solution?n=4",
    "/pegs",
    "/pegs/play?board=triangle-5&hole=1",
    "/pegs/play?board=english&hole=d4",
    "/pegs/table?board=triangle-5",
    "/pegs/solution?board=triangle-5&hole=1",
    "/codebreak",
    "/codebreak/game?game=mastermind&pegs=2&colours=4",
    "/codebreak/play?game=mastermind",
    "/codebreak/plan?game=mastermind&pegs=2&colours=4",
]
SHOTS = Path("test-results") / "layout"


@pytest.mark.parametrize("width", [360, 390, 1280])
def test_no_page_scrolls_sideways(browser: Browser, live_server: str, width: int) -> None:
    """The document is never wider than the window."""
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    SHOTS.mkdir(parents=True, exist_ok=True)
    too_wide = []
    for path in PAGES:
        page.goto(live_server + path)
        scroll = page.evaluate("document.documentElement.scrollWidth")
        if scroll > width:
            too_wide.append((path, scroll))
        name = path.strip("/").replace("/", "_").replace("?", "_").replace("&", "_").replace("=", "-") or "home"
        page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=False)
    context.close()
    assert not too_wide, too_wide


@pytest.mark.parametrize(
    ("path", "action"),
    [
        ("/coins/plan?n=12", "Right heavier"),
        ("/coins/plan?n=1000000&path=LBR", "Right heavier"),
        ("/adversary/play?n=12", "Weigh"),
        ("/codebreak/play?game=mastermind", "Guess"),
        ("/devil/play?n=4", "Flip"),
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

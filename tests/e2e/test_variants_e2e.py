"""A person follows a one-lie plan in a real browser to an answer that was reached through a lie."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from solvers.variants.model import Variant, outcome_label
from solvers.variants.plan import make_plan, verify
from tests.e2e.axe_check import assert_accessible
from tests.e2e.test_layout_e2e import SHOTS


def lied_path() -> tuple[str, str, tuple[int, ...]]:
    """A leaf of the 12-coin one-lie plan whose answer needed a lie, its answer and where the lie was (from the
    solver's plan, replayed with the scale's own rule)."""
    plan = make_plan(Variant(12, lies=1))
    assert verify(plan).ok
    for path, (node, _) in sorted(plan.nodes.items(), key=lambda x: (len(x[0]), x[0])):
        if node.answer is not None:
            lies = plan.lies_on_path(path, node.answer)
            if any(lies):
                return path, node.answer.sentence(), tuple(i + 1 for i, lie in enumerate(lies) if lie)
    raise AssertionError("no leaf reached through a lie")


def test_follow_a_one_lie_plan_through_a_lie(page: Page, live_server: str, browser: Browser) -> None:
    """Set up 12 coins and one lie in the form, click the readings of a path with a lie, see the answer and the
    lie named; Back and a shared link keep the place."""
    path, answer, lies_at = lied_path()
    page.goto(f"{live_server}/variants")
    page.get_by_label("Coins (N, 1 to 100)").fill("12")
    page.get_by_label("The balance may lie up to").select_option("1")
    page.get_by_role("button", name="Show the plan").click()
    expect(page.get_by_role("heading", name="Weighing 1 of at most 6")).to_be_visible()
    for i, letter in enumerate(path):
        page.get_by_role("button", name=outcome_label(letter), exact=True).click()
        if i + 1 < len(path):
            expect(page.get_by_role("heading", name=f"Weighing {i + 2} of at most 6")).to_be_visible()
    expect(page.get_by_role("heading", name=re.compile("Answer after"))).to_be_visible()
    expect(page.get_by_role("status")).to_have_text(answer)
    where = " and ".join(map(str, lies_at))
    expect(page.get_by_text(re.compile(f"The scale lied at weighings? {where}"))).to_be_visible()
    expect(page.get_by_role("navigation", name="Path so far")).to_contain_text("(a lie)")
    leaf = page.url
    assert f"path={path}" in leaf
    page.go_back()
    expect(page.get_by_role("heading", name=f"Weighing {len(path)} of at most 6")).to_be_visible()
    other = browser.new_page()
    other.goto(leaf)
    expect(other.get_by_role("status")).to_have_text(answer)
    other.close()
    assert_accessible(page, live_server, ["/variants", f"/variants/plan?n=12&lies=1&path={path}"])


def test_weigh_against_the_variants_adversary_like_the_other_games(page: Page, live_server: str) -> None:
    """Type the pans as ranges, weigh, take it back with the u key, weigh again; a refused weighing is a message
    beside the pans; three pans and a heavier coin among three: found in one weighing, the win screen and the
    statistics; axe clean."""
    page.goto(f"{live_server}/variants/play?n=12&lies=1")
    page.get_by_role("textbox", name="Left pan").fill("1-4")
    page.get_by_role("textbox", name="Right pan").fill("5")
    page.get_by_role("button", name="Weigh").click()
    expect(page.get_by_role("alert")).to_contain_text("every pan needs the same number of coins")
    expect(page.get_by_role("textbox", name="Left pan")).to_have_value("1-4")
    page.get_by_role("textbox", name="Right pan").fill("5..8")
    page.get_by_role("button", name="Weigh").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Weighing 2: against the adversary")
    expect(page.locator("ol.turns")).to_contain_text("a best weighing")
    page.keyboard.press("u")
    expect(page.get_by_role("heading", level=1)).to_have_text("Weighing 1: against the adversary")
    page.goto(f"{live_server}/variants/play?n=3&weight=heavier&pans=3")
    for i in (1, 2, 3):
        page.get_by_role("textbox", name=f"Pan {i}").fill(str(i))
    page.get_by_role("button", name="Weigh").click()
    expect(page.get_by_role("heading", name="Found in the fewest weighings")).to_be_visible()
    page.screenshot(path=str(SHOTS / "variants-play-won.png"), full_page=True)
    assert_accessible(page, live_server, ["/variants/play?n=12&lies=1&w=1,2,3,4-5,6,7,8&pan1=1&pan2=2,3"])


def test_variants_coins_clicked_dragged_and_chosen_onto_the_pans(page: Page, live_server: str) -> None:
    """Three pans, a heavier coin among three: coin 1 clicked once goes on pan 1, coin 2 clicked twice on pan 2,
    coin 3 dragged onto pan 3; the pans draw them, the line above Weigh previews the weighing (or says why it cannot
    be made) and the typed pans follow; Weigh finds the coin in one weighing. On two pans, coins put on by their
    menus (the keyboard's way) and refused as unequal stay where they were, with the message beside them."""
    page.goto(f"{live_server}/variants/play?n=3&weight=heavier&pans=3")
    face = page.locator(".pick .face")
    face.nth(0).click()
    face.nth(1).click()
    face.nth(1).click()
    expect(page.locator('[data-pan="pan1"] .chip')).to_have_text(["1"])
    expect(page.locator('[data-pan="pan2"] .chip')).to_have_text(["2"])
    expect(page.locator("[data-preview]")).to_have_text(
        "Pan 1 1, pan 2 1, pan 3 0: every pan must hold the same number of coins."
    )
    page.locator('.pick[data-coin="3"]').drag_to(page.locator('.zone[data-drop="pan3"]'))
    expect(page.locator('[data-pan="pan3"] .chip')).to_have_text(["3"])
    expect(page.locator("[data-preview]")).to_have_text("Ready to weigh 1 against 2 against 3.")
    expect(page.get_by_role("textbox", name="Pan 2")).to_have_value("2")
    page.get_by_role("button", name="Weigh", exact=True).click()
    expect(page.get_by_role("heading", name="Found in the fewest weighings")).to_be_visible()

    page.goto(f"{live_server}/variants/play?n=12&lies=1")
    for coin, pan in (("1", "pan1"), ("2", "pan1"), ("3", "pan2")):
        page.get_by_role("combobox", name=f"Coin {coin} (unknown)").select_option(pan)
    expect(page.locator("[data-preview]")).to_have_text(
        "Left 2, right 1: both pans must hold the same number of coins."
    )
    expect(page.get_by_role("textbox", name="Left pan")).to_have_value("1, 2")
    page.get_by_role("button", name="Weigh", exact=True).click()
    expect(page.get_by_role("alert")).to_contain_text("every pan needs the same number of coins")
    expect(page.locator('[data-pan="pan1"] .chip')).to_have_text(["1", "2"])
    expect(page.get_by_role("combobox", name="Coin 3 (unknown)")).to_have_value("pan2")
    page.screenshot(path=str(SHOTS / "variants-picker-refused.png"), full_page=True)
    page.get_by_role("combobox", name="Coin 4 (unknown)").select_option("pan2")
    page.get_by_role("button", name="Weigh", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Weighing 2: against the adversary")
    expect(page.locator("ol.turns")).to_contain_text("1,2 v 3,4")

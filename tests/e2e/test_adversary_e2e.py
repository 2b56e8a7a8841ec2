"""Playing the adversary game in a real browser."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from solvers.weighing import Problem
from solvers.weighing.adversary import as_user, cases_of, hint, replay
from tests.e2e.axe_check import assert_accessible
from tests.e2e.test_layout_e2e import SHOTS

P = Problem(12)


def start_game(page: Page, base: str, mode: str = "adversary", script: bool = True) -> None:
    """Open the set-up form and start a 12-coin game (script: the budget's line follows the coins chosen)."""
    page.goto(f"{base}/adversary")
    page.get_by_label("Number of coins").fill("12")
    if script:
        page.get_by_label("Number of coins").dispatch_event("change")  # as leaving the field does
        expect(page.locator("#budget-help")).to_contain_text("From 3 to 23 weighings")  # the budgets they allow
    page.get_by_role("radio", name=re.compile("^" + mode)).check()
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name="Weighing 1 of 3")).to_be_visible()


def place(page: Page, left: tuple[int | str, ...], right: tuple[int | str, ...], moves: bool = True) -> None:
    """Put coins on the pans with each coin's own control, then press Weigh; unless the weighing is to be refused
    (moves=False), wait for the new position's URL, so that the next click cannot reach the old position."""
    for coin in left:
        page.get_by_role("combobox", name=re.compile(rf"^Coin {coin} \(")).select_option("left")
    for coin in right:
        page.get_by_role("combobox", name=re.compile(rf"^Coin {coin} \(")).select_option("right")
    before = page.url
    page.get_by_role("button", name="Weigh", exact=True).click()
    if moves:
        page.wait_for_url(lambda url: url != before)


def test_win_by_following_hints(page: Page, live_server: str) -> None:
    """Ask for hints, make the solver's weighings, name the coin, and win in 3."""
    start_game(page, live_server)
    ws: list = []  # type: ignore[type-arg]
    for i in range(3):
        page.get_by_role("link", name="Show a hint").click()
        expect(page.get_by_text(f"You can still finish in {3 - i} more weighing")).to_be_visible()
        page.get_by_role("link", name="Show the solver's next weighing").click()
        expect(page.get_by_text("The solver would weigh")).to_be_visible()
        h = hint(replay(P, 3, ws))
        assert h is not None
        place(page, *as_user(h))
        expect(page.get_by_role("heading", name=f"Weighing {i + 1}:")).to_be_visible()
        # the page's answer is the adversary's: read it back from the URL-replayed game
        ws.append(as_user(h))
    expect(page.get_by_role("heading", name="Name the coin").first).to_be_visible()
    case = cases_of(replay(P, 3, ws).coins)[0]
    page.get_by_label("The counterfeit is").select_option(str(case.coin))
    page.get_by_role("radio", name="heavier" if case.heavier else "lighter", exact=True).check()
    page.get_by_role("button", name="Name it").click()
    expect(page.get_by_role("heading", name="You found the coin!")).to_be_visible()
    expect(page.locator(".win .optimum")).to_have_text("3")
    expect(page.get_by_role("heading", name="You win")).to_have_count(0)  # one end screen, not two


def test_wasteful_weighing_warns_and_unequal_is_refused(page: Page, live_server: str, browser: Browser) -> None:
    """An unequal weighing is refused; a wasteful one is flagged; Back, reload and a shared link work."""
    start_game(page, live_server)
    place(page, (1, 2), (3,), moves=False)
    expect(page.get_by_role("alert")).to_contain_text("equal numbers of coins")
    expect(page.get_by_role("heading", name="Weighing 1 of 3")).to_be_visible()
    page.get_by_role("combobox", name=re.compile(r"^Coin 2 \(")).select_option("off")
    page.get_by_role("button", name="Weigh", exact=True).click()
    expect(page.get_by_text("weighing 1 lost it")).to_be_visible()
    expect(page.get_by_text("The solver would have weighed 1\u20134 against 5\u20138 instead")).to_be_visible()
    expect(page).to_have_url(re.compile("moves=1-3"))  # htmx pushes the address after the swap
    shared = page.url
    page.go_back()
    page.wait_for_load_state()
    expect(page).not_to_have_url(re.compile("moves=1-3"))
    expect(page.get_by_role("heading", name="Weighing 1 of 3")).to_be_visible()
    page.wait_for_load_state()
    page.go_forward()
    expect(page).to_have_url(re.compile("moves=1-3"))
    page.wait_for_load_state()
    expect(page.get_by_text("weighing 1 lost it")).to_be_visible()
    page.reload()
    expect(page.get_by_text("weighing 1 lost it")).to_be_visible()
    other = browser.new_page()
    other.goto(shared)
    expect(other.get_by_text("weighing 1 lost it")).to_be_visible()
    other.close()


def test_click_to_cycle(page: Page, live_server: str) -> None:
    """With JavaScript, clicking a coin cycles it off -> left -> right and the pan counts follow."""
    start_game(page, live_server)
    face = page.locator('.pick[data-coin="5"] .face')
    face.click()
    expect(page.get_by_role("combobox", name=re.compile(r"^Coin 5 \("))).to_have_value("left")
    face.click()
    expect(page.get_by_role("combobox", name=re.compile(r"^Coin 5 \("))).to_have_value("right")
    expect(page.locator('[data-count="right"]')).to_have_text("1")


def test_honest_mode_reveals_the_secret(page: Page, live_server: str) -> None:
    """Honest scale: the secret is not in the page until the game ends, then it is revealed."""
    start_game(page, live_server, mode="honest")
    assert "was heavier" not in page.content() and "was lighter" not in page.content()
    place(page, (1, 2, 3, 4), (5, 6, 7, 8))
    page.get_by_role("button", name="Name it").click()
    expect(page.get_by_text("The secret: ")).to_be_visible()


def test_without_javascript(browser: Browser, live_server: str) -> None:
    """The whole game works with JavaScript off."""
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    start_game(page, live_server, script=False)
    place(page, (1, 2, 3, 4), (5, 6, 7, 8))
    expect(page.get_by_role("heading", name="Weighing 1:")).to_be_visible()
    context.close()


def test_accessibility(page: Page, live_server: str) -> None:
    """No serious axe violations on the game pages."""
    base = "/adversary/play?n=12&budget=3"
    assert_accessible(page, live_server, ["/adversary", base, base + "&w=1-2&hint=2", base + "&w=1-2&guess=1h"])


def test_a_hundred_coins_by_ranges_and_classes(browser: Browser, live_server: str) -> None:
    """100 coins: Weigh is in the first screen on a 1280x800 desktop and a 390x844 phone; typing '1-33' and
    '34-66' moves those coins' controls; Weigh plays it; then 'add 5 of the coins (first class) to the left' and
    the typed pans follow the coins."""
    for width, height in ((1280, 800), (390, 844)):
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        page.goto(f"{live_server}/adversary/play?n=100")
        box = page.get_by_role("button", name="Weigh", exact=True).bounding_box()
        assert box is not None and box["y"] + box["height"] <= height, (width, box)
        if width == 1280:
            page.get_by_role("textbox", name="Left pan").fill("1-33")
            page.get_by_role("textbox", name="Right pan").fill("34 - 66")
            expect(page.get_by_role("combobox", name=re.compile(r"^Coin 34 \("))).to_have_value("right")
            expect(page.get_by_role("combobox", name=re.compile(r"^Coin 33 \("))).to_have_value("left")
            expect(page.locator("[data-preview]")).to_contain_text("Ready to weigh")
            page.get_by_role("button", name="Weigh", exact=True).click()
            expect(page.get_by_role("heading", name=re.compile("^Weighing 2"))).to_be_visible()
            again = page.get_by_role("button", name="Weigh", exact=True).bounding_box()
            assert again is not None and again["y"] >= 0 and again["y"] + again["height"] <= height, again
            page.get_by_label("Add").fill("5")
            page.locator("[data-bulk=left]").click()
            expect(page.locator("[data-count=left]")).to_have_text("5")
            expect(page.get_by_role("textbox", name="Left pan")).not_to_have_value("")
            page.screenshot(path=str(SHOTS / "adversary-100-ranges.png"), full_page=False)
        context.close()


def test_a_typed_pan_that_names_no_coin_is_kept_and_refused_by_name(browser: Browser, live_server: str) -> None:
    """Letters typed in a pan are no coin: the preview says so as the server will, the field keeps them when the
    other pan is typed (it is not rewritten from the coins' controls), and Weigh is refused naming them."""
    page = browser.new_page()
    page.goto(f"{live_server}/adversary/play?n=12")
    page.get_by_role("textbox", name="Left pan").fill("abc")
    expect(page.locator("[data-preview]")).to_have_text(
        "Coin abc is not in this game: type numbers like 7, ranges like 1-4, or G1."
    )
    page.get_by_role("textbox", name="Right pan").fill("1-2")
    expect(page.get_by_role("textbox", name="Left pan")).to_have_value("abc")
    page.get_by_role("button", name="Weigh", exact=True).click()
    expect(page.locator("#play-error")).to_contain_text("coin abc is not in this game")
    page.get_by_role("textbox", name="Left pan").fill("3-4")
    expect(page.locator("[data-preview]")).to_have_text("Ready to weigh 3, 4 against 1, 2.")
    page.close()

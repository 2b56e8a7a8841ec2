"""Playing Æquitas against the computer in a real browser."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.e2e.axe_check import assert_accessible
from tests.e2e.test_layout_e2e import SHOTS


def weigh(page: Page, left: list[str], right: list[str]) -> None:
    """Place coins with their own controls and press Weigh."""
    for coin in left:
        page.get_by_role("combobox", name=re.compile(rf"^(Coin {coin} \(|Extra genuine coin {coin}$)")).select_option(
            "left"
        )
    for coin in right:
        page.get_by_role("combobox", name=re.compile(rf"^(Coin {coin} \(|Extra genuine coin {coin}$)")).select_option(
            "right"
        )
    page.get_by_role("button", name="Weigh", exact=True).click()


def test_d40_with_extra_coin_to_a_win_following_hints(page: Page, live_server: str) -> None:
    """D(4,0), normal play, one extra coin: follow the hint's winning option and win; Back and reload."""
    page.goto(f"{live_server}/aequitas")
    page.get_by_label("Number of coins").fill("4")
    page.get_by_label("D only: coins 1 to this number can only be light").fill("4")
    page.get_by_label("The fake coin").fill("1")
    page.get_by_label("One extra coin known to be genuine").check()
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name="Your move")).to_be_visible()
    expect(page).to_have_url(re.compile("/aequitas/play"))
    start_url = page.url
    page.get_by_role("link", name="Show Grundy values").click()
    expect(page.get_by_text("Grundy value 3")).to_be_visible()
    winning = page.locator("tr.winning td").nth(2).inner_text()  # e.g. "2, 3 against 4, G1"
    left, right = (side.split(", ") for side in winning.split(" against "))
    expect(page).to_have_url(re.compile("hint=1"))
    hinted_url = page.url
    weigh(page, left, right)
    expect(page.get_by_role("heading", name="You win")).to_be_visible()
    expect(page.get_by_role("status").filter(has_text="revealed")).to_contain_text("You revealed the last piece")
    # htmx pushes the new address only after the page is swapped in: going back before that would leave two pages.
    expect(page).to_have_url(re.compile("&moves="))
    page.go_back()
    # Wait for the page before the weighing itself: the win screen also names the Grundy value 3.
    expect(page).to_have_url(hinted_url)
    expect(page.get_by_role("heading", name="Your move")).to_be_visible()
    expect(page.locator("tr.winning").first).to_be_visible()
    page.reload()
    expect(page.get_by_role("heading", name="Your move")).to_be_visible()
    page.goto(start_url)
    expect(page.get_by_role("heading", name="Your move")).to_be_visible()


def test_the_setup_says_who_wins_before_play(page: Page, live_server: str) -> None:
    """Choosing F with 4 coins marks the start as lost for the first player (Grundy value 0) as the form changes;
    letting the computer move first gives the player the winning side. Started anyway as the first player, the
    game warns and links back to the set-up with the computer moving first."""
    page.goto(f"{live_server}/aequitas")
    verdict = page.locator("#start-verdict")
    expect(verdict).to_contain_text("Won for the first player")  # the default, D with 4 coins
    page.get_by_label("F: unknown coins, the Observer must find the fake").check()
    page.get_by_label("Number of coins").fill("4")
    page.get_by_label("Number of coins").blur()
    expect(verdict).to_contain_text("Lost for the first player")
    expect(verdict).to_contain_text("let the computer move first")
    page.get_by_label("the computer", exact=True).check()
    expect(verdict).to_contain_text("You, moving second, can win.")
    page.get_by_label("you", exact=True).check()
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("p.start-verdict")).to_contain_text("This start is lost for you")
    page.screenshot(path=str(SHOTS / "aequitas-lost-start.png"), full_page=True)
    page.get_by_role("link", name="Let the computer move first").click()
    expect(page.locator("#start-verdict")).to_contain_text("You, moving second, can win.")
    expect(page.get_by_label("the computer", exact=True)).to_be_checked()


def test_uninformative_weighing_is_refused(page: Page, live_server: str) -> None:
    """Weighing two coins the Observer already knows are genuine is refused with the reason."""
    page.goto(f"{live_server}/aequitas/play?game=D&n=6&light=6&fake=6&conv=misere-last-mover-loses&w=1-2;3-4")
    weigh(page, ["1"], ["2"])
    expect(page.get_by_role("alert")).to_contain_text("no new information")
    expect(page.get_by_role("heading", name="Your move")).to_be_visible()


def test_accessibility(page: Page, live_server: str) -> None:
    """No serious axe violations on the Æquitas pages."""
    assert_accessible(
        page,
        live_server,
        [
            "/aequitas",
            "/aequitas?game=F&n=4",
            "/aequitas/play?game=D&n=4&light=4&fake=1&extra=1&hint=1",
            "/aequitas/play?game=F&n=4&w=",
            "/aequitas/table?max=8",
        ],
    )

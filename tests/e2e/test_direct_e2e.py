"""Direct manipulation in a real browser: places clicked on the Devil's table, coins drawn on the adversary's
pans with a preview, focus kept after a move, and Æquitas weighings drawn with their outcomes."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from solvers.devil import DevilVariant, positions, solve


def test_devil_places_are_clicked_on_the_table(page: Page, live_server: str) -> None:
    """N = 4: each of the solver's moves is entered by clicking the places drawn around the table (a second
    click takes a place back); the game is won, and the focus stays on Flip after each move."""
    v = DevilVariant(4)
    moves = solve(v).moves
    assert moves is not None
    page.goto(f"{live_server}/devil/play?n=4")
    table = page.locator("svg.round-table")
    expect(table).to_be_visible()
    for k, a in enumerate(moves, 1):
        chosen = set(positions(v, a))
        if k == 1:  # a place clicked twice is not flipped
            table.locator("label.place").nth(0).click()
            table.locator("label.place").nth(0).click()
        for place in chosen:
            table.locator("label.place").nth(place).click()
        for place in range(4):
            box = page.get_by_role("checkbox", name=f"Place {place}", exact=True)
            expect(box).to_be_checked() if place in chosen else expect(box).not_to_be_checked()
        page.get_by_role("button", name="Flip").click()
        expect(page.get_by_text(f"Moves so far: {k}")).to_be_visible()
        if k < len(moves):
            expect(page.get_by_role("button", name="Flip")).to_be_focused()
    expect(page.get_by_role("status").filter(has_text="You win")).to_have_text(f"You win after {len(moves)} moves.")


def test_adversary_pans_draw_the_coins_and_preview(page: Page, live_server: str) -> None:
    """Clicking coins puts them on the pans, which draw them; the line above Weigh previews the weighing or says
    why it cannot be made; a coin clicked on a pan goes back off; after Weigh the focus is on Weigh again."""
    page.goto(f"{live_server}/adversary/play?n=12")
    for coin, clicks in (("1", 1), ("2", 1), ("3", 2)):
        for _ in range(clicks):
            page.locator(f'.pick[data-coin="{coin}"] .face').click()
    left, right = page.locator('[data-pan="left"] .chip'), page.locator('[data-pan="right"] .chip')
    expect(left).to_have_text(["1", "2"])
    expect(right).to_have_text(["3"])
    expect(page.locator("[data-preview]")).to_have_text(
        "Left 2, right 1: both pans must hold the same number of coins."
    )
    page.get_by_role("combobox", name="Coin 4 (unknown)").select_option("right")
    expect(right).to_have_text(["3", "4"])
    expect(page.locator("[data-preview]")).to_have_text("Ready to weigh 1, 2 against 3, 4.")
    left.filter(has_text="2").click()
    expect(left).to_have_text(["1"])
    expect(page.get_by_role("combobox", name="Coin 2 (unknown)")).to_have_value("off")
    page.locator('.pick[data-coin="2"] .face').click()
    page.get_by_role("button", name="Weigh", exact=True).focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Weighing 2 of 3")).to_be_visible()
    expect(page.get_by_role("button", name="Weigh", exact=True)).to_be_focused()
    expect(page.get_by_role("img", name="left pan 1–2 (2 coins); right pan 3–4 (2 coins)")).to_be_visible()


def test_aequitas_both_weighings_drawn_with_outcomes(page: Page, live_server: str) -> None:
    """Game F, 5 coins, fake 1 heavier: the player's weighing and the computer's reply are both drawn, each
    tipped as it came out, with what the Observer learned."""
    page.goto(f"{live_server}/aequitas/play?game=F&n=5&extra=0&light=0&fake=1&heavier=1&conv=normal&first=you")
    page.get_by_role("combobox", name="Coin 1 (unknown, the fake)").select_option("left")
    page.get_by_role("combobox", name="Coin 2 (unknown)").select_option("right")
    page.get_by_role("button", name="Weigh", exact=True).click()
    expect(page.get_by_role("heading", name="Your weighing and the computer's reply")).to_be_visible()
    figures = page.locator("section.recent figure")
    expect(figures).to_have_count(2)
    expect(figures.nth(0)).to_contain_text("1. You weighed 1 against 2: left heavier. The Observer learned:")
    expect(figures.nth(1)).to_contain_text("2. The computer weighed")
    expect(page.get_by_role("img", name="the scale shows left heavier")).to_be_visible()

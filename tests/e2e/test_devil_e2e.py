"""The Devil's game in a real browser."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, Route, expect

from solvers.devil import DevilVariant, positions, solve
from tests.e2e.axe_check import assert_accessible
from tests.e2e.test_layout_e2e import SHOTS
from tests.e2e.test_play_games_e2e import start_hidden


def play_solution(page: Page, n: int) -> None:
    """Enter the solver's moves by ticking places and pressing Flip."""
    v = DevilVariant(n)
    moves = solve(v).moves
    assert moves is not None
    for k, a in enumerate(moves, 1):
        for place in positions(v, a):
            page.get_by_role("checkbox", name=f"Place {place}", exact=True).check()
        page.get_by_role("button", name="Flip").click()
        expect(page.get_by_text(f"Moves so far: {k}")).to_be_visible()
    expect(page.get_by_role("status").filter(has_text="You win")).to_have_text(f"You win after {len(moves)} moves.")


def start(page: Page, base: str, n: int) -> None:
    """Set up an adversarial game."""
    page.goto(f"{base}/devil")
    page.get_by_label("Number of coins").fill(str(n))
    page.get_by_role("button", name="Sit down at the table").click()
    expect(page.get_by_role("status").filter(has_text="first move")).to_be_visible()


def test_win_two_and_four(page: Page, live_server: str) -> None:
    """Win N = 2 and N = 4 by entering the solver's moves; Back and reload keep the position."""
    start(page, live_server, 2)
    play_solution(page, 2)
    start(page, live_server, 4)
    play_solution(page, 4)
    page.go_back()
    page.wait_for_load_state()
    expect(page.get_by_role("status").filter(has_text="Not yet")).to_be_visible()
    page.reload()
    expect(page.get_by_text("Moves so far: 14")).to_be_visible()


def test_a_wasted_flip_is_explained_and_solved_from_there(page: Page, live_server: str) -> None:
    """N = 4: flip one coin (a wasted move); the page says how many tables it left and how many a best move would
    have left, and 'Show the solution' steps through the sure win from this position, numbered on from move 2."""
    start(page, live_server, 4)
    page.get_by_role("checkbox", name="Place 0", exact=True).check()
    page.get_by_role("button", name="Flip").click()
    expect(page.locator(".devil-tables")).to_contain_text("Your flip left 15 of the 15 tables")
    expect(page.locator(".devil-tables")).to_contain_text("would have left 14")
    page.get_by_role("link", name="Show the solution").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("The sure win for 4 coins: move 2 of 16")
    expect(page.locator(".from-here")).to_contain_text("From your position after 1 move: 15 more moves")
    page.get_by_role("link", name="Last").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("The sure win for 4 coins: move 16 of 16")
    page.screenshot(path=str(SHOTS / "devil-solution-from-here.png"), full_page=True)


def test_three_explains_and_peek(page: Page, live_server: str) -> None:
    """N = 3 explains why no strategy exists; Peek shows the belief state."""
    page.goto(f"{live_server}/devil/play?n=3")
    expect(page.get_by_text("No sequence of moves is sure to win").first).to_be_visible()
    page.get_by_role("switch", name="Peek: off").click()
    expect(page.get_by_text("7 tables still possible, in 3 rotation classes")).to_be_visible()


def test_accessibility(page: Page, live_server: str) -> None:
    """No serious axe violations."""
    assert_accessible(
        page,
        live_server,
        ["/devil", "/devil/play?n=4&moves=f&peek=1", "/devil/solution?n=4&step=2", "/devil/solution?n=4&from=1"],
    )


def _luminance(css: str) -> float:
    """The relative luminance (WCAG 2) of a computed colour 'rgb(r, g, b)'."""
    parts = [int(x) / 255 for x in css[css.index("(") + 1 : css.index(")")].split(",")[:3]]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in parts]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def test_the_coins_letters_are_legible_in_both_themes(browser: Browser, live_server: str) -> None:
    """A won table's H on its gold coin keeps a contrast of at least 4.5:1 in the light and the dark theme (axe
    does not measure SVG text; the dark theme's light ink made it about 1.2:1)."""
    for theme in ("light", "dark"):
        context = browser.new_context(color_scheme=theme)
        page = context.new_page()
        page.goto(f"{live_server}/devil/play?n=2&moves=3,1,3")
        text = page.locator("svg.devil-table .place.heads text").first
        ink = text.evaluate("t => getComputedStyle(t).fill")
        coin = page.locator("svg.devil-table .place.heads circle").first.evaluate("c => getComputedStyle(c).fill")
        light, dark = sorted((_luminance(ink), _luminance(coin)), reverse=True)
        assert (light + 0.05) / (dark + 0.05) >= 4.5, (theme, ink, coin)
        context.close()


def test_a_double_click_makes_one_move(browser: Browser, live_server: str) -> None:
    """A double-click on Flip against the random Devil makes one move. The second submit, sent before the new
    position replaced the form, was a second move from the old position, refused as "moved on" (a visitor's tour:
    2 tries in 3); the move's answer is held here until both clicks are in. And where the new position then fails
    to come (a 503), the form can be sent again."""
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    start_hidden(page, live_server, "/devil", {"n": "4", "devil": "random"})
    flips: list[str] = []
    page.on("request", lambda r: flips.append(r.method) if r.url.endswith("/devil/flip") else None)
    held: list[Route] = []
    page.route("**/devil/flip", lambda route: held.append(route))
    page.get_by_role("checkbox", name="Place 0", exact=True).check()
    with page.expect_request("**/devil/flip"):
        page.get_by_role("button", name="Flip").dblclick()
    held[0].continue_()
    expect(page.get_by_text("Moves so far: 1")).to_be_visible()
    assert flips == ["POST"] and len(held) == 1  # (htmx sends a second submit once the first is answered)
    page.unroute("**/devil/flip")
    expect(page.get_by_role("alert")).to_have_count(0)

    page.goto(f"{live_server}/devil/play?n=4&devil=adversarial")  # (its moves are in the URL)
    page.route(re.compile(r".*/devil/play\?.*moves=.*"), lambda route: route.fulfill(status=503, body="busy"))
    page.get_by_role("checkbox", name="Place 1", exact=True).check()
    page.get_by_role("button", name="Flip").click()  # moved, but the new position does not come
    expect(page.locator("#main form.flip")).to_have_count(1)
    expect(page.locator("#main form.flip[data-sent]")).to_have_count(0)
    page.unroute(re.compile(r".*/devil/play\?.*moves=.*"))
    page.get_by_role("button", name="Flip").click()
    expect(page.get_by_text("Moves so far: 1")).to_be_visible()
    page.context.close()

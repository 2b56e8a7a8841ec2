"""Mastermind and the plan navigator in a real browser."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from tests.e2e.axe_check import assert_accessible
from tests.e2e.test_layout_e2e import SHOTS

COLOUR = {k: f"colour {v}" for k, v in zip("ABCDEF", ("red", "blue", "green", "yellow", "white", "black"), strict=True)}


def won(page: Page) -> bool:
    """Whether the page says You win, read once it has settled: it shows either the win or an empty guess row (a
    condition Playwright waits for, so the answer never comes from a page still being swapped)."""
    win = page.get_by_role("status").filter(has_text="You win")
    expect(win.or_(page.locator(".guess-row .peg.empty").first)).to_be_visible()
    return win.is_visible()


def test_win_against_the_adversary_with_hints(page: Page, live_server: str) -> None:
    """Take the knuth suggestion each turn, clicking colours into the row, and win against the adversarial code
    maker (2 pegs, 3 colours); the scores are drawn as key pegs."""
    page.goto(f"{live_server}/codebreak/play?game=mastermind&maker=adversarial&pegs=2&colours=3")
    for k in range(1, 7):
        page.get_by_role("link", name="Show the solver's suggestions").click()
        suggestion = page.locator("ul.note li").first
        expect(suggestion).to_be_visible()
        code = suggestion.locator("button.suggestion").get_attribute("data-code") or ""
        for letter in code:
            page.get_by_role("button", name=COLOUR[letter], exact=True).click()
        expect(page.locator(".guess-row .peg.empty")).to_have_count(0)
        page.get_by_role("button", name="Guess", exact=True).click()
        expect(page.locator("table.moves tbody tr .keys").nth(k - 1)).to_be_visible()
        expect(page.locator("table.moves tbody tr")).to_have_count(k)
        if won(page):
            break
    expect(page.get_by_role("status").filter(has_text="You win")).to_be_visible()


def test_keyboard_only_game_to_the_end(page: Page, live_server: str) -> None:
    """Mastermind with the keyboard alone: Tab to a colour, Enter to place it, the guess goes by Enter on Guess;
    against the adversary (2 pegs, 2 colours) every code is tried in turn until the game is won."""
    page.goto(f"{live_server}/codebreak/play?game=mastermind&maker=adversarial&pegs=2&colours=2")
    for code in ("AA", "AB", "BA", "BB"):
        if won(page):
            break
        for letter in code:
            button = page.get_by_role("button", name=COLOUR[letter], exact=True)
            button.focus()
            page.keyboard.press("Enter")
        expect(
            page.get_by_role("button", name="Guess", exact=True)
        ).to_be_focused()  # focus moved there when the row filled
        page.keyboard.press("Enter")
        page.wait_for_load_state()
        if not won(page):
            # once the new page has settled, Guess is disabled (an empty row sends nothing) and focus is on the first
            # colour: only then is the next key a keyboard player's next key (one pressed while it settles could go
            # either way)
            expect(page.get_by_role("button", name="Guess", exact=True)).to_be_disabled()
            expect(page.get_by_role("button", name=COLOUR["A"], exact=True)).to_be_focused()
    expect(page.get_by_role("status").filter(has_text="You win")).to_be_visible()


def test_navigate_knuths_tree_to_a_leaf(page: Page, live_server: str) -> None:
    """Enter feedback into Knuth's plan until it names the code."""
    page.goto(f"{live_server}/codebreak/plan?game=mastermind&strategy=knuth")
    verdict = page.locator("p[role=status]")  # the page's own status, not the "Working..." indicator of a request
    for _ in range(6):
        if not verdict.inner_text().startswith("Next:"):
            break
        before = verdict.inner_text()
        page.locator("p", has_text="Possible here:").get_by_role("link").last.click()
        expect(verdict).not_to_have_text(before)  # the next node has settled before it is read
    expect(verdict).to_contain_text("Solved")


def test_accessibility(page: Page, live_server: str) -> None:
    """No serious axe violations."""
    assert_accessible(
        page,
        live_server,
        [
            "/codebreak",
            "/codebreak/game?game=mastermind&pegs=3&colours=4",  # heuristics and "a long search" rows, quickly
            "/codebreak/play?maker=adversarial&g=AABB&hint=1",
            "/codebreak/plan?game=mastermind&strategy=knuth",
            "/codebreak/optima",
        ],
    )


def test_optima_table_and_chart(page: Page, live_server: str) -> None:
    """Once the small sizes are proved (here by the API, as the precomputation does), the optima page shows
    them as rows and as points of the chart, and a size opens its optimal plan."""
    for pegs, colours in ((2, 2), (2, 3), (3, 2), (2, 4)):
        for strategy in ("optimal-average", "optimal-worst"):
            page.request.get(
                f"{live_server}/api/codebreak?game=mastermind&pegs={pegs}&colours={colours}&strategy={strategy}"
            )
    page.request.get(f"{live_server}/api/codebreak?game=mastermind&pegs=4&colours=5&strategy=optimal-average")
    page.goto(f"{live_server}/codebreak/optima")
    # each size proved here is a point (other tests of the run, sharing its result store, may have proved more)
    for size in ("2x2", "2x3", "3x2", "2x4"):
        expect(page.locator("figure.chart circle title").filter(has_text=f"{size}: ")).to_have_count(1)
    # 4x5's certificate is kept: its row links to the file
    row = page.locator("tbody tr").filter(has=page.get_by_role("link", name="4 × 5", exact=True))
    expect(row.get_by_role("link", name="certificate")).to_have_attribute(
        "href", "/codebreak/optima/certificates/mastermind-4x5.npz"
    )
    shots = Path(__file__).resolve().parents[2] / "screenshots"
    shots.mkdir(exist_ok=True)
    page.screenshot(path=str(shots / "codebreak-optima.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 800})  # a phone: the chart spans the window, labels legible
    label = page.locator("figure.chart text.axis").first.bounding_box()
    assert label is not None and label["height"] >= 9, label
    page.screenshot(path=str(shots / "codebreak-optima-390.png"), full_page=True)
    page.locator("figure.chart").screenshot(path=str(shots / "codebreak-optima-chart-390.png"))
    page.set_viewport_size({"width": 1280, "height": 800})
    page.get_by_role("link", name="2 × 3").click()
    # the plan's page computes its proof in the request's job under test (immediate mode): allow a loaded machine
    expect(page.locator("h1")).to_contain_text("Mastermind", timeout=30_000)


def test_the_guess_row_sends_only_what_was_entered(page: Page, live_server: str) -> None:
    """An empty or part-filled row cannot be sent (Guess disabled, the reason beside it); after CDEF and the clear
    button the hidden selects are empty again, so nothing the player removed is sent; Backspace empties one peg."""
    page.goto(f"{live_server}/codebreak/play?game=mastermind&maker=adversarial")
    guess = page.get_by_role("button", name="Guess", exact=True)
    expect(guess).to_be_disabled()
    expect(page.locator("#guess-why")).to_have_text("Choose 4 more colours to guess.")
    for letter in "CDEF":
        page.get_by_role("button", name=COLOUR[letter], exact=True).click()
    expect(guess).to_be_enabled()
    assert page.eval_on_selector_all(".guess-selects select", "els => els.map(e => e.value).join('')") == "CDEF"
    page.get_by_role("button", name="Clear the guess").click()
    expect(guess).to_be_disabled()
    assert page.eval_on_selector_all(".guess-selects select", "els => els.map(e => e.value).join('')") == ""
    page.get_by_role("button", name=COLOUR["C"], exact=True).click()
    page.get_by_role("button", name=COLOUR["C"], exact=True).press("Backspace")
    expect(page.locator(".guess-row .peg.empty")).to_have_count(4)
    expect(page.locator("#guess-why")).to_have_text("Choose 4 more colours to guess.")
    page.screenshot(path="test-results/guess-row-empty.png")


def test_typing_and_suggestions_fill_the_guess_row(page: Page, live_server: str) -> None:
    """Letters type colours (lower case too), Backspace takes one back, Enter guesses a full row; a clicked
    suggestion enters its code; Bulls and Cows types digits and shows them."""
    page.goto(f"{live_server}/codebreak/play?game=mastermind&maker=adversarial")
    row = page.locator(".guess-row .peg")
    page.keyboard.type("abcd")
    expect(row).to_have_text(["A", "B", "C", "D"])
    page.keyboard.press("Backspace")
    expect(page.locator(".guess-row .peg.empty")).to_have_count(1)
    page.keyboard.type("E")
    page.keyboard.press("Enter")
    expect(page.get_by_text("Guesses and scores")).to_be_visible()
    expect(page.locator("table.moves tbody tr")).to_have_count(1)
    expect(page.locator("table.moves tbody .code")).to_have_text("ABCE")
    page.get_by_role("link", name="Show the solver's suggestions").click()
    first = page.locator("button.suggestion").first
    code = first.get_attribute("data-code")
    assert code
    first.click()
    expect(row).to_have_text(list(code))
    expect(page.get_by_role("button", name="Guess", exact=True)).to_be_focused()
    page.screenshot(path=str(SHOTS / "codebreak-suggestions.png"), full_page=True)
    page.goto(f"{live_server}/codebreak/play?game=bulls-and-cows&maker=adversarial")
    page.keyboard.type("0123")
    expect(row).to_have_text(["0", "1", "2", "3"])
    assert page.eval_on_selector_all(".guess-selects select", "els => els.map(e => e.value).join('')") == "ABCD"
    page.keyboard.press("Enter")
    expect(page.locator("table.moves tbody .score-text")).to_contain_text("bull")
    page.screenshot(path=str(SHOTS / "bulls-and-cows-play.png"), full_page=True)


def test_the_game_page_opens_with_play(page: Page, live_server: str) -> None:
    """On a phone the game page's Start button is in the first screen; the definition file is folded away."""
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(f"{live_server}/codebreak/game?game=mastermind")
    start = page.get_by_role("button", name="Start")
    assert start.bounding_box()["y"] < 800  # type: ignore[index]
    expect(page.locator("pre.gamefile")).to_be_hidden()
    start.click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("adversarial code maker")

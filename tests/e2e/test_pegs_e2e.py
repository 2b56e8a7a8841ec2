"""The peg board in a real browser."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from solvers.pegs import board, exact
from tests.e2e.axe_check import assert_accessible


def landed(label: str) -> re.Pattern[str]:
    """The name of the coin that just landed: selected when it can jump again."""
    return re.compile(rf"^Coin on {label}( \(selected\))?$")


def test_solve_10_holes_in_fewest_moves_by_clicking(page: Page, live_server: str) -> None:
    """Click coin then target for each jump of a fewest-move solution; 5 moves; Back and reload."""
    b = board("triangle-4")
    solution = exact("triangle-4").solution(b.start("2"))
    page.goto(f"{live_server}/pegs/play?board=triangle-4&hole=2")
    page.get_by_role("link", name="Hint").click()
    expect(page.locator(".fewest-here")).to_have_text("5")
    for move in solution:
        for k, (f, t) in enumerate(zip(move, move[1:], strict=False)):
            if k == 0:  # later jumps of a chain: the coin that landed is still selected (one click a jump)
                page.get_by_role("link", name=f"Coin on {b.labels[f]}", exact=True).click()
            page.get_by_role("link", name=f"Jump to {b.labels[t]}", exact=True).click()
            # only the new board has a coin on t: the next click is not made on the old board
            expect(page.get_by_role("link", name=landed(b.labels[t]))).to_be_visible()
    expect(page.get_by_role("status").filter(has_text="Solved")).to_contain_text("in 5 moves")
    page.go_back()
    page.wait_for_load_state()
    expect(page.get_by_text("Coins left: 2")).to_be_visible()
    page.reload()
    expect(page.get_by_text("Coins left: 2")).to_be_visible()


def test_dead_position_reported(page: Page, live_server: str) -> None:
    """Jumping into a dead end is reported."""
    page.goto(f"{live_server}/pegs/play?board=triangle-4&hole=2&j=7-2,1-4,6-1,4-6,9-7,10-3,1-6")
    expect(page.get_by_role("status").filter(has_text="Dead end")).to_be_visible()


def test_accessibility(page: Page, live_server: str) -> None:
    """No serious axe violations."""
    assert_accessible(
        page,
        live_server,
        [
            "/pegs",
            "/pegs/play?board=triangle-5&hole=1&sel=4&hint=1",
            "/pegs/table?board=triangle-5",
            "/pegs/solution?board=triangle-4&hole=2&step=1",
        ],
    )


def focused_label(page: Page) -> str:
    """The accessible name of the focused element."""
    return str(page.evaluate("document.activeElement && document.activeElement.getAttribute('aria-label')"))


def press_until(page: Page, key: str, label: str, limit: int = 60) -> None:
    """Press a key until the element named label has the focus."""
    for _ in range(limit):
        if focused_label(page) == label:
            return
        page.keyboard.press(key)
    raise AssertionError(f"{label!r} never got the focus with {key}")


def test_keyboard_only_game_to_the_end(page: Page, live_server: str) -> None:
    """A fewest-move solution of the 10-hole board played with the keyboard alone: Tab to a coin, Enter selects
    it and the board is swapped in place with the focus kept on that coin, the arrow keys or Tab reach the
    target, Enter jumps and the focus lands on the coin where it landed."""
    b = board("triangle-4")
    solution = exact("triangle-4").solution(b.start("2"))
    page.goto(f"{live_server}/pegs/play?board=triangle-4&hole=2")
    page.keyboard.press("Tab")
    for move in solution:
        for k, (f, t) in enumerate(zip(move, move[1:], strict=False)):
            # each wait names an element only the new board has, so the next key is pressed once the swap has
            # settled (a key pressed on the old board, while the request is in flight, could go either way)
            if k == 0:  # later jumps of a chain: the coin that landed is still selected
                press_until(page, "Tab", f"Coin on {b.labels[f]}")
                page.keyboard.press("Enter")
            expect(page.get_by_role("link", name=f"Coin on {b.labels[f]} (selected)", exact=True)).to_be_focused()
            press_until(page, "Tab" if t > f else "Shift+Tab", f"Jump to {b.labels[t]}")
            page.keyboard.press("Enter")
            expect(page.get_by_role("link", name=landed(b.labels[t]))).to_be_focused()
    expect(page.get_by_role("status").filter(has_text="Solved")).to_contain_text("in 5 moves")


def test_arrow_keys_move_between_holes(page: Page, live_server: str) -> None:
    """On the board, the arrow keys move the focus to the nearest coin in that direction."""
    page.goto(f"{live_server}/pegs/play?board=triangle-4&hole=2")
    page.get_by_role("link", name="Coin on 4", exact=True).focus()
    page.keyboard.press("ArrowRight")
    expect(page.get_by_role("link", name="Coin on 5", exact=True)).to_be_focused()
    page.keyboard.press("ArrowDown")
    expect(page.locator("svg.pegboard a:focus")).to_have_attribute("data-hole", "8")


def test_choosing_a_coin_needs_no_request_and_a_move_is_one(page: Page, live_server: str) -> None:
    """A click on a coin shows its targets at once with no request (the address follows, so a reload keeps the
    choice); choosing another coin moves the targets; a click on a target is one request, the jump made. The
    page's console holds no error (a Content-Security-Policy violation would be one)."""
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{live_server}/pegs/play?board=english&hole=d4&finish=d4")
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/pegs/" in r.url else None)
    page.get_by_role("link", name="Coin on d2", exact=True).click()
    expect(page.get_by_role("link", name="Jump to d4", exact=True)).to_be_visible()
    expect(page.get_by_role("link", name="Coin on d2 (selected)")).to_be_visible()
    assert "sel=d2" in page.url
    page.get_by_role("link", name="Coin on f4", exact=True).click()
    expect(page.get_by_role("link", name="Jump to d4", exact=True)).to_have_count(1)
    expect(page.get_by_role("link", name="Coin on d2", exact=True)).to_be_visible()  # no longer selected
    assert asked == []  # two choices, no request
    page.get_by_role("link", name="Jump to d4", exact=True).click()
    expect(page.get_by_text("Coins left: 31")).to_be_visible()
    assert len(asked) == 1 and "moves=" in asked[0]
    page.reload()
    expect(page.get_by_text("Coins left: 31")).to_be_visible()
    assert errors == []

"""What a first-time visitor ran into, each walked through in a real browser: a bookmarked random game that lost its
token, the Devil's solution and the way back, a wrong coin named against the adversary, Bulls and Cows addresses
after a guess, the Æquitas preset with the computer first, and the two-pan balance's beam."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.e2e.test_layout_e2e import SHOTS


def test_a_random_game_link_without_its_token_starts_a_new_game(page: Page, live_server: str) -> None:
    """The page offers Start; pressing it opens a game with a sealed token and the link's sizes."""
    page.goto(f"{live_server}/codebreak/play?game=mastermind&maker=random&pegs=3&colours=5")
    expect(page.get_by_role("alert")).to_contain_text("This link holds no game")
    page.get_by_role("button", name="Start").click()
    expect(page).to_have_url(re.compile(r"maker=random.*t=[^&]+"))
    assert "pegs=3" in page.url and "colours=5" in page.url
    expect(page.get_by_role("button", name="Guess", exact=True)).to_be_visible()


def test_the_devils_solution_leads_back_and_counts_as_a_hint(page: Page, live_server: str) -> None:
    """Mid-game, Show the solution, a step on, then Back to the game: the same position, one hint counted."""
    page.goto(f"{live_server}/devil/play?n=4&devil=adversarial&moves=1")
    page.get_by_role("link", name="Show the solution").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("move 2 of 16")
    page.get_by_role("link", name="Next", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("move 3 of 16")  # each page in before the next click
    page.get_by_role("link", name="Back to the game").click()
    expect(page.get_by_text("Hints: 1")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/devil/play\?.*moves=1"))


def test_a_ruled_out_coin_is_called_wrong(page: Page, live_server: str) -> None:
    """Three coins, two weighings that leave one case; naming that coin with the other weight says it is wrong."""
    base = f"{live_server}/adversary/play?n=3&weight=unknown&goal=identify&extra=0&maybe_none=0&budget=2"
    for weight in ("h", "l"):
        page.goto(f"{base}&mode=adversary&moves=1-2;3-1&guess=3{weight}")
        verdict = page.locator("p.verdict")
        expect(verdict).to_contain_text(re.compile(r"^\s*(Proved: coin 3|Wrong: you named coin 3 \w+; it is \w+\.)"))
        expect(verdict).not_to_contain_text("Not proved")


def test_bulls_and_cows_keeps_digits_in_its_address_after_a_guess(page: Page, live_server: str) -> None:
    """A guess typed as digits leaves digits in the address, as the game ID shows them."""
    page.goto(f"{live_server}/codebreak/play?game=bulls-and-cows&maker=adversarial")
    for digit in "0123":
        page.keyboard.press(digit)
    page.get_by_role("button", name="Guess", exact=True).click()
    expect(page).to_have_url(re.compile(r"moves=0123"))
    expect(page.get_by_text("bulls-and-cows:4x10:0123").first).to_be_attached()


def test_the_aequitas_preset_with_the_computer_first_is_playable(page: Page, live_server: str) -> None:
    """The preset opens on the position after the computer's weighing, with the controls to answer it."""
    page.goto(f"{live_server}/aequitas")
    page.get_by_role("link", name="FI: 8 coins, the computer first").click()
    expect(page.get_by_role("button", name="Weigh", exact=True)).to_be_visible()
    expect(page).to_have_url(re.compile(r"moves=\d"))


def test_the_two_pan_balance_tilts(page: Page, live_server: str) -> None:
    """After a weighing that tips, the beam is drawn rotated (and the screenshot shows it)."""
    page.goto(f"{live_server}/variants/play?n=5&weight=heavier&lies=1&moves=1,2-3,4")
    beam = page.locator("#main svg.scale g.beam").first
    expect(beam).to_have_attribute("transform", re.compile(r"rotate\((-?13\.5|0) "))
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#main svg.scale").first.screenshot(path=str(SHOTS / "variants-balance-tilted.png"))

"""Playing the weighing games, the plan navigator, the Devil's game and Æquitas as in the best puzzle collections,
at a phone's and a desktop's width: undo and redo by keys, a game ID typed in, hints and their figures, the win
screen and its share link and statistics, and the take-backs of the games with a hidden secret."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.test_adversary_e2e import place as place_coins
from tests.e2e.test_codebreak_e2e import won
from tests.e2e.test_play_e2e import DESKTOP, PHONE, axe_both_themes, enter_id, expect_win, guess, share_and_qr, walk


@pytest.mark.parametrize("width", DESKTOP)
def test_adversary_undo_redo_and_id(browser: Browser, live_server: str, width: int) -> None:
    """Weigh against the adversarial scale, take both weighings back by keys and make them again; the ID opens the
    same game."""
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    page.goto(f"{live_server}/adversary/play?n=12&w=1..4-5..8;9..11-1..3")
    expect(page.get_by_role("heading", level=1)).to_have_text("Weighing 3 of 3")
    walk(
        page,
        [
            ("u", "Weighing 2 of 3"),
            ("Control+z", "Weighing 1 of 3"),
            ("r", "Weighing 2 of 3"),
            ("Control+y", "Weighing 3 of 3"),
        ],
    )
    page.get_by_text("Game ID and sharing").click()
    game_id = page.locator(".game-id").inner_text()
    assert game_id == "12-unknown-identify-0-0:3:1..4-5..8;9..11-1..3"
    enter_id(page, f"{live_server}/adversary/play?n=12", game_id)
    expect(page.get_by_role("heading", level=1)).to_have_text("Weighing 3 of 3")
    page.context.close()


@pytest.mark.parametrize("width", PHONE)
def test_adversary_hint_figure_win_screen_share_and_statistics(browser: Browser, live_server: str, width: int) -> None:
    """Three coins against the adversarial scale: the first weighing's figures are the brute force's (the most cases
    one reading leaves, and the fewest any weighing can leave); two weighings and the coin named give the win
    screen (2 weighings, the fewest that surely suffice: 3^1 < 6 cases); the statistics survive a reload; the
    share link and its QR code open the same finished game."""
    from solvers.weighing import Problem
    from solvers.weighing.adversary import cases_of, replay
    from solvers.weighing.knowledge import parse_weighings
    from tests.unit.test_weighing_lesson import brute_worst, every_weighing

    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    page.goto(f"{live_server}/adversary/play?n=3&budget=2")
    place_coins(page, (1,), (2,))
    start = [(c.coin, c.heavier) for c in cases_of(replay(Problem(3), 2, ()).coins)]
    worst, best = brute_worst(start, {1}, {2}), min(brute_worst(start, a, b) for a, b in every_weighing(3))
    expect(page.locator(".weighing-lesson")).to_contain_text(
        f"could leave up to {worst} of the {len(start)} cases; the most balanced weighing here leaves at most {best}"
    )
    place_coins(page, (1,), (3,))
    expect(page.get_by_role("heading", level=1)).to_have_text("Name the coin")
    (answer,) = cases_of(replay(Problem(3), 2, parse_weighings(page.url.split("moves=")[1].split("&")[0])).coins)
    page.get_by_label("The counterfeit is").select_option(str(answer.coin))
    page.get_by_label("heavier" if answer.heavier else "lighter", exact=True).check()
    page.get_by_role("button", name="Name it").click()
    win = expect_win(page, "You found the coin!", 2, 2)
    expect(win.locator(".stats-line")).to_contain_text("played 1, won 1, best 2")
    page.reload()
    expect(page.locator("section.win .stats-line")).to_contain_text("played 1, won 1, best 2")
    share = share_and_qr(page, live_server)
    page.goto(live_server + share)
    expect(page.locator("section.win .score")).to_have_text("2")
    axe_both_themes(page, "adversary-win", width)
    page.context.close()


@pytest.mark.parametrize("width", PHONE)
def test_plan_navigator_undo_redo_and_id(browser: Browser, live_server: str, width: int) -> None:
    """Follow two outcomes of the 12-coin plan, take them back by keys and redo them, undo and redo a restart; the
    node's ID opens it; the root's figures for what its weighing can leave."""
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    page.goto(f"{live_server}/coins/plan?n=12")
    # four against four (Dyson 1946): at most 8 of the 24 cases after any reading, and no weighing does better
    expect(page.locator(".weighing-lesson")).to_have_text(
        "The plan's weighing can leave up to 8 of the 24 cases; the most balanced weighing here leaves at most 8"
        " (it is one)."
    )
    page.get_by_role("button", name="Left heavier", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Weighing 2")
    page.get_by_role("button", name="Balance", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Weighing 3")
    walk(
        page, [("u", "Weighing 2"), ("Control+z", "Weighing 1"), ("r", "Weighing 2"), ("Control+Shift+Z", "Weighing 3")]
    )
    page.get_by_role("link", name="Restart", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Weighing 1")
    walk(page, [("u", "Weighing 3"), ("r", "Weighing 1"), ("u", "Weighing 3")])  # the restart undone and redone
    page.get_by_text("Game ID and sharing").click()
    assert page.locator(".game-id").text_content() == "12-unknown-identify-0-0:worst:LB"
    enter_id(page, f"{live_server}/coins/plan?n=12", "12-unknown-identify-0-0:worst:LB")
    expect(page.get_by_role("heading", level=1)).to_have_text("Weighing 3")
    page.goto(live_server + share_and_qr(page, live_server))
    expect(page.get_by_role("heading", level=1)).to_have_text("Weighing 3")
    assert page.locator(".game-id").text_content() == "12-unknown-identify-0-0:worst:LB"
    axe_both_themes(page, "coins-node", width)
    page.context.close()


@pytest.mark.parametrize("width", PHONE)
def test_devil_undo_redo_id_and_win_screen(browser: Browser, live_server: str, width: int) -> None:
    """Against the adversarial Devil (4 coins): two moves of the proved shortest win, taken back by keys to the
    start and made again; the ID opens the same position; the rest of the win shows the win screen with the proved
    fewest moves (the solver's shortest sure win, checked by its own exhaustive verification) and the statistics."""
    from solvers.devil import DevilVariant, positions, solve
    from tests.e2e.test_devil_e2e import play_solution
    from tests.unit.test_devil_lesson import brute as devil_brute
    from tests.unit.test_devil_lesson import flips

    v = DevilVariant(4)
    moves = solve(v).moves
    assert moves is not None
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    page.goto(f"{live_server}/devil/play?n=4")
    for k, a in enumerate(moves[:2], 1):
        for place in positions(v, a):
            page.get_by_role("checkbox", name=f"Place {place}", exact=True).check()
        page.get_by_role("button", name="Flip").click()
        expect(page.get_by_text(f"Moves so far: {k}")).to_be_visible()
    fewest, step, start = devil_brute(4, "all-heads")
    after = step(step(start, flips(4, moves[0])), flips(4, moves[1]))
    expect(page.locator(".devil-lesson .fewest-here")).to_have_text(str(fewest(after)))  # the brute force's
    expect(page.locator(".devil-lesson")).to_contain_text("Your last move was a best one.")
    for key, count in (("u", 1), ("Control+z", 0), ("r", 1), ("Control+y", 2)):  # to the start and back
        page.keyboard.press(key)
        expect(page.get_by_text(f"Moves so far: {count}")).to_be_visible()
    page.get_by_role("link", name="Restart").click()
    expect(page.get_by_role("status").filter(has_text="first move")).to_be_visible()
    page.keyboard.press("Control+z")
    expect(page.get_by_text("Moves so far: 2")).to_be_visible()
    page.get_by_text("Game ID and sharing").click()
    game_id = page.locator(".game-id").inner_text()
    enter_id(page, f"{live_server}/devil/play?n=8", game_id)
    expect(page.get_by_text("Moves so far: 2")).to_be_visible()
    page.goto(f"{live_server}/devil/play?n=4")
    play_solution(page, 4)
    win = page.locator("section.win")
    expect(win.locator(".score")).to_have_text(str(len(moves)))
    expect(win.locator(".against")).to_have_text("optimal")
    expect(win.locator(".stats-line")).to_contain_text(f"played 1, won 1, best {len(moves)}")
    page.reload()
    expect(page.locator("section.win .stats-line")).to_contain_text(f"played 1, won 1, best {len(moves)}")
    page.goto(live_server + share_and_qr(page, live_server))
    expect(page.locator("section.win .score")).to_have_text(str(len(moves)))
    axe_both_themes(page, "devil-win", width)
    page.context.close()


AEQUITAS = "/aequitas/play?game=F&n=5&extra=0&light=0&fake=1&heavier=1&conv=normal&first=you"


@pytest.mark.parametrize("width", DESKTOP)
def test_aequitas_undo_redo_id_grundy_step_and_end(browser: Browser, live_server: str, width: int) -> None:
    """Undo takes back a whole turn (your weighing and the computer's reply) and redo makes it again, by keys; the
    ID opens the same position; the Grundy values before and after your weighing are the solver's (its values are
    checked against the paper's closed forms in tests/unit)."""
    from solvers.aequitas.match import Match
    from solvers.aequitas.report import play_view
    from solvers.weighing.knowledge import parse_weighings

    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    page.goto(f"{live_server}{AEQUITAS}&w=1-2;2-3")
    m = Match("F", 5, False, 0, 1, True, "normal", "you")
    ws = parse_weighings("1-2;2-3")
    before, after = play_view(m, ws[:0], False).value, play_view(m, ws[:1], False).value
    expect(page.locator(".grundy-step")).to_contain_text(f"Grundy value {before} before it, {after} after it")
    page.keyboard.press("u")
    expect(page.locator(".grundy-step")).to_have_count(0)
    expect(page).to_have_url(re.compile(r"turns=1-2(%3B|;)2-3&at=0"))
    page.keyboard.press("r")
    expect(page.locator(".grundy-step")).to_contain_text(f"Grundy value {before} before it")
    page.get_by_role("link", name="Restart", exact=True).click()  # a restart, undone like a turn
    expect(page.locator(".grundy-step")).to_have_count(0)
    expect(page.get_by_role("heading", name="Weighings so far")).to_have_count(0)
    page.keyboard.press("Control+z")
    expect(page.locator(".grundy-step")).to_contain_text(f"Grundy value {before} before it, {after} after it")
    page.keyboard.press("Control+Shift+Z")
    expect(page.locator(".grundy-step")).to_have_count(0)
    page.keyboard.press("u")
    expect(page.locator(".gamebar .used")).to_contain_text("Take-backs: 3")
    page.get_by_text("Game ID and sharing").click()
    game_id = page.locator(".game-id").inner_text()
    assert game_id == "F:5:0:0:1:1:normal:you:1-2;2-3"
    enter_id(page, f"{live_server}/aequitas/play?game=F&n=6", game_id)
    expect(page.locator(".grundy-step")).to_contain_text(f"Grundy value {before} before it, {after} after it")
    end = page.locator("section.win")
    expect(end.get_by_role("heading", name="Result: the computer won")).to_be_visible()
    start_value = play_view(m, m.advance(()), False).value
    expect(end.locator(".optimum")).to_have_text(
        f"you {'could force a win' if start_value else 'could not force a win against best play'} from your first"
        f" turn (Grundy value {start_value})"
    )
    expect(end.locator(".score")).to_have_text("1")
    expect(end.locator(".stats-line")).to_contain_text("played 1, won 0")
    page.reload()
    expect(page.locator("section.win .stats-line")).to_contain_text("played 1, won 0")
    page.goto(live_server + share_and_qr(page, live_server))
    expect(page.locator("section.win .score")).to_have_text("1")
    axe_both_themes(page, "aequitas", width)
    page.context.close()


@pytest.mark.parametrize("width", DESKTOP)
def test_random_code_maker_take_back_by_key(browser: Browser, live_server: str, width: int) -> None:
    """Against the random code maker (a sealed secret), u takes the last guess back: the table empties, the guess
    is listed as taken back with its score, and Back leads to a position that can no longer be played."""
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    for _ in range(6):  # a new game while the random code is the guess itself (1 in 27; six in a row: 1 in 4e8)
        page.goto(f"{live_server}/codebreak")
        csrf = page.locator("input[name=csrf_token]").first.get_attribute("value")
        r = page.request.post(
            f"{live_server}/codebreak/start",
            form={"csrf_token": csrf or "", "game": "mastermind", "maker": "random", "pegs": "3", "colours": "3"},
            max_redirects=0,
        )
        page.goto(live_server + r.headers["location"])
        guess(page, "AAB", 1)
        if not won(page):
            break
    expect(page.locator("#main [data-key=undo]")).to_be_attached()  # the take-back the key presses
    page.keyboard.press("u")
    expect(page.locator("table.moves tbody tr")).to_have_count(0)
    expect(page.locator(".taken-back")).to_contain_text("Taken back (1): AAB scored")
    expect(page).to_have_url(re.compile("undo"))  # htmx pushes the address after the swap
    page.go_back()
    expect(page.get_by_role("status").filter(has_text="moved on")).to_be_visible()
    page.context.close()


def start_hidden(page: Page, live_server: str, setup: str, form: dict[str, str]) -> None:
    """Start a game with a hidden secret by posting its set-up form, and open its first position."""
    page.goto(f"{live_server}{setup}")
    csrf = page.locator("input[name=csrf_token]").first.get_attribute("value")
    r = page.request.post(f"{live_server}{setup}", form={"csrf_token": csrf or "", **form}, max_redirects=0)
    page.goto(live_server + r.headers["location"])


@pytest.mark.parametrize("width", DESKTOP)
def test_honest_scale_and_random_devil_take_back_by_key(browser: Browser, live_server: str, width: int) -> None:
    """The two other sealed games: u takes the last weighing (honest scale) or move (random Devil) back, the page
    lists it as taken back, and Back leads to a position that can no longer be played."""
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    start_hidden(page, live_server, "/adversary", {"n": "12", "mode": "honest"})
    place_coins(page, (1, 2, 3, 4), (5, 6, 7, 8))
    expect(page.get_by_role("heading", level=1)).to_have_text("Weighing 2 of 3")
    page.keyboard.press("u")
    expect(page.get_by_role("heading", level=1)).to_have_text("Weighing 1 of 3")
    expect(page.locator(".taken-back")).to_contain_text("Taken back (1): 1, 2, 3, 4 against 5, 6, 7, 8: ")
    axe_both_themes(page, "honest-take-back", width)
    expect(page).to_have_url(re.compile("undo"))
    page.go_back()
    expect(page.get_by_role("status").filter(has_text="moved on")).to_be_visible()

    for _ in range(20):  # a first move that does not win (1 start in 15 has its only tail where place 0 flips)
        start_hidden(page, live_server, "/devil", {"n": "4", "devil": "random"})
        page.get_by_role("checkbox", name="Place 0", exact=True).check()
        page.get_by_role("button", name="Flip").click()
        expect(page.get_by_text("Moves so far: 1")).to_be_visible()
        if page.get_by_text("The Devil is beaten!").count() == 0:
            break
    page.keyboard.press("Control+z")
    expect(page.get_by_text("Moves so far: 0")).to_be_visible()
    expect(page.locator(".taken-back")).to_contain_text("Taken back (1): flip 0.")
    axe_both_themes(page, "devil-take-back", width)
    expect(page).to_have_url(re.compile("undo"))
    page.go_back()
    expect(page.get_by_role("status").filter(has_text="moved on")).to_be_visible()
    page.context.close()

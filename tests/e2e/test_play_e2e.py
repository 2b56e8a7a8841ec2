"""Playing as in the best puzzle collections, at a phone's and a desktop's width: undo and redo by keys, undoing a
restart, a game ID typed in, the share link and its QR code, a hint's cost figure against a brute force, the win
screen and the statistics kept across reloads, axe in both themes (screenshots of both saved)."""

from __future__ import annotations

import io
import re
from functools import cache
from urllib.parse import parse_qs, urlsplit

import pytest
import segno
from playwright.sync_api import Browser, Locator, Page, expect

from solvers.pegs import board, exact
from solvers.pegs.rules import jumps_to_moves
from tests.e2e.axe_check import serious
from tests.e2e.test_layout_e2e import SHOTS
from tests.unit.test_pegs_lesson import INF, brute

# each game's flows once, half of them on a phone and half on a desktop (the keys' on a desktop): the flows do
# not depend on the width, and test_layout_e2e.py shows every page at both
PHONE, DESKTOP = [390], [1280]


def occupied(page: Page) -> list[str]:
    """The holes holding a coin, read from the board's picture."""
    title = page.locator("svg.pegboard title").text_content() or ""
    return sorted(title.split("coins on ", 1)[1].split(", "))


def jump(page: Page, f: str, t: str) -> None:
    """Click a coin (unless it is still selected: it just landed and can jump again), then its target, and wait
    for the new board."""
    if not page.get_by_role("link", name=f"Coin on {f} (selected)", exact=True).count():
        page.get_by_role("link", name=f"Coin on {f}", exact=True).click()
    page.get_by_role("link", name=f"Jump to {t}", exact=True).click()
    expect(page.get_by_role("link", name=re.compile(rf"^Coin on {t}( \(selected\))?$"))).to_be_visible()


def walk(page: Page, steps: list[tuple[str, str]]) -> None:
    """Press each key and wait for the page heading it should lead to."""
    for key, heading in steps:
        page.keyboard.press(key)
        expect(page.get_by_role("heading", level=1)).to_have_text(heading)


def enter_id(page: Page, url: str, game_id: str) -> None:
    """Open another game and type an ID into its "Enter a game ID" field."""
    page.goto(url)
    page.get_by_text("Game ID and sharing").click()
    page.get_by_label("Enter a game ID").fill(game_id)
    page.get_by_role("button", name="Open").click()


def expect_win(page: Page, title: str, score: int, optimum: int) -> Locator:
    """The win screen: its title, the score and the proved best, "optimal" when they are equal; the screen."""
    win = page.locator("section.win")
    expect(win.get_by_role("heading", name=title)).to_be_visible()
    expect(win.locator(".score")).to_have_text(str(score))
    expect(win.locator(".optimum")).to_have_text(str(optimum))
    if score == optimum:
        expect(win.locator(".against")).to_have_text("optimal")
    return win


def share_and_qr(page: Page, live_server: str) -> str:
    """Open "Game ID and sharing": the QR code shown is segno's code of the absolute share link (the same bytes);
    the share link, for the caller to open."""
    page.get_by_text("Game ID and sharing").click()
    share = page.get_by_role("link", name="Link to this game").get_attribute("href")
    qr = page.get_by_role("img", name="QR code of the link to this game")
    expect(qr).to_be_visible()
    expect(qr).to_have_js_property("complete", True)
    assert page.evaluate("document.querySelector('img.qr').naturalWidth") > 0
    src = qr.get_attribute("src")
    assert src is not None and share is not None
    assert parse_qs(urlsplit(src).query)["path"] == [share]
    expected = io.BytesIO()
    segno.make(live_server + share, error="m").save(
        expected,
        kind="svg",
        scale=4,
        border=4,
        xmldecl=False,
        title="QR code of this game's link",
        desc=live_server + share,
    )
    assert page.request.get(live_server + src).body() == expected.getvalue()
    return share


def axe_both_themes(page: Page, name: str, width: int) -> None:
    """No serious or critical axe violation in the light theme, and none of colour contrast in the dark one (the
    only rule a theme changes); a screenshot of each."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate(  # the win's cheer played out (not the busy spinner's endless turn)
        "Promise.all(document.getAnimations().filter(a => a.effect && a.effect.target"
        " && a.effect.target.closest('section.win')).map(a => a.finished))"
    )
    for theme in ("light", "dark"):
        page.emulate_media(color_scheme=theme)  # type: ignore[arg-type]
        page.screenshot(path=str(SHOTS / f"play-{name}-{width}-{theme}.png"), full_page=True)
        bad = serious(page, contrast_only=theme == "dark")  # the colours are all a theme changes
        assert not bad, (name, theme, bad)
    page.emulate_media(color_scheme="light")


@pytest.mark.parametrize("width", DESKTOP)
def test_peg_board_undo_redo_restart_by_keys(browser: Browser, live_server: str, width: int) -> None:
    """Two jumps; u and Ctrl+Z take both back (to the start), r and Ctrl+Y make them again; a restart is undone
    by u; Back still walks the pages; the take-backs are counted."""
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    page.goto(f"{live_server}/pegs/play?board=triangle-4&hole=2")
    start = occupied(page)
    jump(page, "7", "2")
    after_one = occupied(page)
    jump(page, "1", "4")
    after_two = occupied(page)
    page.keyboard.press("u")
    expect(page.get_by_text("Coins left: 8")).to_be_visible()
    assert occupied(page) == after_one
    page.keyboard.press("Control+z")
    expect(page.get_by_text("Coins left: 9")).to_be_visible()
    assert occupied(page) == start and "at=0" in page.url
    page.keyboard.press("r")
    expect(page.get_by_text("Coins left: 8")).to_be_visible()
    page.keyboard.press("Control+y")
    expect(page.get_by_text("Coins left: 7")).to_be_visible()
    assert occupied(page) == after_two
    expect(page.get_by_role("link", name="Redo")).to_have_count(0)  # nothing left to redo
    page.get_by_role("link", name="Restart").click()
    expect(page.get_by_text("Coins left: 9")).to_be_visible()
    page.keyboard.press("u")  # the restart undone
    expect(page.get_by_text("Coins left: 7")).to_be_visible()
    assert occupied(page) == after_two
    page.keyboard.press("Control+Shift+Z")  # redo: the restart again
    expect(page.get_by_text("Coins left: 9")).to_be_visible()
    expect(page.locator(".gamebar .used")).to_contain_text("Take-backs: 3")
    page.go_back()
    expect(page.get_by_text("Coins left: 7")).to_be_visible()
    page.context.close()


@pytest.mark.parametrize("width", PHONE)
def test_peg_board_game_id_share_link_and_qr(browser: Browser, live_server: str, width: int) -> None:
    """The ID shown recreates the position when typed into another game's ID field; the share link opens the
    same game; the QR code is the share link's own (segno's code of the same absolute URL)."""
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    page.goto(f"{live_server}/pegs/play?board=english&hole=d4&finish=d4")
    jump(page, "d2", "d4")
    jump(page, "f3", "d3")
    here = occupied(page)
    share = share_and_qr(page, live_server)
    game_id = page.locator(".game-id").inner_text()
    assert game_id == "english:d4>d4:d2-d4,f3-d3"
    enter_id(
        page, f"{live_server}/pegs/play?board=triangle-5&hole=1", game_id
    )  # another game: its ID field opens the first
    expect(page.get_by_role("heading", name="English board, started without d4")).to_be_visible()
    assert occupied(page) == here
    page.goto(live_server + share)
    assert occupied(page) == here
    page.goto(f"{live_server}/pegs/id?id=english:d4:d4-d2")  # a bad ID: the message, a 400
    expect(page.get_by_text("d4 cannot jump")).to_be_visible()
    page.context.close()


@pytest.mark.parametrize("width", PHONE)
def test_peg_board_hint_cost_win_screen_and_statistics(browser: Browser, live_server: str, width: int) -> None:
    """A poor jump, then Hint: its cost and the fewest moves from here match the brute force; undo it and play a
    fewest-moves solution: the win screen shows 5 moves, optimal, the take-back and the hint; the statistics count
    the game once across a reload, keep it on another page and can be cleared; axe in both themes."""
    b = board("triangle-4")
    truth = brute("triangle-4", None)
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    page.goto(f"{live_server}/pegs/play?board=triangle-4&hole=2")
    solution = exact("triangle-4").solution(b.start("2"))
    first = solution[0]
    jump(page, b.labels[first[0]], b.labels[first[1]])
    # a second jump that is not the solution's: the brute force says what it costs
    poor = next(j for j in jumps_from(page, b) if truth_cost(b, truth, [(first[0], first[1])], j) > 0)
    jump(page, b.labels[poor[0]], b.labels[poor[1]])
    page.get_by_role("link", name="Hint").click()
    cost = truth_cost(b, truth, [(first[0], first[1])], poor)
    expect(page.locator(".last-cost")).to_contain_text(f"Your last jump cost {cost} move")
    axe_both_themes(page, "pegs-hint", width)
    page.keyboard.press("u")
    expect(page.locator(".last-cost")).to_have_count(0)
    rest = [first[1:], *solution[1:]]  # the first move's other jumps, then the other moves
    for move in rest:
        for f, t in zip(move, move[1:], strict=False):
            jump(page, b.labels[f], b.labels[t])
    win = expect_win(page, "Solved!", 5, 5)
    expect(win.locator(".take-backs")).to_have_text("1")
    expect(win.locator(".hints")).to_have_text("1")
    expect(win.locator(".stats-line")).to_contain_text("played 1, won 1, best 5")
    axe_both_themes(page, "pegs-win", width)
    page.reload()
    expect(page.locator("section.win .stats-line")).to_contain_text("played 1, won 1, best 5")
    page.goto(f"{live_server}/pegs/play?board=triangle-4&hole=2")
    expect(page.locator(".stats-line")).to_contain_text("played 1, won 1, best 5")
    page.get_by_role("button", name="Clear these statistics").click()
    expect(page.locator(".stats-line")).to_contain_text("No finished games")
    page.reload()
    expect(page.locator(".stats-line")).to_contain_text("No finished games")
    page.context.close()


def jumps_from(page: Page, b) -> list[tuple[int, int]]:  # type: ignore[no-untyped-def]
    """The jumps the page lists as possible now (from, to)."""
    items = page.locator(".jump-list li").all_inner_texts()
    return [(b.index(x.split(" over ")[0]), b.index(x.split(" to ")[1])) for x in items]


def truth_cost(b, truth, made: list[tuple[int, int]], j: tuple[int, int]) -> int:  # type: ignore[no-untyped-def]
    """The brute force's cost of jump j after the jumps made: the rise of moves made plus fewest still needed."""
    from solvers.pegs.rules import apply_jump, checked_jump

    pos, jumps = b.start("2"), []
    for f, t in made:
        jumps.append(checked_jump(b, pos, f, t))
        pos = apply_jump(pos, jumps[-1])
    before = len(jumps_to_moves(tuple(jumps))) + truth(pos, jumps[-1][2] if jumps else None)
    nj = checked_jump(b, pos, *j)
    after_jumps = (*jumps, nj)
    here = truth(apply_jump(pos, nj), nj[2])
    return -1 if here >= INF else len(jumps_to_moves(after_jumps)) + here - before


COLOUR = {k: f"colour {v}" for k, v in zip("ABCDEF", ("red", "blue", "green", "yellow", "white", "black"), strict=True)}


MASTERMIND = "/codebreak/play?game=mastermind&maker=adversarial&pegs=3&colours=3"


def guess(page: Page, code: str, rows: int) -> None:
    """Click the code's colours into the row and press Guess; wait for the row it adds and for the address htmx
    pushes after the swap (a key pressed before it may be lost to the page being swapped)."""
    for letter in code:
        page.get_by_role("button", name=COLOUR[letter], exact=True).click()
    page.get_by_role("button", name="Guess", exact=True).click()
    expect(page.locator("table.moves tbody tr")).to_have_count(rows)
    expect(page).to_have_url(re.compile(rf"[?&]moves=(?:[A-J]+(?:%2C|,))*{code}(?:&|$)"))  # not in a sealed token


def guessed(page: Page) -> list[str]:
    """The guesses in effect, read from the table."""
    return [
        x.replace("\n", "").strip()[:3]
        for x in page.locator("table.moves tbody tr td:nth-child(2) .code").all_inner_texts()
    ]


@pytest.mark.parametrize("width", DESKTOP)
def test_mastermind_undo_redo_id_and_share(browser: Browser, live_server: str, width: int) -> None:
    """Two guesses; u and Ctrl+Z take both back, r and Ctrl+Shift+Z make them again; a restart is undone; the ID
    typed in another game opens the same guesses; the share link too; the QR code is the link's."""
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    page.goto(live_server + MASTERMIND)
    guess(page, "AAB", 1)
    guess(page, "BCC", 2)
    page.keyboard.press("u")
    expect(page.locator("table.moves tbody tr")).to_have_count(1)
    page.keyboard.press("Control+z")
    expect(page.locator("table.moves tbody tr")).to_have_count(0)
    page.keyboard.press("r")
    expect(page.locator("table.moves tbody tr")).to_have_count(1)
    page.keyboard.press("Control+Shift+Z")
    expect(page.locator("table.moves tbody tr")).to_have_count(2)
    assert guessed(page) == ["AAB", "BCC"]
    page.get_by_role("link", name="Restart").click()
    expect(page.locator("table.moves tbody tr")).to_have_count(0)
    page.keyboard.press("u")
    expect(page.locator("table.moves tbody tr")).to_have_count(2)
    share = share_and_qr(page, live_server)
    assert page.locator(".game-id").inner_text() == "mastermind:3x3:AAB,BCC"
    enter_id(
        page,
        f"{live_server}/codebreak/play?game=mastermind&maker=adversarial&pegs=2&colours=2",
        "mastermind:3x3:AAB,BCC",
    )
    expect(page.locator("table.moves tbody tr")).to_have_count(2)
    assert guessed(page) == ["AAB", "BCC"]
    page.goto(live_server + share)
    assert guessed(page) == ["AAB", "BCC"]
    page.context.close()


@pytest.mark.parametrize("width", PHONE)
def test_mastermind_guess_worth_win_screen_and_statistics(browser: Browser, live_server: str, width: int) -> None:
    """After each guess the page says what it lost against the best guess, as the brute force of the codes still
    possible says (and the worst case it leaves); winning shows the guesses against the proved least worst case;
    the statistics survive a reload; axe in both themes."""
    from solvers.codebreak import build, parse
    from solvers.codebreak.play import play_round
    from tests.unit.test_codebreak_lesson import GAMES
    from tests.unit.test_codebreak_lesson import brute as code_brute

    g = build(parse((GAMES / "mastermind.game").read_text()), {"length": 3, "colours": 3})
    best, with_first, parts = code_brute(g)
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    page.goto(live_server + MASTERMIND)
    made: list[int] = []
    for k in range(1, 10):
        r = play_round(g, tuple(made))
        code = "AAA" if k == 1 else g.secrets[int(r.alive[0])]  # a poor first guess, then any code still possible
        s = frozenset(int(x) for x in r.alive)
        guess(page, code, k)
        e = g.experiments.index(code)
        made.append(e)
        if s == {e}:  # the winning guess of the last code: nothing to judge, the win screen says it
            expect(page.locator(".judged")).to_have_count(0)
            break
        more = with_first(s, e) - best(s)  # guesses lost in all over the codes still possible
        expect(page.locator(".judged .judgement")).to_contain_text(
            "was a best guess" if more == 0 else f"lost {more:,} guess{'' if more == 1 else 'es'} in all"
        )
        worst = max(len(p) for p in parts(s, e).values())
        expect(page.locator(".judged .worst-left")).to_contain_text(f"up to {worst:,} code")
        if k == 1:
            axe_both_themes(page, "mastermind-judged", width)
        if play_round(g, tuple(made)).won:
            break
    win = page.locator("section.win")
    expect(win.get_by_role("heading", name="You broke the code!")).to_be_visible()
    expect(win.locator(".score")).to_have_text(str(len(made)))
    expect(win.locator(".optimum")).to_have_text(str(worst_case_brute(g)))
    expect(win.locator(".stats-line")).to_contain_text(f"played 1, won 1, best {len(made)}")
    axe_both_themes(page, "mastermind-win", width)
    page.reload()
    expect(page.locator("section.win .stats-line")).to_contain_text("played 1, won 1")
    page.context.close()


def worst_case_brute(g) -> int:  # type: ignore[no-untyped-def]
    """The least worst case by trying every guess at every step (a plain minimax over the codes still possible)."""
    table, win = g.dense(), g.win_outcome

    @cache
    def depth(s: frozenset[int]) -> int:
        if len(s) == 1:
            return 1
        options = []
        for e in range(table.shape[0]):
            split: dict[int, set[int]] = {}
            for x in s:
                split.setdefault(int(table[e, x]), set()).add(x)
            if len(split) > 1 or e in s:
                options.append(1 + max((depth(frozenset(p)) for o, p in split.items() if o != win), default=0))
        return min(options)

    return depth(frozenset(range(len(g.secrets))))


@pytest.mark.parametrize(
    ("setup", "preset", "heading"),
    [
        ("/pegs", "Triangle of 15, corner empty", "Triangle of 15 holes, started without 1"),
        (
            "/codebreak",
            "Mastermind 3x4 against the adversary",
            "Mastermind (3 pegs, 4 colours), adversarial code maker",
        ),
        ("/coins", "12 coins, 3 weighings (the classic)", "Weighing 1"),
        ("/devil", "4 coins (the classic)", "4 coins, adversarial Devil"),
        ("/adversary", "12 coins against the adversary", "Weighing 1 of 3"),
    ],
)
def test_presets_and_the_last_game_remembered(
    browser: Browser, live_server: str, setup: str, preset: str, heading: str
) -> None:
    """A classic size opens in one click; back on the set-up page (a new visit) a link offers that last game."""
    page = browser.new_context(viewport={"width": 390, "height": 900}).new_page()
    page.goto(live_server + setup)
    page.get_by_role("link", name=preset).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(heading)
    page.wait_for_function("localStorage.getItem('coin-puzzles:last') !== null")  # kept once htmx has settled it
    played = urlsplit(page.url)
    page.goto(live_server + setup)
    last = page.locator(".last-game a")
    expect(last).to_be_visible()
    assert last.get_attribute("href") == played.path + "?" + played.query
    page.context.close()

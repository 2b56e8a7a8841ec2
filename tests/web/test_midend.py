"""The midend (`webapp/pages/gamebar.py`) owns what every game shares: no puzzle's page builds its bar, its undo,
redo and restart links, its take-back or its game ID route itself, and no template but `_gamebar.html` defines the
bar, the share panel, the win screen, the statistics or the take-back form. Each check is shown to find a planted
second copy."""

from __future__ import annotations

import ast
import re
from html import unescape
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient

ROOT = Path(__file__).resolve().parents[2]
OWNED_CALLS = {  # a call by this name in a page: a copy of what the midend does
    "Bar": "builds its bar (gamebar.game_bar)",
    "undo": "makes undo links (gamebar.game_bar)",
    "redo": "makes redo links (gamebar.game_bar)",
    "restart": "makes restart links (gamebar.game_bar)",
    "take_back": "takes a move back (gamebar.take_back_route)",
    "may_take_back": "decides whether a take-back is offered (gamebar.game_bar)",
}
OWNED_ROUTES = {  # a route of this path in a page: a copy of the midend's
    "/take-back": "a take-back route of its own (gamebar.take_back_route)",
    "/id": "a game ID route of its own (gamebar.id_route)",
}
OWNED_MACROS = ("bar", "share", "win", "stats", "take_back", "moved_on")
OWNED_TEXT = {  # in a template: a copy of what the midend's template writes
    r"\.take_back['\"]|/take-back": "a take-back form of its own",
    r"latest position</a>": "a link to the latest position of its own",
}


def page_copies(root: Path) -> list[str]:
    """'module: what' for each thing a puzzle's page does that the midend owns."""
    found = []
    for path in sorted((root / "webapp" / "pages").glob("*.py")):
        if path.name == "gamebar.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                f = node.func
                name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
                if name in OWNED_CALLS:
                    found.append(f"{path.name}: {OWNED_CALLS[name]}")
                routed = name in ("get", "post", "route", "add_url_rule") and node.args
                if routed and isinstance(node.args[0], ast.Constant) and node.args[0].value in OWNED_ROUTES:
                    found.append(f"{path.name}: {OWNED_ROUTES[node.args[0].value]}")
    return sorted(found)


def template_copies(root: Path) -> list[str]:
    """'template: macro' for each macro the midend's template owns defined again elsewhere, and 'template: what'
    for a take-back form or a link to a game's latest position written by a game's template (the error page links
    to the latest position of the game a refused move came from)."""
    pattern = re.compile(r"{%-?\s*macro\s+(" + "|".join(OWNED_MACROS) + r")\s*\(")
    found = []
    for path in sorted((root / "templates").rglob("*.html")):
        name = path.relative_to(root / "templates")
        if name.as_posix() in ("_gamebar.html", "error.html"):
            continue
        text = path.read_text(encoding="utf-8")
        found += [f"{name}: {m.group(1)}" for m in pattern.finditer(text)]
        found += [f"{name}: {what}" for mark, what in OWNED_TEXT.items() if re.search(mark, text)]
    return found


def test_no_page_does_what_the_midend_owns() -> None:
    """Every page's bar, undo links and take-back come from gamebar; every template's bar macros from
    _gamebar.html."""
    assert page_copies(ROOT) == []
    assert template_copies(ROOT) == []
    assert "macro win(" in (ROOT / "templates" / "_gamebar.html").read_text(encoding="utf-8")


def test_the_checks_find_a_planted_copy(tmp_path: Path) -> None:
    """A page that builds its own bar, its own undo link or its own take-back route, and a template with its own
    win screen, are each found; the midend's own module and template are not."""
    pages, templates = tmp_path / "webapp" / "pages", tmp_path / "templates" / "mine"
    pages.mkdir(parents=True)
    templates.mkdir(parents=True)
    (pages / "gamebar.py").write_text("def game_bar(c):\n    return Bar(c.undo())\n")
    (pages / "mine.py").write_text("bar = Bar('id', '/id', '/share')\n")
    (pages / "theirs.py").write_text("back = at(chain.undo())\n")
    (pages / "sealed.py").write_text("@bp.post('/take-back')\ndef tb():\n    return GAME.take_back(k, h, log, 'x')\n")
    (pages / "fine.py").write_text("@id_route(bp, 3, 'a game', 'a:b:c')\ndef _opened(parts, _):\n    return parts[0]\n")
    (pages / "offers.py").write_text("view = Links(take_back=hidden.may_take_back(bool(moves)))\n")
    (pages / "typed.py").write_text("@bp.get('/id')\ndef from_id():\n    return go(opened(split_id(request.args)))\n")
    (tmp_path / "templates" / "_gamebar.html").write_text("{% macro win(b) %}{% endmacro %}")
    (templates / "play.html").write_text("{%- macro win(b) -%}<div class=win></div>{% endmacro %}")
    (templates / "sealed.html").write_text(
        '<form action="{{ url_for(\'mine.take_back\') }}"></form><a href="{{ x }}">Go to its latest position</a>'
    )
    (templates / "typed.html").write_text('<form method="post" action="/mine/take-back"></form>')
    (templates / "error.html").write_text('<a href="{{ latest }}">Go to this game\'s latest position</a>')
    assert page_copies(tmp_path) == [
        "mine.py: builds its bar (gamebar.game_bar)",
        "offers.py: decides whether a take-back is offered (gamebar.game_bar)",
        "sealed.py: a take-back route of its own (gamebar.take_back_route)",
        "sealed.py: takes a move back (gamebar.take_back_route)",
        "theirs.py: makes undo links (gamebar.game_bar)",
        "typed.py: a game ID route of its own (gamebar.id_route)",
    ]
    assert template_copies(tmp_path) == [
        "mine/error.html: a link to the latest position of its own",  # only the site's own error page links to it
        "mine/play.html: win",
        "mine/sealed.html: a take-back form of its own",
        "mine/sealed.html: a link to the latest position of its own",
        "mine/typed.html: a take-back form of its own",
    ]


def test_the_win_screen_scores_a_game_against_the_proved_best(app: Flask) -> None:
    """The win screen says 'optimal' at the proved best, how many more above it, and how many fewer below it (a
    random opponent can lose sooner than the worst case the best is proved against), never a negative 'more'."""
    from webapp.pages.gamebar import Bar, Score, StatsKey

    with app.test_request_context("/"):
        win = app.jinja_env.get_template("_gamebar.html").module.win  # type: ignore[attr-defined]

        def against(score: int) -> str:
            end = Score("Won", True, score, 15, "moves")
            html = str(win(Bar("id", "/id", "/s", stats=StatsKey("k", "a game"), end=end)))
            return html.split('class="against">', 1)[1].split("</dd>", 1)[0]

        assert against(15) == "optimal"
        assert against(17) == "2 more"
        assert against(12).startswith("3 fewer")


@pytest.mark.parametrize(
    ("url", "moves"),
    [
        ("/codebreak/play?game=mastermind&maker=adversarial&moves=AABB,CCDE&at=1&u=1&h=2", "AABB"),
        ("/pegs/play?board=triangle-5&hole=1&j=4-1,6-4&at=1&u=1&finish=1&h=1", "4-1"),
        ("/aequitas/play?game=D&n=6&light=6&fake=6&conv=misere-last-mover-loses&turns=1-2;3-4&at=0&u=1", ""),
    ],
)
def test_the_share_link_is_the_position_without_its_undo_history(client: FlaskClient, url: str, moves: str) -> None:
    """docs/play.md: the share link (and its QR code) is the position's URL without the undo history: the moves in
    effect, nothing undone, no take-backs or hints counted (a visitor's tour found Mastermind's and the peg board's
    carrying the undone move, at= and u=; Æquitas's was already so)."""
    html = client.get(url).get_data(as_text=True)
    share = unescape(re.findall(r'<a href="([^"]+)" class="share-link"', html)[0])
    fields = parse_qs(urlsplit(share).query)
    assert [v for k, v in fields.items() if k in ("moves", "turns")] == ([[moves]] if moves else []), (url, share)
    assert not {"at", "u", "h"} & set(fields), (url, share)


def test_a_sealed_game_page_reads_its_record_once(client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A page of a game with a hidden secret opens its sealed record once per view: the bar's take-back form is
    built from the position the page opened, not by reading the store (and replaying the game) a second time."""
    from urllib.parse import urlencode

    from tests.web.forms import form_token
    from tests.web.test_honest_games import honest_game, query, random_devil
    from webapp.keys import secretbox

    opened: list[str] = []
    real = secretbox._open_game
    monkeypatch.setattr(secretbox, "_open_game", lambda *a: opened.append(a[1]) or real(*a))
    csrf = form_token(client, "/codebreak")
    code = client.post("/codebreak/start", data={"csrf_token": csrf, "game": "mastermind", "maker": "random"})
    pages = [
        "/codebreak/play?" + urlencode(query(code.headers["Location"])),
        "/adversary/play?" + urlencode(honest_game(client)[1]),
        "/devil/play?" + urlencode(random_devil(client)[1]),
    ]
    for url in pages:
        opened.clear()
        answer = client.get(url)
        assert answer.status_code == 200
        assert len(opened) == 1, f"{url} opened its sealed record {len(opened)} times"

"""The midend: what every game page shows and does around its board, written once. One model of the bar (`Bar`,
built by `game_bar`): undo and redo (buttons and keys), the game's short ID with a field to enter one (one format and
one parser: `format_id`, `split_id`), a share link with its QR code, the take-backs and hints used, the win screen
once the game ends (`Score`) and the statistics the browser keeps; the take-back of a game with a hidden secret
(`take_back_route`: the one route behind every such game's form); the "Enter a game ID" route of every game
(`id_route`); the QR code route. A puzzle's page supplies only
its rules' calls and its templates: its ID's fields, its links, its `Sealed` position."""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import KW_ONLY, dataclass
from typing import Any, NamedTuple

from flask import Blueprint, Response, request, url_for

from solvers.errors import InputError, PuzzleError
from solvers.history import Chain
from webapp.http.errors import MovedOn, error_response, puzzle_title
from webapp.http.htmx import go
from webapp.keys.secretbox import Hidden, HiddenGame

bp = Blueprint("gamebar", __name__)
MAX_SHARED = 2000  # characters of a shared path: a QR code holds up to about 2,300 at this error correction


def absolute(path: str) -> str:
    """A path of this site as the visitor reaches it: the scheme, host and port they used (through nginx:
    X-Forwarded-Proto and X-Forwarded-Host, read by ProxyFix), then the path."""
    return request.url_root.rstrip("/") + path


@dataclass(frozen=True)
class StatsKey:
    """What the browser's statistics count a game under: a puzzle and its size, and the same in words."""

    key: str
    label: str


@dataclass(frozen=True)
class Score:
    """A finished game's verdict and score against the proved best."""

    title: str
    won: bool
    score: int
    optimum: int | None  # the proved best score (None: not known here)
    unit: str  # what the score counts ("moves", "guesses", "weighings")
    best_text: str | None = None  # the proved best in words, where it is not a score (a two-player game)


@dataclass(frozen=True)
class Bar:
    """The links and figures of a game page's bar."""

    game_id: str
    id_action: str  # where the "Enter a game ID" form goes (GET, field `id`)
    share: str  # this game's URL (the page's own, without the hint or selection fields)
    undo: str | None = None
    redo: str | None = None
    restart: str | None = None
    take_backs: int = 0
    hints: int = 0
    _: KW_ONLY
    stats: StatsKey | None  # None: a game without statistics (the plan navigator)
    end: Score | None = None  # the win screen, once the game is over
    forward: Forward | None = None  # a game with a hidden secret: its take-back form and way to its latest position

    @property
    def share_url(self) -> str:
        """The absolute link a Share button copies."""
        return absolute(self.share)

    @property
    def qr(self) -> str:
        """The QR code of the share link (an SVG image)."""
        return url_for("gamebar.qr", path=self.share)


class Forward(NamedTuple):
    """A game with a hidden secret, played forward (no undo links): where its take-back form posts, the fields it
    posts (the position's), what a move is called, whether the last move may be taken back here, and, on an older
    position than the game's latest, the latest's URL."""

    action: str
    fields: Mapping[str, str]
    what: str
    take_back: bool
    latest: str | None


def game_bar(
    game_id: str,
    share: str,
    chain: Chain,
    at: Callable[[Chain], str] | None,
    *,
    hints: int = 0,
    stats: StatsKey | None,
    end: Score | None = None,
    sealed: Sealed | None = None,
) -> Bar:
    """The bar of the game whose blueprint renders the page: its ID (entered again through its `from_id`), its share
    link, the Undo, Redo and Restart links of its undo chain (at: a chain's URL; None where the moves are not a
    chain of links), the take-backs counted by the chain and the hints used; for a game with a hidden secret
    (sealed: its position, played forward only), the take-back form (to its `take_back_route`) while the last move
    may be taken back, and the link to the game's latest position on an older one."""
    forward = None
    if sealed is not None:
        h, rec = sealed.hidden, sealed.hidden.record
        older = h.standing == "earlier" or (h.standing == "over" and end is None)  # over, but not shown ended
        latest = sealed.at(rec.history, rec.token, rec.ending or "") if older else None
        taking = h.may_take_back(bool(chain.applied), end is not None)
        forward = Forward(url_for(f"{request.blueprint}.take_back"), sealed.fields, sealed.what, taking, latest)
    return Bar(
        game_id=game_id,
        id_action=url_for(f"{request.blueprint}.from_id"),
        share=share,
        undo=at(chain.undo()) if at and chain.can_undo else None,
        redo=at(chain.redo()) if at and chain.can_redo else None,
        restart=at(chain.restart()) if at and chain.applied else None,
        take_backs=chain.undos,
        hints=hints,
        stats=stats,
        end=end,
        forward=forward,
    )


class Sealed(NamedTuple):
    """A position of a game with a hidden secret, as its take-back form posts it: the kind of game (its sealing),
    the game's key, the position opened, the moves logged up to it, what a move is called ('guess'), the URL of a
    position of the game (its history, its token, and how the game ended there: '' while it is on) and the fields
    the form posts."""

    game: HiddenGame[Any]
    kind: str
    hidden: Hidden[Any]
    log: tuple[str, ...]
    what: str
    at: Callable[[str, str, str], str]
    fields: Mapping[str, str]


def take_back_route(bp: Blueprint, sealed: Callable[[Mapping[str, str]], Sealed]) -> None:
    """The take-back of a game with a hidden secret, as `bp`'s POST /take-back (sealed: the posted position, an
    InputError for a game whose take-backs are undo links instead). The move taken back stays in the game's log
    (its answer was seen), is counted, and the sealed record moves on, so that the position before it cannot be
    played from again (`HiddenGame.take_back`)."""

    def take_back() -> Response:
        p = sealed(request.form)
        history, token = p.game.take_back(p.kind, p.hidden, p.log, p.what)
        return go(p.at(history, token, ""))

    def moved_on(e: MovedOn) -> tuple[Response | str, int]:
        """A move, take-back or end posted from an older position than the game's latest (another tab, Back), or
        from a game that is over: refused, the error page linking to the latest position (without the link where
        the form no longer opens the game: gone from the store meanwhile, or a field refused)."""
        try:
            p = sealed(request.form)
        except PuzzleError as again:
            return error_response(400, puzzle_title(again), again.message, again.detail)
        latest = p.hidden.record
        return error_response(
            400, puzzle_title(e), e.message, e.detail, p.at(latest.history, latest.token, latest.ending or "")
        )

    take_back.__doc__ = take_back_route.__doc__
    bp.add_url_rule("/take-back", "take_back", take_back, methods=["POST"])
    bp.register_error_handler(MovedOn, moved_on)


Opens = Callable[[list[str], str | None], str]  # a game ID's fields and its sealed token (None: open) -> its URL


def id_route(
    bp: Blueprint, fields: int, what: str, example: str, sealed: bool = False, bare: bool = False
) -> Callable[[Opens], Opens]:
    """Every game's "Enter a game ID", as `bp`'s GET /id (endpoint `from_id`, where `game_bar`'s form goes), around
    the function it decorates, which makes the URL that opens the ID's game: the ID read by `split_id` (a game with
    no secret, not sealed, drops a '#' and what follows), and a 303 to that URL."""

    def route(opens: Opens) -> Opens:
        def from_id() -> Response:
            text = request.args.get("id", "")
            parts, token = split_id(text if sealed else text.split("#")[0], fields, what, example, bare)
            return go(opens(parts, token))

        from_id.__doc__ = opens.__doc__
        bp.add_url_rule("/id", "from_id", from_id)
        return opens

    return route


def format_id(fields: Sequence[object], moves: str = "", token: str | None = None) -> str:
    """Every game's ID in one format: the fields that set the game up, joined by ':', then ':' and the moves in
    effect; or, for a game with a hidden secret, '#' and its sealed token instead of the moves (its record holds
    them). `split_id` reads it back."""
    head = ":".join(str(field) for field in fields)
    return f"{head}#{token}" if token is not None else f"{head}:{moves}"


def split_id(text: str, fields: int, what: str, example: str, bare: bool = False) -> tuple[list[str], str | None]:
    """A game ID's fields (split at ':'; `format_id`), the last of `fields` the moves (empty: the game's start; bare:
    they may be left out with their ':', as the peg board's IDs always could), and, for a game with a hidden
    secret, its sealed token (after '#'; then the moves are left out: the token's record holds them); None for an
    open game."""
    head, hashed, token = text.strip().partition("#")
    parts = [part.strip() for part in head.split(":")]
    if bare and not hashed and len(parts) == fields - 1:
        parts.append("")  # no moves: the start
    if len(parts) != (fields - 1 if hashed else fields):
        raise InputError(f"{text[:40]!r} is not {what} game ID: write {example}")
    return parts, token.strip() if hashed else None


@bp.get("/qr.svg")
def qr() -> Response:
    """The QR code of a link to a page of this site (path: the page's path and query), as SVG."""
    import segno  # only the pages that show a QR code pay for importing it

    path = request.args.get("path", "")
    if not path.startswith("/") or path.startswith("//") or len(path) > MAX_SHARED:
        raise InputError(f"path: a path of this site, starting with one '/', of at most {MAX_SHARED} characters")
    out = io.BytesIO()
    link = absolute(path)
    code = segno.make(link, error="m")
    code.save(out, kind="svg", scale=4, border=4, xmldecl=False, title="QR code of this game's link", desc=link)
    return Response(out.getvalue(), mimetype="image/svg+xml")

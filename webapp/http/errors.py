"""One error page and one JSON error shape, {"error": ..., "detail": ...}, for every failure.

Every solver error is a `PuzzleError`; one handler turns it into a 4xx, so no refusal can become a 500.
"""

from __future__ import annotations

from collections.abc import Sequence

from flask import Flask, Response, current_app, jsonify, render_template, request, url_for
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, RequestURITooLarge

from solvers.errors import IllegalMoveError, InputError, LimitError, PuzzleError

# The longest address (path and query) the site answers: gunicorn reads request lines up to 4,094 bytes, nginx's
# header and proxy buffers (deploy/nginx.conf) hold this much with room to spare; the longest address a game
# makes (200 moves, gamebar.MAX_SHARED for a shared one) is about 2,000
MAX_URL = 4000
# Flask-WTF's reasons for refusing a form, in words that say what the visitor's browser did
CSRF_REASONS = {
    "The CSRF session token is missing.": "your browser sent no session cookie with it (cookies blocked, or a "
    "private window closed since the page was loaded)",
    "The CSRF tokens do not match.": "its token belongs to another load of the page: a page opened in this browser "
    "since (another tab, or pages loaded at the same moment in a fresh session) replaced the session's token",
    "The CSRF token is missing.": "it was sent without its security token",
    "The CSRF token is invalid.": "its security token was not made by this site's keys (a page from before the "
    "site's key was replaced, or a token altered on the way)",
}


class MovedOn(IllegalMoveError):
    """A move (or take-back, or the end) from a position of a game with a hidden secret that is not the latest one
    of a game still on (an older one, or any position of a game that is over): its game's page answers with a link
    to the latest position (`gamebar.take_back_route`)."""


# The error page's title for each kind of refusal (the first that fits)
TITLES: dict[type[PuzzleError], str] = {
    LimitError: "Too large to compute here",
    MovedOn: "No move from this position",
    IllegalMoveError: "Not a legal move",
}


class NoGame(InputError):
    """A link to a game with a sealed secret that holds no game (no token: a bookmark, an edited address): its page
    offers the Start button of a new game with the link's settings (a POST to `start` with `fields`)."""

    def __init__(
        self, message: str, detail: object = None, start: str = "", fields: dict[str, str] | None = None
    ) -> None:
        """Keep the message and where the Start button posts what (no `start`: the page offers no button)."""
        super().__init__(message, detail)
        self.start, self.fields = start, fields or {}

    @classmethod
    def of(cls, what: str, start: str, fields: dict[str, str]) -> NoGame:
        """The refusal of a link to `what` (a game against the random code maker, ...) that holds no game."""
        said = f"this link holds no game: {what} begins with its Start button, which seals a secret into it"
        return cls(said, None, start, fields)


def _wants_json() -> bool:
    """True for API requests."""
    return request.path.startswith("/api/")


def puzzle_link(path: str) -> tuple[str, str] | None:
    """The (address, name) of the puzzle whose pages `path` belongs to, for the error page's way back."""
    area = path.strip("/").split("/", 1)[0]
    puzzles = current_app.extensions.get(PUZZLES_KEY, ())  # the pages' list, given by the app factory (`init_app`)
    return next(((url_for(endpoint), name) for key, name, endpoint in puzzles if key == area), None)


def error_response(
    status: int, title: str, message: str, detail: object = None, latest: str = ""
) -> tuple[Response | str, int]:
    """The error as JSON for the API, as the error page otherwise (with a link back to the visitor's puzzle, and
    latest: to the latest position of the visitor's game, where a move came from an older one)."""
    if _wants_json():
        return jsonify({"error": message, "detail": detail}), status
    back = puzzle_link(request.path)
    return render_template("error.html", title=title, message=message, back=back, latest=latest), status


def puzzle_title(e: PuzzleError) -> str:
    """The error page's title for a solver error."""
    return next((v for cls, v in TITLES.items() if isinstance(e, cls)), "Bad request")


def refuse_long_addresses() -> None:
    """414 for an address past MAX_URL, before any view reads it."""
    if len(request.full_path) > MAX_URL:
        raise RequestURITooLarge(f"The address is longer than the {MAX_URL:,} characters this site answers.")


def refuse_long_redirects(response: Response) -> Response:
    """A redirect to an address past MAX_URL (built from what a form sent) is a 400 saying so, never a Location that
    nginx cannot pass on (a 502) or a page the site would refuse; htmx's HX-Location (a boosted form's redirect)
    likewise."""
    location = response.headers.get("Location", "") if 300 <= response.status_code < 400 else ""
    boosted = response.headers.get("HX-Location", "")  # {"path": ..., "target": ...}: the path past 30 characters
    if len(location) > MAX_URL or len(boosted) > MAX_URL + 30:
        body, code = error_response(
            400,
            "Too long",
            f"The address this leads to would be longer than the {MAX_URL:,} characters this site answers.",
        )
        return current_app.make_response((body, code))
    return response


PUZZLES_KEY = "coin_puzzles_puzzles"  # the app's extension: (area, name, first page) of each puzzle (`registry`)


def init_app(app: Flask, puzzles: Sequence[tuple[str, str, str]] = ()) -> None:
    """Register the handlers; puzzles: each puzzle's (area, name, first page), for an error page's way back."""
    app.extensions[PUZZLES_KEY] = tuple(puzzles)
    app.before_request(refuse_long_addresses)
    app.after_request(refuse_long_redirects)

    @app.errorhandler(PuzzleError)
    def puzzle_error(e: PuzzleError) -> tuple[Response | str, int]:
        """A solver (or a parser) refused the input; a link that holds no game offers a new one."""
        if isinstance(e, NoGame) and e.start and not _wants_json():
            page = render_template("no_game.html", message=e.message, start=e.start, fields=e.fields)
            return page, 400
        return error_response(400, puzzle_title(e), e.message, e.detail)

    @app.errorhandler(CSRFError)
    def csrf_error(e: CSRFError) -> tuple[Response | str, int]:
        """A form without a valid CSRF token, saying which of the client's states caused it (nothing on the server
        makes a valid token fail: the token is checked against the browser's own session cookie)."""
        why = CSRF_REASONS.get(str(e.description), "its security token was not valid")
        return error_response(400, "Form expired", f"The form could not be used: {why}. Reload the page and try again.")

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException) -> Response:
        """Any HTTP error, with its own message."""
        status = e.code or 500
        message = e.description or e.name
        body, code = error_response(status, f"{status} {e.name}", message)
        response = current_app.make_response((body, code))
        for name, value in e.get_headers():
            if name.lower() == "allow":  # a 405 must say which methods are allowed
                response.headers[name] = value
        return response

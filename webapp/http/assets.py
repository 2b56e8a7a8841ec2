"""Static files under names that carry a hash of their content (`css/site.3f9a0b1c2d.css`), so a browser or a
shared cache keeps them for a year (`immutable`) and a deploy that changes a file changes its name.

`url_for("static", filename="css/site.css")` writes the hashed name; the static route serves the file a hashed
name stands for, immutable when the hash is the file's own (a name from before a change gets today's file, kept
for no time). Our nginx serves the hashed names itself from disk (`proxy-config` lists them: `hashed`), so this
route answers them only without nginx."""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, current_app

from webapp.http.hashed import HASHED, content_hash, hashed_name

YEAR = 31_536_000


def _folder() -> str:
    """The app's static folder."""
    return str(current_app.static_folder)


def add_hash(endpoint: str, values: dict[str, Any]) -> None:
    """url_for's hook: a static file's URL under its hashed name."""
    if endpoint == "static" and isinstance(values.get("filename"), str):
        values["filename"] = hashed_name(_folder(), values["filename"])


def send_static(filename: str) -> Response:
    """The static route: a hashed name's file, immutable when the hash is its own; a plain name as Flask does."""
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    m = HASHED.match(filename)
    if m is None:
        return app.send_static_file(filename)
    plain = m["stem"] + m["ext"]
    response = app.send_static_file(plain)
    if m["hash"] == content_hash(_folder(), plain):
        response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
        response.headers["X-Accel-Expires"] = str(YEAR)
    return response


def init_app(app: Flask) -> None:
    """Hashed names in every static URL, and the route that serves them."""
    app.url_defaults(add_hash)
    app.view_functions["static"] = send_static

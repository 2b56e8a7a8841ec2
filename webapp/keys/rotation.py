"""The web workers follow `coin-puzzles rotate-key` without a restart: as each request opens its session (before
anything reads the session cookie, which a worker still holding the old keys would drop: the form then said "your
browser sent no session cookie") a worker looks at the instance folder's key files (two stat calls) and, when
either changed, reads the keys again, so that sessions and results signed with the new key are never dropped as
damaged and the old key keeps opening what it signed. Keys set in the environment (COIN_PUZZLES_SECRET) change
only with a restart, as the environment does."""

from __future__ import annotations

import os
from pathlib import Path

from flask import Flask, Request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface

from webapp import config


def _stamp(folder: Path) -> tuple[int, ...]:
    """When the key files last changed (0 for a file that is not there)."""
    out = []
    for name in (config.KEY_FILE, config.FALLBACKS_FILE):
        try:
            out.append((folder / name).stat().st_mtime_ns)
        except OSError:
            out.append(0)
    return tuple(out)


def use(app: Flask, keys: config.Keys) -> None:
    """Put keys in force in an app: the session's and forms' keys, the result store's signer, sealed games."""
    app.config["SECRET_KEY"], app.config["SECRET_KEY_FALLBACKS"] = keys.current, list(keys.fallbacks)
    # CSRF tokens signed with an older key still validate
    app.config["WTF_CSRF_SECRET_KEY"] = [*keys.fallbacks, keys.current] if keys.fallbacks else keys.current
    app.extensions.pop("coin_puzzles_store", None)  # opened again with the new keys on next use
    app.extensions["coin_puzzles_keys_stamp"] = _stamp(Path(app.instance_path))


def follow(app: Flask) -> None:
    """The keys again if the instance folder's key files changed (and none is set in the environment)."""
    if os.environ.get("COIN_PUZZLES_SECRET"):
        return
    folder = Path(app.instance_path)
    if _stamp(folder) != app.extensions.get("coin_puzzles_keys_stamp"):
        use(app, config.keys(folder))


class FollowingSessions(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, opened with the keys in force on disk (`follow` first)."""

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        """Follow the key files, then open the session as Flask does."""
        follow(app)
        return super().open_session(app, request)

"""Hidden game state (the honest scale's fake, the random Devil's table, a random code), sealed with Fernet so
the browser can carry it in the URL but never read it, and bound to the game it belongs to."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets

from cryptography.fernet import Fernet, InvalidToken
from flask import current_app

from solvers.errors import InputError
from solvers.weighing import Problem
from solvers.weighing.adversary import Secret


def _box() -> Fernet:
    """A Fernet key derived from the app's secret key."""
    digest = hashlib.sha256(b"coin-puzzles/hidden-state/" + str(current_app.config["SECRET_KEY"]).encode()).digest()
    return Fernet(base64.urlsafe_b64encode(digest))


def seal(payload: dict[str, object], game: str) -> str:
    """An opaque token holding the payload, bound to a game key (with a random salt)."""
    body = {"data": payload, "game": game, "salt": secrets.token_hex(8)}
    return _box().encrypt(json.dumps(body).encode()).decode()


def unseal(token: str, game: str) -> dict[str, object]:
    """The payload of a token; a 400 if it was tampered with or belongs to another game."""
    try:
        body = json.loads(_box().decrypt(token.encode()))
    except (InvalidToken, ValueError) as e:
        raise InputError("this game token is damaged or from another server") from e
    if not isinstance(body, dict) or body.get("game") != game or not isinstance(body.get("data"), dict):
        raise InputError("this game token belongs to a different game")
    data: dict[str, object] = body["data"]
    return data


def random_secret(p: Problem) -> Secret:
    """A fake coin and weight (or none, when allowed) chosen uniformly over the cases."""
    weights = {"unknown": (True, False), "heavier": (True,), "lighter": (False,)}[p.weight]
    pick = secrets.randbelow(p.cases)
    if pick == p.coins * len(weights):
        return Secret(None, False)
    return Secret(pick // len(weights) + 1, weights[pick % len(weights)])


def seal_secret(secret: Secret, p: Problem) -> str:
    """The honest scale's fake, sealed and bound to the problem."""
    return seal({"coin": secret.coin, "heavier": secret.heavier}, f"adversary/{p.to_token()}")


def unseal_secret(token: str, p: Problem) -> Secret:
    """The honest scale's fake from its token."""
    data = unseal(token, f"adversary/{p.to_token()}")
    coin = data.get("coin")
    return Secret(coin if isinstance(coin, int) else None, bool(data.get("heavier")))

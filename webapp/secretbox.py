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
from solvers.weighing.case import Case, all_cases


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


def random_secret(p: Problem) -> Case:
    """A fake coin and weight (or none, when allowed) chosen uniformly over the cases."""
    return secrets.choice(all_cases(p)) if p.coins <= 10_000 else _random_large(p)


def _random_large(p: Problem) -> Case:
    """The same choice without listing every case."""
    per_coin = 2 if p.weight == "unknown" else 1
    pick = secrets.randbelow(p.cases)
    if pick == p.coins * per_coin:
        return Case(None)
    return Case(pick // per_coin + 1, p.weight == "heavier" or (p.weight == "unknown" and pick % 2 == 0))


def seal_secret(secret: Case, p: Problem) -> str:
    """The honest scale's fake, sealed and bound to the problem."""
    return seal({"coin": secret.coin, "heavier": secret.heavier}, f"adversary/{p.to_token()}")


def unseal_secret(token: str, p: Problem) -> Case:
    """The honest scale's fake from its token."""
    data = unseal(token, f"adversary/{p.to_token()}")
    coin = data.get("coin")
    return Case(coin if isinstance(coin, int) else None, bool(data.get("heavier")))

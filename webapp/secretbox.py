"""The honest scale's secret, sealed with Fernet so the browser can carry it but never read it."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets

from cryptography.fernet import Fernet, InvalidToken
from flask import current_app

from solvers.weighing import Problem
from solvers.weighing.adversary import Secret

from .errors import InputError


def box() -> Fernet:
    """A Fernet key derived from the app's secret key."""
    digest = hashlib.sha256(b"coin-puzzles/honest-scale/" + str(current_app.config["SECRET_KEY"]).encode()).digest()
    return Fernet(base64.urlsafe_b64encode(digest))


def random_secret(p: Problem) -> Secret:
    """A fake coin and weight (or none, when allowed) chosen uniformly over the cases."""
    weights = {"unknown": (True, False), "heavier": (True,), "lighter": (False,)}[p.weight]
    pick = secrets.randbelow(p.cases)
    if pick == p.coins * len(weights):
        return Secret(None, False)
    return Secret(pick // len(weights) + 1, weights[pick % len(weights)])


def seal(secret: Secret, p: Problem) -> str:
    """An opaque token holding the secret, bound to the problem."""
    payload = {"c": secret.coin, "h": secret.heavier, "p": p.to_token(), "r": secrets.token_hex(8)}
    return box().encrypt(json.dumps(payload).encode()).decode()


def unseal(token: str, p: Problem) -> Secret:
    """The secret from a token; a 400 if it was tampered with or belongs to another game."""
    try:
        payload = json.loads(box().decrypt(token.encode()))
    except (InvalidToken, ValueError) as e:
        raise InputError("this honest-scale game token is damaged or from another server") from e
    if payload.get("p") != p.to_token():
        raise InputError("this honest-scale game token belongs to a different game")
    return Secret(payload["c"], bool(payload["h"]))

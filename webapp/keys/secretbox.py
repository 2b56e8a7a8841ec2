"""Games with a hidden secret (the honest scale's fake, the random Devil's table, a random code), sealed so the
browser carries them in the URL but can neither read them nor learn anything from their length, and bound to
the game's recorded history so that a token cannot be replayed, branched or probed.

Every sealed plaintext is padded to SEAL_BYTES. A game's token vouches for one position: its kind (the game's
parameters, budget included), its id, its secret and a digest of the move list up to that position. The
result store keeps each game's record (its latest history, latest token and, once over, how it ended): only
the latest position of a game that is not over can move; earlier positions are shown read-only; a move from
anywhere else, or any move after the end, is refused.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from cryptography.fernet import Fernet, InvalidToken, MultiFernet

from solvers.errors import IllegalMoveError, InputError
from solvers.history import TAKE_BACK, from_log
from solvers.weighing import Problem
from solvers.weighing.case import Case, all_cases
from webapp.http import caching
from webapp.http.errors import MovedOn
from webapp.jobs.access import Busy, app_keys, app_store
from webapp.store import GAME_KEEP_DAYS, GAME_PREFIX, GamesFull

SEAL_BYTES = 320  # every sealed plaintext has exactly this length, whatever it holds
GAMES_FULL_RETRY_SECONDS = 600
T = TypeVar("T")


def _fernet(key: str) -> Fernet:
    """A Fernet key derived from one of the app's secret keys."""
    digest = hashlib.sha256(b"coin-puzzles/hidden-state/" + key.encode()).digest()
    return Fernet(base64.urlsafe_b64encode(digest))


def _box() -> MultiFernet:
    """Seals with the current key; opens what any accepted key (the current one or a fallback) sealed."""
    return MultiFernet([_fernet(k) for k in app_keys()])


def seal(payload: dict[str, object], game: str) -> str:
    """An opaque token of fixed length holding the payload, bound to a game kind."""
    body = json.dumps({"data": payload, "game": game}, separators=(",", ":")).encode()
    if len(body) > SEAL_BYTES:
        raise ValueError("sealed payload too long")  # a programming error, not input
    return _box().encrypt(body.ljust(SEAL_BYTES)).decode()


def unseal(token: str, game: str) -> dict[str, object]:
    """The payload of a token; a 400 if it was tampered with or belongs to another game."""
    try:
        body = json.loads(_box().decrypt(token.encode()))
    except (InvalidToken, ValueError) as e:
        raise InputError(
            "this game token is damaged, from another server, or sealed with a key this server no longer accepts "
            "(its keys are changed from time to time): start a new game"
        ) from e
    if not isinstance(body, dict) or body.get("game") != game or not isinstance(body.get("data"), dict):
        raise InputError("this game token belongs to a different game")
    data: dict[str, object] = body["data"]
    return data


def _digest(history: str) -> str:
    """What a token records of the move list."""
    return hashlib.sha256(history.encode()).hexdigest()[:32]


@dataclass(frozen=True)
class Record:
    """A game's authoritative state in the store: its latest history and token, and how it ended (None: on)."""

    history: str
    token: str
    ending: str | None

    def dump(self) -> bytes:
        """Bytes for the store."""
        return json.dumps([self.history, self.token, self.ending]).encode()


@dataclass(frozen=True)
class Hidden(Generic[T]):
    """An opened token: the game's id and secret, and where this position stands: 'live' (the latest position of
    a game still on), 'earlier' (the game has moved on; read-only) or 'over'."""

    id: str
    secret: T
    standing: str
    record: Record

    def may_take_back(self, moved: bool, over: bool = False) -> bool:
        """Whether the page offers a take-back: the latest position of a game still on, with a move in effect (every
        sealed game's take-back form is offered on this one condition)."""
        return self.standing == "live" and moved and not over


GONE = (
    f"this game is not kept here any more: a game is kept at least {GAME_KEEP_DAYS} days after its last move or "
    "view, then may make room for others (or it was started on another server); start a new one"
)


def _load(game_id: str) -> tuple[Record, bytes]:
    """A game's record (InputError if there is none)."""
    blob = app_store().get(f"{GAME_PREFIX}{game_id}")
    if blob is None:
        raise InputError(GONE)
    history, token, ending = json.loads(blob)
    return Record(str(history), str(token), None if ending is None else str(ending)), blob


def _token(kind: str, game_id: str, secret: dict[str, object], history: str) -> str:
    """The token for one position."""
    return seal({"id": game_id, "s": secret, "h": _digest(history)}, kind)


def _new_game(kind: str, secret: dict[str, object]) -> str:
    """Record a new game with its secret; its first token."""
    game_id = secrets.token_hex(8)
    token = _token(kind, game_id, secret, "")
    try:
        app_store().put(f"{GAME_PREFIX}{game_id}", Record("", token, None).dump())
    except GamesFull:
        raise Busy(
            503,
            f"The site holds as many games as it has room for, each played within the last {GAME_KEEP_DAYS} days, "
            "so no new one was started. Try again later.",
            GAMES_FULL_RETRY_SECONDS,
            "No room for a new game",
        ) from None
    return token


def _open_game(token: str, kind: str, history: str, sep: str) -> Hidden[dict[str, object]]:
    """Check a token against the position's history and the game's record (the page is the visitor's alone: its
    record moves on, and its token is a key to the game)."""
    caching.private()
    data = unseal(token, kind)
    game_id, secret = str(data.get("id", "")), data.get("s")
    if data.get("h") != _digest(history) or not isinstance(secret, dict):
        raise InputError("this position is not part of this game's history (its token vouches for another one)")
    record, _ = _load(game_id)
    if record.history == history:
        standing = "over" if record.ending is not None else "live"
    elif history == "" or record.history.startswith(history + sep):
        standing = "earlier"
    else:
        raise InputError("this position is not part of this game's history")
    return Hidden(game_id, secret, standing, record)


def _swap(kind: str, h: Hidden[T], new_history: str, ending: str | None, dump: Callable[[T], dict[str, object]]) -> str:
    """Move the record on from this position (refused unless it is the live one); the new token."""
    if h.standing != "live":
        raise MovedOn("this game is over" if h.standing == "over" else "this game has moved on since this position")
    record, blob = _load(h.id)
    token = _token(kind, h.id, dump(h.secret), new_history)
    if not app_store().swap(f"{GAME_PREFIX}{h.id}", blob, Record(new_history, token, ending).dump()):
        _load(h.id)  # gone meanwhile: says so
        raise MovedOn("this game has moved on since this position")
    return token


@dataclass(frozen=True)
class HiddenGame(Generic[T]):
    """One kind of game with a hidden secret of type T: how its secret is written into a token (dump) and read
    back (load, an InputError for anything else), and the separator of its moves in the history text. Every
    game is named by a kind (its parameters), so a token of one game never opens another."""

    sep: str
    dump: Callable[[T], dict[str, object]]
    load: Callable[[dict[str, object]], T]

    def start(self, kind: str, secret: T) -> str:
        """Record a new game with its secret; its first token."""
        return _new_game(kind, self.dump(secret))

    def open(self, token: str, kind: str, history: str) -> Hidden[T]:
        """The position a token vouches for, checked against the history shown and the game's record."""
        h = _open_game(token, kind, history, self.sep)
        return Hidden(h.id, self.load(h.secret), h.standing, h.record)

    def latest(self, token: str, kind: str) -> Record:
        """The latest position of the game a token (of any of its positions) belongs to."""
        data = unseal(token, kind)
        record, _ = _load(str(data.get("id", "")))
        return record

    def advance(self, kind: str, h: Hidden[T], new_history: str, ended: str | None = None) -> str:
        """Record a move (and, if it ends the game, how); the token of the new position."""
        return _swap(kind, h, new_history, ended, self.dump)

    def take_back(self, kind: str, h: Hidden[T], log: tuple[str, ...], what: str) -> tuple[str, str]:
        """Take the last move in effect back (IllegalMoveError, naming what a move is in this game, when none is):
        it stays in the log, counted, and the record moves on, so the position before it cannot be played from
        again; the new history and its position's token. Every sealed game's take-back form comes here."""
        if not from_log(log).applied:
            raise IllegalMoveError(f"there is no {what} to take back")
        history = self.sep.join((*log, TAKE_BACK))
        return history, self.advance(kind, h, history)

    def finish(self, kind: str, h: Hidden[T], ending: str) -> str:
        """End the game at this position (for example with the player's guess); the token that shows the end."""
        return _swap(kind, h, h.record.history, ending, self.dump)


def whole_field(data: dict[str, object], name: str) -> int:
    """A whole number a sealed secret holds (InputError if it does not: a token of an older format)."""
    value = data.get(name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise InputError("this game token is from an older version of the site: start a new game")
    return value


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


def case_secret(secret: dict[str, object]) -> Case:
    """The honest scale's fake from a game's secret."""
    coin = secret.get("coin")
    return Case(coin, bool(secret.get("heavier"))) if isinstance(coin, int) else Case(None)


HONEST_SCALE = HiddenGame[Case](";", lambda c: {"coin": c.coin, "heavier": c.heavier}, case_secret)

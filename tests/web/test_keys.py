"""Keys made per install, never shipped: a fresh instance makes its own key (mode 0600), a key once published in
git is replaced, and a rotated key keeps what it signed readable while it is a fallback, and refused clearly
(a 400, never a 500) once it is dropped."""

from __future__ import annotations

import hashlib
import logging
import os
import string
from pathlib import Path

import pytest
from flask import Flask

from tests.web.forms import form_token
from tests.web.test_honest_games import honest_game, weigh
from webapp import config, create_app
from webapp.commands.cli import main


@pytest.fixture
def instance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty instance folder and no key in the environment."""
    monkeypatch.delenv("COIN_PUZZLES_SECRET", raising=False)
    monkeypatch.delenv("COIN_PUZZLES_SECRET_FALLBACKS", raising=False)
    monkeypatch.setenv("COIN_PUZZLES_INSTANCE", str(tmp_path / "instance"))
    return tmp_path / "instance"


def test_each_install_makes_its_own_private_key(tmp_path: Path, instance: Path) -> None:
    """Two fresh instance folders: two different 256-bit keys, each mode 0600, each read back unchanged."""
    one, two = config.keys(tmp_path / "a"), config.keys(tmp_path / "b")
    assert one.current != two.current and len(one.current) == 64 and not one.fallbacks
    for folder, keys in ((tmp_path / "a", one), (tmp_path / "b", two)):
        assert (folder / "secret_key").stat().st_mode & 0o777 == 0o600
        assert config.keys(folder) == keys


def test_the_published_key_is_replaced_with_a_warning(
    instance: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """An instance folder holding a key once published in git is compromised: the app makes a new key, warns once,
    and starts; the published key is no fallback either."""
    leaked = "0123456789abcdef" * 4
    monkeypatch.setattr(config, "PUBLISHED_KEY_SHA256", frozenset({hashlib.sha256(leaked.encode()).hexdigest()}))
    instance.mkdir()
    (instance / "secret_key").write_text(leaked + "\n")
    monkeypatch.setenv("COIN_PUZZLES_SECRET_FALLBACKS", leaked)
    with caplog.at_level(logging.WARNING, logger="coin_puzzles"):
        app = create_app({"TESTING": True})
        create_app({"TESTING": True})
    assert app.config["SECRET_KEY"] != leaked and app.config["SECRET_KEY_FALLBACKS"] == []
    assert (instance / "secret_key").read_text().strip() == app.config["SECRET_KEY"]
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "once published in the project's git repository" in warnings[0]
    assert app.test_client().get("/").status_code == 200


def test_the_published_key_in_the_environment_is_refused(
    instance: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """COIN_PUZZLES_SECRET set to a published key: the CLI's store refuses it with exit status 2 and a reason."""
    leaked = "f" * 64
    monkeypatch.setattr(config, "PUBLISHED_KEY_SHA256", frozenset({hashlib.sha256(leaked.encode()).hexdigest()}))
    monkeypatch.setenv("COIN_PUZZLES_SECRET", leaked)
    with pytest.raises(config.ConfigError, match="published"):
        config.keys(instance)
    assert main(["worker", "--queue", "visitors"]) == 2 and "published" in capsys.readouterr().err
    assert main(["rotate-key"]) == 0  # says so, and prints a key to use instead (the published one not kept)
    out = capsys.readouterr().out
    assert "published" in out and "COIN_PUZZLES_SECRET_FALLBACKS=\n" in out


@pytest.mark.parametrize(
    "weak",
    [
        "x",
        "system",
        "0123456789abcdef" * 2,
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        "abcdefgh" * 6,  # long enough and varied enough by its alphabet, but one pattern repeated
        "0123456789abcdef" * 4,
        hashlib.sha256(b"half a key").hexdigest()[:32] * 2,  # 128 bits that look random, written twice
        string.ascii_uppercase + string.ascii_lowercase + string.digits + "+/",  # the base64 alphabet in order
        string.ascii_lowercase[::2] + string.ascii_uppercase[::2] + string.ascii_lowercase[1::2] + "0246813579",
        "".join(chr(c) for c in range(33, 127)),  # every printable character, in order
        "".join(
            a + b + c
            for a, b, c in zip(string.ascii_lowercase, string.ascii_uppercase, string.digits * 3, strict=False)
        ),  # noqa: E501 - runs interleaved
    ],
)
def test_a_weak_key_in_the_environment_is_refused(instance: Path, monkeypatch: pytest.MonkeyPatch, weak: str) -> None:
    """A key of less than 32 bytes of entropy (short, few distinct characters, repetitive: it compresses far
    better than a random key of its alphabet and length, or an alphabet in order or by strides, which does not
    compress but steps by one difference) is refused with the reason."""
    monkeypatch.setenv("COIN_PUZZLES_SECRET", weak)
    with pytest.raises(config.ConfigError, match="too weak"):
        config.keys(instance)
    assert main(["worker", "--queue", "visitors"]) == 2
    monkeypatch.setenv("COIN_PUZZLES_SECRET", config.new_key())
    assert config.keys(instance).current == os.environ["COIN_PUZZLES_SECRET"]


def _app(store: Path, current: str, *fallbacks: str) -> Flask:
    """An app with these keys over one shared result store."""
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": current,
            "SECRET_KEY_FALLBACKS": list(fallbacks),
            "RESULT_STORE": f"sqlite:{store}",
        }
    )


def test_rotation_end_to_end(tmp_path: Path) -> None:
    """A game sealed, a session and a form token made before a rotation still work after it (the old key is a
    fallback); new tokens use the new key; once the fallback is dropped the old token gets a clear 400."""
    store = tmp_path / "results.db"
    before = _app(store, "key-one").test_client()
    csrf, position = honest_game(before)
    cookie = before.get_cookie("session")
    assert cookie is not None
    after = _app(store, "key-two", "key-one").test_client()
    after.set_cookie("session", cookie.value)
    moved = weigh(after, csrf, position, [1, 2, 3, 4], [5, 6, 7, 8])  # old CSRF token, old session, old game token
    assert isinstance(moved, str) and moved.startswith("/adversary/play?")
    only_new = _app(store, "key-two").test_client()
    only_new.set_cookie("session", after.get_cookie("session").value)  # type: ignore[union-attr]
    r = only_new.get("/adversary/play?" + moved.split("?", 1)[1])  # made after the rotation: opens
    assert r.status_code == 200
    refused = only_new.get("/adversary/play?" + "&".join(f"{k}={v}" for k, v in position.items()))
    text = refused.get_data(as_text=True)
    assert refused.status_code == 400 and "sealed with a key this server no longer accepts" in text
    # a weighing posted with a valid form token of its own: refused for the old game token (it once passed on a
    # refused form token instead, a 400 for another reason)
    own = form_token(only_new, "/adversary")
    refusal = weigh(only_new, own, position, [1], [2])
    assert isinstance(refusal, tuple) and refusal[0] == 400
    assert refusal[1].startswith("this game token is damaged, from another server, or sealed with a key")


def test_rotate_key_command(instance: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`coin-puzzles rotate-key` makes a new key and keeps the old one as a fallback (both files 0600);
    `--forget-old` drops the fallbacks."""
    first = config.keys(instance).current
    assert main(["rotate-key"]) == 0
    keys = config.keys(instance)
    assert keys.current != first and keys.fallbacks == (first,)
    assert (instance / "secret_key_fallbacks").stat().st_mode & 0o777 == 0o600
    assert main(["rotate-key"]) == 0 and config.keys(instance).fallbacks == (keys.current, first)
    assert "no restart" in capsys.readouterr().out.lower()
    assert main(["rotate-key", "--forget-old"]) == 0
    assert config.keys(instance).fallbacks == () and not (instance / "secret_key_fallbacks").exists()


def test_rotate_key_with_the_key_in_the_environment(
    instance: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """With COIN_PUZZLES_SECRET set, the command cannot change the environment: it prints the two settings to use."""
    env_key, older = config.new_key(), config.new_key()
    monkeypatch.setenv("COIN_PUZZLES_SECRET", env_key)
    monkeypatch.setenv("COIN_PUZZLES_SECRET_FALLBACKS", older)
    assert main(["rotate-key"]) == 0
    out = capsys.readouterr().out
    assert f"COIN_PUZZLES_SECRET_FALLBACKS={env_key},{older}" in out
    new = next(line.split("=", 1)[1] for line in out.splitlines() if line.startswith("COIN_PUZZLES_SECRET="))
    assert len(new) == 64 and new != env_key


def test_random_keys_are_never_refused_as_patterned() -> None:
    """Keys drawn at random at the sizes the docs suggest (64 hex digits, 43 base64 characters) keep their full
    estimate: the compression and stride checks refuse patterns, not chance."""
    import secrets

    assert all(config.key_bits(config.new_key()) >= config.MIN_KEY_BITS for _ in range(500))
    assert all(config.key_bits(secrets.token_urlsafe(43)) >= config.MIN_KEY_BITS for _ in range(500))

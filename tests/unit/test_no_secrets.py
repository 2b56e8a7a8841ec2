"""No secret in git: the instance folder, key files and bare keys are never tracked (detect-secrets, run by
`make lint`, catches keys and passwords inside source files; this catches what it does not look for)."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SECRET_NAMES = re.compile(
    r"(^|/)(instance/|\.env$|id_(rsa|dsa|ecdsa|ed25519)\b|[^/]*secret[_-]?key[^/]*$)|\.(key|pem|p12|pfx|keystore|jks)$"
)
BARE_KEY = re.compile(rb"\A\s*[A-Za-z0-9+/=_-]{32,}\s*\Z")  # a file that is nothing but one long token
PRIVATE_KEY = re.compile(rb"-----BEGIN [A-Z ]*PRIVATE KEY-----")


def secret_looking(root: Path, paths: Iterable[str]) -> list[str]:
    """The paths among these that look like secrets, by name or by content."""
    found = []
    for path in paths:
        if SECRET_NAMES.search(path):
            found.append(path)
            continue
        file = root / path
        if file.is_file() and file.stat().st_size < 1_000_000:
            data = file.read_bytes()
            if BARE_KEY.match(data) or PRIVATE_KEY.search(data):
                found.append(path)
    return found


def tracked() -> list[str]:
    """Every file git tracks in this checkout."""
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
    return [p for p in out.stdout.decode().split("\0") if p]


def test_no_tracked_file_looks_secret() -> None:
    """The repository holds no instance folder, key file, bare key or private key."""
    assert secret_looking(ROOT, tracked()) == []


@pytest.mark.parametrize(
    ("path", "content"),
    [
        ("instance/secret_key", b"x"),
        ("deploy/site.key", b"x"),
        ("deploy/tls.pem", b"x"),
        ("config/secret-key.txt", b"x"),
        (".env", b"A=1"),
        ("notes/token", b"4a1f0c2e9b8d7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b\n"),
        ("docs/k.txt", b"-----BEGIN OPENSSH " + b"PRIVATE KEY-----\nabc\n"),  # split: this file is scanned too
    ],
)
def test_the_check_catches_each_kind(tmp_path: Path, path: str, content: bytes) -> None:
    """Each kind of secret file is reported (so the check above can fail)."""
    file = tmp_path / path
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_bytes(content)
    assert secret_looking(tmp_path, [path]) == [path]


def test_ordinary_files_pass(tmp_path: Path) -> None:
    """Source, data and a one-word file are not secrets."""
    for path, content in (("a.py", b"x = 1\n"), ("games/m.game", b"secrets: sequences length=4\n"), ("v", b"1.0\n")):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_bytes(content)
    assert secret_looking(tmp_path, ["a.py", "games/m.game", "v"]) == []


def test_detect_secrets_fails_on_an_added_key(tmp_path: Path) -> None:
    """make lint's scanner, as it runs there, exits non-zero on a source file holding a key."""
    import sys

    source = tmp_path / "settings.py"
    source.write_text('SECRET_KEY = "kR9vQ2xLm8ZpT4wY7nB3cF6hJ1sD5gA0eU2iO9pL"\n')  # pragma: allowlist secret
    hook = Path(sys.executable).parent / "detect-secrets-hook"
    done = subprocess.run([str(hook), "--exclude-secrets", "^(sequences|coins)", str(source)], capture_output=True)
    assert done.returncode != 0 and b"Secret Keyword" in done.stdout

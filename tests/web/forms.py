"""Helpers for posting forms in the Flask client tests."""

from __future__ import annotations

import html
import re

from flask.testing import FlaskClient
from werkzeug.test import TestResponse


def form_token(client: FlaskClient, path: str) -> str:
    """The CSRF token of the form on a page."""
    match = re.search(r'name="csrf_token" value="([^"]+)"', client.get(path).get_data(as_text=True))
    assert match, f"no form with a CSRF token on {path}"
    return match.group(1)


def refused(client: FlaskClient, url: str, message: str, status: int = 400) -> None:
    """A GET answered with this status and the page naming this refusal (so the right check refused it)."""
    r = client.get(url)
    text = re.sub(r"\s+", " ", r.get_data(as_text=True))
    assert r.status_code == status, (url, r.status_code)
    assert message in text, (url, message)


def refusal(r: TestResponse) -> tuple[int, str]:
    """A refused request's status and the message its error page gives (role=alert, less the full stop the page
    ends a message with), or its JSON error."""
    if r.is_json:
        return r.status_code, str(r.get_json().get("error", ""))
    found = re.search(r'role="alert"[^>]*>(.*?)</p>', r.get_data(as_text=True), re.S)
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(1))).strip() if found else ""
    return r.status_code, html.unescape(text).removesuffix(".")

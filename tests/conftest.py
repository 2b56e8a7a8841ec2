"""Shared fixtures: the app (flaskr-style factory) and its test client."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import settings

from webapp import create_app

# CI runs the same examples every time (a red CI blocks landing); local runs keep exploring new ones.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture
def app() -> Iterator[Flask]:
    """A testing app with CSRF on (as in production)."""
    yield create_app({"TESTING": True, "SECRET_KEY": "test-secret"})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client."""
    return app.test_client()

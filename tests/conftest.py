"""Shared fixtures: the app (flaskr-style factory) and its test client."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from webapp import create_app


@pytest.fixture
def app() -> Iterator[Flask]:
    """A testing app with CSRF on (as in production)."""
    yield create_app({"TESTING": True, "SECRET_KEY": "test-secret"})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client."""
    return app.test_client()

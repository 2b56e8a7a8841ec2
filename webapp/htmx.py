"""htmx helpers: fragment or full page."""

from __future__ import annotations

from typing import Any

from flask import render_template, request


def wants_fragment() -> bool:
    """True for an htmx request that is not a history restore (which needs the full page)."""
    return request.headers.get("HX-Request") == "true" and request.headers.get("HX-History-Restore-Request") != "true"


def render(page: str, fragment: str, **context: Any) -> str:
    """Render the fragment for htmx requests, the full page otherwise."""
    partial = wants_fragment()
    return render_template(fragment if partial else page, fragment=partial, **context)

"""An axe accessibility scan shared by the browser tests."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page


def assert_accessible(page: Page, base: str, paths: list[str]) -> None:
    """Open each page and fail on any serious or critical axe violation."""
    axe = Axe()
    for path in paths:
        page.goto(base + path)
        bad = [v["id"] for v in axe.run(page).response["violations"] if v["impact"] in ("serious", "critical")]
        assert not bad, (path, bad)

"""An axe accessibility scan shared by the browser tests."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

AXE = Axe()
ONLY_VIOLATIONS = {"resultTypes": ["violations"]}  # axe then details no passing or incomplete check: a quarter faster


def serious(page: Page) -> list[str]:
    """The ids of the page's serious or critical axe violations, as it is now."""
    found = AXE.run(page, options=ONLY_VIOLATIONS).response["violations"]
    return [v["id"] for v in found if v["impact"] in ("serious", "critical")]


def assert_accessible(page: Page, base: str, paths: list[str]) -> None:
    """Open each page and fail on any serious or critical axe violation."""
    for path in paths:
        page.goto(base + path)
        bad = serious(page)
        assert not bad, (path, bad)

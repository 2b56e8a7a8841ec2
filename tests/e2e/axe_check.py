"""An axe accessibility scan shared by the browser tests."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

AXE = Axe()
ONLY_VIOLATIONS = {"resultTypes": ["violations"]}  # axe then details no passing or incomplete check: a quarter faster


COLOUR_RULES = ["color-contrast", "link-in-text-block"]  # the rules whose outcome depends on the colours alone


def serious(page: Page, contrast_only: bool = False) -> list[str]:
    """The ids of the page's serious or critical axe violations, as it is now (contrast_only: the colour rules
    alone, for a page seen again in its other theme, where only the colours differ: half the time)."""
    options = {**ONLY_VIOLATIONS, "runOnly": COLOUR_RULES} if contrast_only else ONLY_VIOLATIONS
    if not page.evaluate("typeof window.axe === 'object'"):  # axe-core, once a document (0.1 s of Chromium each)
        page.evaluate(AXE.axe_script)
    found = page.evaluate("options => axe.run(options)", options)["violations"]
    return [v["id"] for v in found if v["impact"] in ("serious", "critical")]


def assert_accessible(page: Page, base: str, paths: list[str]) -> None:
    """Open each page and fail on any serious or critical axe violation."""
    for path in paths:
        page.goto(base + path)
        bad = serious(page)
        assert not bad, (path, bad)

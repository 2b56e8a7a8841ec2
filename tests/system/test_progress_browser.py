"""In a real browser against the app as `make run` serves it: a heavy page shows a progress bar, then the result at
the same URL, with JavaScript (htmx polling) and without (the page refreshes itself)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.system.conftest import Served

HEAVY_PAGE = "/devil/solution?n=15"  # the whole-table search for 15 coins runs as a job


@pytest.mark.slow
@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_heavy_page_shows_progress_then_the_result(
    javascript: bool, browser: Browser, serve: Callable[..., Served], tmp_path: Path
) -> None:
    """The first visit answers at once with a progress bar; the result replaces it without any click."""
    app = serve()
    context = browser.new_context(java_script_enabled=javascript, viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(app.url + HEAVY_PAGE)
    expect(page.get_by_role("heading", name="Computing the Devil's game for 15 coins")).to_be_visible()
    expect(page.locator("progress")).to_be_attached()
    page.screenshot(path=str(Path("test-results") / f"progress-{'js' if javascript else 'nojs'}.png"))
    expect(page.get_by_text("No sequence of moves is sure to win").first).to_be_visible(timeout=60_000)
    assert page.url.endswith(HEAVY_PAGE)
    context.close()

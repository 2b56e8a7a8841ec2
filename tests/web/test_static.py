"""The vendored htmx file is the pinned release; the layout gives links and forms their htmx."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_htmx_hash_matches_readme() -> None:
    """static/vendor/README.md pins the version and sha256; the file must match it."""
    readme = (ROOT / "static/vendor/README.md").read_text()
    match = re.search(r"`(htmx-(2\.\d+\.\d+)\.min\.js)`.*?\| (\2) \| `([0-9a-f]{64})`", readme)
    assert match, "README must name the file, version and sha256"
    data = (ROOT / "static/vendor" / match.group(1)).read_bytes()
    assert hashlib.sha256(data).hexdigest() == match.group(4)
    assert b"htmx" in data[:200]


def test_base_template_loads_that_file() -> None:
    """The base template loads exactly the pinned file."""
    assert "vendor/htmx-2.0.11.min.js" in (ROOT / "templates/base.html").read_text()


def test_the_layout_boosts_links_and_forms() -> None:
    """Links and forms get htmx from the layout's hx-boost, never a copy of their own address (hx-get next to
    href, hx-post next to action, hx-push-url); a link to JSON opts out, or the JSON would be swapped into the
    page."""
    templates = ROOT / "templates"
    assert 'hx-boost="true"' in (templates / "base.html").read_text()
    json_links = 0
    for path in templates.rglob("*.html"):
        text = path.read_text()
        assert "hx-push-url" not in text and "hx-post" not in text, path
        assert not re.search(r"<a [^>]*hx-get", text), path
        for link in re.findall(r'<a [^>]*href="[^"]*(?:api_url|_api\.)[^>]*>', text):
            json_links += 1
            assert 'hx-boost="false"' in link, (path, link)
    assert json_links >= 3

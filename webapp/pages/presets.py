"""The classic sizes of each puzzle (each puzzle's entry lists its own), one click each beside its custom form (a
Jinja global: `presets(puzzle)`).
A preset that starts a game with a sealed secret (the random code maker's) posts to its start form: its endpoint
is a POST route, and the preset is a button with the query as the form's fields."""

from __future__ import annotations

from typing import NamedTuple

from flask import current_app, url_for

from webapp.http.htmx import link
from webapp.pages.registry import PUZZLES


class Preset(NamedTuple):
    """One classic size: its label, and where it goes (a link, or a form posted with these fields)."""

    label: str
    url: str
    fields: dict[str, str] | None  # None: a link; else the fields of a form posted to url
    note: str = ""  # what makes it worth playing, where said


def presets(puzzle: str) -> list[Preset]:
    """The puzzle's classic sizes (its entry's `presets`, `registry`)."""
    out = []
    specs = next((p.presets for p in PUZZLES if p.area == puzzle), ())
    for label, endpoint, query, *note in specs:
        posted = "POST" in (next(current_app.url_map.iter_rules(endpoint)).methods or ())
        said = note[0] if note else ""
        url = url_for(endpoint) if posted else link(endpoint, query)
        out.append(Preset(label, url, query if posted else None, said))
    return out

"""What a puzzle tells the site about itself: each puzzle's module defines its `Puzzle`, and `registry.PUZZLES`
lists them, once, for the factory (its blueprints), the home page, the footers, the presets and the error pages'
way back."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint

# a classic size: (label, endpoint, query), or (label, endpoint, query, a line on what makes it worth playing)
PresetSpec = tuple[str, str, dict[str, str]] | tuple[str, str, dict[str, str], str]


@dataclass(frozen=True)
class Puzzle:
    """One puzzle of the site."""

    area: str  # its pages' blueprint's name, and the word its footer and error pages are found by
    name: str  # for people
    endpoint: str  # its first page
    blurb: str  # its line on the home page
    picture: str  # the home page thumbnail's text alternative
    sources: str  # its footer: how its answers are checked, and the publications behind them
    blueprints: tuple[Blueprint, ...]  # its pages and its JSON API
    presets: tuple[PresetSpec, ...] = ()  # its classic sizes, one click each (`presets`)

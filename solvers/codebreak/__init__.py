"""A general engine for code-breaking games (after Klimoš's COBRA): games as data, strategies as trees."""

from .game import COLOUR_NAMES, Game, Spec, build, parse
from .strategy import HEURISTICS, STRATEGIES, Proving, Stats, Strategy, build_tree, choose, to_dot, to_json, verify
from .tree import Node

__all__ = [
    "COLOUR_NAMES",
    "HEURISTICS",
    "STRATEGIES",
    "Game",
    "Node",
    "Proving",
    "Spec",
    "Stats",
    "Strategy",
    "build",
    "build_tree",
    "choose",
    "parse",
    "to_dot",
    "to_json",
    "verify",
]

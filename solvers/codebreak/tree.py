"""A strategy as a tree: the experiment at each node and a child per outcome."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Node:
    """A strategy tree node: the experiment made, and the node for each outcome (None: solved)."""

    experiment: int | None
    secrets: int  # how many secrets reach this node
    children: dict[int, Node | None] = field(default_factory=dict)
    solved: int | None = None  # the secret known at a leaf (know-the-secret games)

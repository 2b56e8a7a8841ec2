"""The plain-Python baseline of the compiled peg search (`solvers.pegs.compiled`): the same depth-first search for
any solution, with a table of dead positions up to symmetry, position by position in Python (`benchmarks/pegs.py`
compares the two)."""

from __future__ import annotations

from dataclasses import dataclass

from solvers.pegs.board import Board, Jump
from solvers.pegs.rules import apply_jump, canonical, legal_jumps, pegs

DFS_NODE_LIMIT = 50_000


@dataclass(frozen=True)
class Found:
    """The result of a depth-first search: a solution (as jumps), proof of none, or out of budget."""

    jumps: tuple[Jump, ...] | None
    exhausted: bool
    nodes: int


def _orders(b: Board) -> list[dict[Jump, float]]:
    """Jump orderings to try in turn: the board's own order, then 'land near the middle, jump an outer coin'."""
    cx = sum(x for x, _ in b.points) / b.size
    cy = sum(y for _, y in b.points) / b.size
    dist = [(x - cx) ** 2 + (y - cy) ** 2 for x, y in b.points]
    plain = {j: float(i) for i, j in enumerate(b.jumps)}
    inward = {j: dist[j[2]] - dist[j[1]] for j in b.jumps}
    return [plain, inward]


def find_solution(b: Board, pos: int, node_limit: int = DFS_NODE_LIMIT, finish: int | None = None) -> Found:
    """Any solution to one coin (on hole `finish` when given), by depth-first search with a table of dead
    positions up to the symmetries that keep the finish hole in place.

    Two jump orderings are tried in turn, each within the node limit; a search that runs out in both reports
    'not exhausted'. Dead positions found by an exhausted search are proofs, so 'exhausted' means unsolvable.
    """
    total = 0
    for order in _orders(b):
        found = _dfs(b, pos, node_limit, order, finish)
        total += found.nodes
        if found.jumps is not None or found.exhausted:
            return Found(found.jumps, found.exhausted, total)
    return Found(None, False, total)


def _dfs(b: Board, pos: int, node_limit: int, order: dict[Jump, float], finish: int | None) -> Found:
    """One depth-first search with a given jump ordering."""
    dead: set[int] = set()
    path: list[Jump] = []
    nodes = 0

    def go(p: int) -> bool:
        nonlocal nodes
        if pegs(p) == 1:
            return finish is None or p == 1 << finish
        key = canonical(b, p, finish)
        if key in dead:
            return False
        nodes += 1
        if nodes > node_limit:
            raise TimeoutError
        for j in sorted(legal_jumps(b, p), key=order.__getitem__):
            path.append(j)
            if go(apply_jump(p, j)):
                return True
            path.pop()
        dead.add(key)
        return False

    try:
        ok = go(pos)
    except TimeoutError:
        return Found(None, False, nodes)
    return Found(tuple(path) if ok else None, True, nodes)

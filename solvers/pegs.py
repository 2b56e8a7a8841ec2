"""Peg solitaire (Matt Parker's coin triangle and classic boards) on bitboards.

A position is an integer: bit i set means hole i holds a coin. A jump takes a coin over an adjacent coin along
a line of the board into an empty hole and removes the jumped coin. A move is a chain of jumps by one coin.
Small boards (up to 21 holes) are solved exactly: breadth-first layers by moves, vectorised with NumPy, give
the fewest moves to every final and a solution found back through the layers; memoised recursion counts the
jump sequences. Larger boards get a depth-first search for
any solution, pruned by a table of dead positions up to the board's symmetries.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from solvers.errors import IllegalMoveError, InputError, LimitError

Jump = tuple[int, int, int]  # from, over, to (hole indices)
Move = tuple[int, ...]  # the holes a coin visits: start, then each landing
EXACT_MAX_HOLES = 21
DFS_NODE_LIMIT = 50_000
INF = 10**9


@dataclass(frozen=True)
class Board:
    """Holes (labels and drawing coordinates), the jumps along its lines, and its symmetries."""

    name: str
    labels: tuple[str, ...]
    points: tuple[tuple[float, float], ...]
    jumps: tuple[Jump, ...]
    symmetries: tuple[tuple[int, ...], ...]
    colourings: tuple[tuple[int, ...], ...]  # each hole's colour mod 3 in two colourings that every jump crosses

    @property
    def size(self) -> int:
        """Number of holes."""
        return len(self.labels)

    @property
    def full(self) -> int:
        """The position with every hole filled."""
        return (1 << self.size) - 1

    def index(self, label: str) -> int:
        """Hole index from its label."""
        try:
            return self.labels.index(label.strip().lower())
        except ValueError as e:
            raise InputError(f"board {self.name} has no hole {label!r}") from e

    def start(self, label: str) -> int:
        """The full board with one hole empty."""
        return self.full & ~(1 << self.index(label))


def _make(
    name: str,
    cells: list[tuple[int, int]],
    labels: list[str],
    dirs: list[tuple[int, int]],
    sym: list[dict[tuple[int, int], tuple[int, int]]],
    points: list[tuple[float, float]],
) -> Board:
    """A board from cells, directions and symmetry maps on cells."""
    where = {c: i for i, c in enumerate(cells)}
    jumps = []
    for (r, c), i in where.items():
        for dr, dc in dirs:
            over, to = (r + dr, c + dc), (r + 2 * dr, c + 2 * dc)
            if over in where and to in where:
                jumps.append((i, where[over], where[to]))
    perms = sorted({tuple(where[s[c]] for c in cells) for s in sym})
    colourings = []
    for a, bb in ((1, 1), (1, -1), (1, -2), (2, 1)):
        colour = tuple((a * r + bb * c) % 3 for r, c in cells)
        if all(len({colour[f], colour[o], colour[t]}) == 3 for f, o, t in jumps):
            colourings.append(colour)
    return Board(name, tuple(labels), tuple(points), tuple(jumps), tuple(perms), tuple(colourings[:2]))


def triangle(k: int) -> Board:
    """The triangle with k holes a side, numbered 1.. row by row from the apex."""
    cells = [(r, c) for r in range(k) for c in range(r + 1)]
    dirs = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1)]

    def bary(cell: tuple[int, int]) -> tuple[int, int, int]:
        r, c = cell
        return c, r - c, k - 1 - r

    def back(a: int, b: int, d: int) -> tuple[int, int]:
        return k - 1 - d, a

    orders = [(0, 1, 2), (1, 2, 0), (2, 0, 1), (1, 0, 2), (0, 2, 1), (2, 1, 0)]
    sym = [{cell: back(*(bary(cell)[o] for o in order)) for cell in cells} for order in orders]
    points = [(c - r / 2, r * 0.866) for r, c in cells]
    return _make(f"triangle-{k}", cells, [str(i + 1) for i in range(len(cells))], dirs, sym, points)


def _square_symmetry(k: int, r: int, c: int) -> tuple[int, int]:
    """The k-th of the 8 symmetries of the 7x7 square, applied to a cell."""
    for _ in range(k % 4):
        r, c = c, 6 - r
    return (r, 6 - c) if k >= 4 else (r, c)


def cross(name: str, french: bool) -> Board:
    """The English 33-hole cross, or the French 37-hole board; holes a1..g7 (column letter, row from the top)."""
    cells = [
        (r, c)
        for r in range(7)
        for c in range(7)
        if 2 <= r <= 4 or 2 <= c <= 4 or (french and 1 <= r <= 5 and 1 <= c <= 5)
    ]
    dirs = [(0, 1), (0, -1), (1, 0), (-1, 0)]
    sym = [{(r, c): _square_symmetry(k, r, c) for r, c in cells} for k in range(8)]
    labels = [f"{'abcdefg'[c]}{r + 1}" for r, c in cells]
    return _make(name, cells, labels, dirs, sym, [(float(c), float(r)) for r, c in cells])


BOARDS: dict[str, Board] = {
    **{f"triangle-{k}": triangle(k) for k in range(4, 9)},
    "english": cross("english", False),
    "french": cross("french", True),
}


def board(name: str) -> Board:
    """A board by name."""
    if name not in BOARDS:
        raise InputError(f"unknown board {name!r}; boards: {', '.join(BOARDS)}")
    return BOARDS[name]


# ---------------------------------------------------------------- positions and jumps


def pegs(pos: int) -> int:
    """Number of coins on the board."""
    return pos.bit_count()


@lru_cache(maxsize=16)
def _jump_masks(b: Board) -> tuple[tuple[int, int, Jump], ...]:
    """Each jump with the bits that must be full (from, over) and empty (to)."""
    return tuple(((1 << f) | (1 << o), 1 << t, (f, o, t)) for f, o, t in b.jumps)


def legal_jumps(b: Board, pos: int) -> Iterator[Jump]:
    """Jumps possible in a position."""
    for full, empty, j in _jump_masks(b):
        if pos & full == full and not pos & empty:
            yield j


def apply_jump(pos: int, j: Jump) -> int:
    """The position after a jump."""
    f, o, t = j
    return pos & ~(1 << f) & ~(1 << o) | (1 << t)


def canonical(b: Board, pos: int) -> int:
    """The smallest image of a position under the board's symmetries."""
    best = pos
    for perm in b.symmetries:
        img = 0
        rest = pos
        while rest:
            low = rest & -rest
            img |= 1 << perm[low.bit_length() - 1]
            rest ^= low
        best = min(best, img)
    return best


def to_token(b: Board, pos: int) -> str:
    """A position as a compact string: the board's holes in order, 1 for a coin, 0 for empty, as hex."""
    return f"{pos:x}"


def from_token(b: Board, token: str) -> int:
    """Parse a position token; InputError if it is not a position of this board."""
    try:
        pos = int(token, 16)
    except ValueError as e:
        raise InputError("a position is a hexadecimal bitmask of the board's holes") from e
    if pos < 0 or pos > b.full or len(token) > 12:
        raise InputError(f"that position has coins outside the {b.size} holes of {b.name}")
    return pos


# ---------------------------------------------------------------- exact analysis for small boards


def image(perm: tuple[int, ...], pos: int) -> int:
    """A position moved by a symmetry of the board."""
    img = 0
    while pos:
        low = pos & -pos
        img |= 1 << perm[low.bit_length() - 1]
        pos ^= low
    return img


class Exact:
    """Exact analysis of one small board: fewest moves by vectorised breadth-first layers, counts by recursion."""

    def __init__(self, b: Board) -> None:
        """Empty memo tables for a board."""
        if b.size > EXACT_MAX_HOLES:
            raise LimitError(f"exact analysis is for boards of up to {EXACT_MAX_HOLES} holes")
        self.board = b
        self._count: dict[int, int] = {}
        self._layers: dict[int, list[NDArray[np.int64]]] = {}

    def layers(self, pos: int) -> list[NDArray[np.int64]]:
        """The layers from a position (kept for the last few positions asked)."""
        if pos not in self._layers:
            if len(self._layers) > 32:
                self._layers.clear()
            self._layers[pos] = fast_layers(self.board, pos)
        return self._layers[pos]

    def finals(self, pos: int) -> dict[int, int]:
        """Final hole -> fewest moves to finish there (empty: unsolvable)."""
        finals: dict[int, int] = {}
        for depth, layer in enumerate(self.layers(pos)):
            for q in layer[(layer != 0) & ((layer & (layer - 1)) == 0)]:
                finals.setdefault(int(q).bit_length() - 1, depth)
        return finals

    def min_moves(self, pos: int) -> int | None:
        """Fewest moves to one coin, or None if impossible."""
        f = self.finals(pos)
        return min(f.values()) if f else None

    def count(self, pos: int) -> int:
        """Number of jump sequences from pos that end with one coin."""
        if pos in self._count:
            return self._count[pos]
        total = 1 if pegs(pos) == 1 else sum(self.count(apply_jump(pos, j)) for j in legal_jumps(self.board, pos))
        self._count[pos] = total
        return total

    def solution(self, pos: int, final: int = -1) -> list[Move]:
        """A fewest-move solution (to a given final hole, or to the nearest one), found back through the layers."""
        f = self.finals(pos)
        if not f:
            return []
        target = final if final >= 0 else min(f, key=lambda h: (f[h], h))
        if target not in f:
            raise InputError("that final hole cannot be reached")
        layers, q, moves = self.layers(pos), 1 << target, []
        for depth in range(f[target], 0, -1):
            q, move = self._back(q, layers[depth - 1])
            moves.append(move)
        return list(reversed(moves))

    def _back(self, q: int, previous: NDArray[np.int64]) -> tuple[int, Move]:
        """A position of the previous layer and a move (a chain) from it to q."""
        back_jumps = [(f, o, t) for f, o, t in self.board.jumps]
        for h in range(self.board.size):
            if not q >> h & 1:
                continue
            stack: list[tuple[int, Move]] = [(q, (h,))]
            while stack:
                cur, path = stack.pop()
                for f, o, t in back_jumps:
                    if t == path[0] and cur >> t & 1 and not cur >> f & 1 and not cur >> o & 1:
                        before = (cur & ~(1 << t)) | (1 << f) | (1 << o)
                        move = (f, *path)
                        i = int(np.searchsorted(previous, before))
                        if i < previous.size and int(previous[i]) == before:
                            return before, move
                        stack.append((before, move))
        raise AssertionError("no way back to the previous layer")


@lru_cache(maxsize=16)
def exact(name: str) -> Exact:
    """The shared exact analyser for a small board."""
    return Exact(board(name))


# ---------------------------------------------------------------- search for larger boards


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


def find_solution(b: Board, pos: int, node_limit: int = DFS_NODE_LIMIT) -> Found:
    """Any solution to one coin, by depth-first search with a table of dead positions up to symmetry.

    Two jump orderings are tried in turn, each within the node limit; a search that runs out in both reports
    'not exhausted'. Dead positions found by an exhausted search are proofs, so 'exhausted' means unsolvable.
    """
    total = 0
    for order in _orders(b):
        found = _dfs(b, pos, node_limit, order)
        total += found.nodes
        if found.jumps is not None or found.exhausted:
            return Found(found.jumps, found.exhausted, total)
    return Found(None, False, total)


def _dfs(b: Board, pos: int, node_limit: int, order: dict[Jump, float]) -> Found:
    """One depth-first search with a given jump ordering."""
    dead: set[int] = set()
    path: list[Jump] = []
    nodes = 0

    def go(p: int) -> bool:
        nonlocal nodes
        if pegs(p) == 1:
            return True
        key = canonical(b, p)
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


def jumps_to_moves(jumps: tuple[Jump, ...] | list[Jump]) -> list[Move]:
    """Group consecutive jumps by the same coin into moves."""
    moves: list[list[int]] = []
    for f, _, t in jumps:
        if moves and moves[-1][-1] == f:
            moves[-1].append(t)
        else:
            moves.append([f, t])
    return [tuple(m) for m in moves]


def position_class(b: Board, pos: int) -> tuple[int, ...]:
    """An invariant of jumps: every jump flips the parity of the coins on each of three colours."""
    out = []
    for colour in b.colourings:
        n = [0, 0, 0]
        for h in range(b.size):
            if pos >> h & 1:
                n[colour[h]] += 1
        out += [(n[0] + n[1]) % 2, (n[1] + n[2]) % 2]
    return tuple(out)


def class_finals(b: Board, pos: int) -> list[int]:
    """Holes where a single last coin has the position's class (the only finals that can be reached)."""
    mine = position_class(b, pos)
    return [h for h in range(b.size) if position_class(b, 1 << h) == mine]


# ---------------------------------------------------------------- an independent rule checker


def replay(b: Board, pos: int, moves: list[Move]) -> int:
    """Play moves from a position by the rules, checking every jump; returns the final position."""
    lines = {(f, t): o for f, o, t in b.jumps}
    for move in moves:
        for f, t in zip(move, move[1:], strict=False):
            o = lines.get((f, t))
            if o is None:
                raise IllegalMoveError(f"{b.labels[f]} to {b.labels[t]} is not a jump along a line")
            if not (pos >> f & 1 and pos >> o & 1 and not pos >> t & 1):
                raise IllegalMoveError(f"{b.labels[f]} cannot jump over {b.labels[o]} into {b.labels[t]} here")
            pos = apply_jump(pos, (f, o, t))
    return pos


# ---------------------------------------------------------------- answers


@dataclass(frozen=True)
class Analysis:
    """What is known about a position."""

    solvable: bool | None
    min_moves: int | None
    min_jumps: int | None
    finals: dict[int, int] | None  # final hole -> fewest moves (exact boards only)
    solution: list[Move]
    method: str


EXACT_QUICK_HOLES = 21  # exact analysis in a web request: boards this small, or positions with few coins
EXACT_QUICK_PEGS = 16


def quick_exact(b: Board, pos: int) -> bool:
    """True when exact analysis of this position is quick enough for a request."""
    return b.size <= EXACT_QUICK_HOLES or (b.size <= EXACT_MAX_HOLES and pegs(pos) <= EXACT_QUICK_PEGS)


def analyse(b: Board, pos: int, thorough: bool = False, node_limit: int = DFS_NODE_LIMIT) -> Analysis:
    """Exact analysis on small boards (all of them when thorough); depth-first search on larger ones."""
    if pegs(pos) > 1 and not class_finals(b, pos):
        return Analysis(False, None, None, {}, [], "position class")
    if quick_exact(b, pos) or (thorough and b.size <= EXACT_MAX_HOLES):
        ex = exact(b.name)
        m = ex.min_moves(pos)
        finals = ex.finals(pos) if m is not None else {}
        return Analysis(m is not None, m, pegs(pos) - 1 if m is not None else None, finals, ex.solution(pos), "exact")
    found = find_solution(b, pos, node_limit * (20 if thorough else 1))
    if found.jumps is not None:
        moves = jumps_to_moves(found.jumps)
        final = replay(b, pos, moves).bit_length() - 1
        return Analysis(True, None, pegs(pos) - 1, {final: len(moves)}, moves, "search")
    return Analysis(False if found.exhausted else None, None, None, None, [], "search")


# ---------------------------------------------------------------- fast layers with NumPy


def _np_jumps(b: Board) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """Jump masks as arrays: bits that must be full, the bit that must be empty, and from/to holes."""
    full = np.array([(1 << f) | (1 << o) for f, o, _ in b.jumps], dtype=np.int64)
    empty = np.array([1 << t for _, _, t in b.jumps], dtype=np.int64)
    frm = np.array([f for f, _, _ in b.jumps], dtype=np.int64)
    to = np.array([t for _, _, t in b.jumps], dtype=np.int64)
    return full, empty, frm, to


def fast_layers(b: Board, pos: int, max_positions: int = 20_000_000) -> list[NDArray[np.int64]]:
    """Positions first reached after 0, 1, 2, ... moves (a move = a chain of jumps), as sorted arrays.

    The same breadth-first search as `layers`, vectorised over whole layers: every jump is tried on every
    position of the frontier at once, and chains are grown by jumps from the hole the coin landed on.
    """
    full, empty, frm, to = _np_jumps(b)
    seen = np.array([pos], dtype=np.int64)
    out = [seen]
    frontier = seen
    while frontier.size:
        found: list[NDArray[np.int64]] = []
        # first jump of a move: any coin
        states_pos: list[NDArray[np.int64]] = []
        states_at: list[NDArray[np.int64]] = []
        for k in range(len(full)):
            ok = ((frontier & full[k]) == full[k]) & ((frontier & empty[k]) == 0)
            if ok.any():
                nxt = (frontier[ok] & ~full[k]) | empty[k]
                states_pos.append(nxt)
                states_at.append(np.full(nxt.size, to[k], dtype=np.int64))
        while states_pos:
            cur_pos, cur_at = np.concatenate(states_pos), np.concatenate(states_at)
            key = np.unique(cur_pos * 64 + cur_at)
            cur_pos, cur_at = key // 64, key % 64
            found.append(cur_pos)
            states_pos, states_at = [], []
            for k in range(len(full)):  # the same coin jumps again
                ok = (cur_at == frm[k]) & ((cur_pos & full[k]) == full[k]) & ((cur_pos & empty[k]) == 0)
                if ok.any():
                    nxt = (cur_pos[ok] & ~full[k]) | empty[k]
                    states_pos.append(nxt)
                    states_at.append(np.full(nxt.size, to[k], dtype=np.int64))
        if not found:
            break
        layer = np.unique(np.concatenate(found))
        layer = layer[~np.isin(layer, seen, assume_unique=True)]
        seen = np.union1d(seen, layer)
        out.append(layer)
        if seen.size > max_positions:
            raise LimitError("the search grew past its limit")
        single = layer[(layer != 0) & ((layer & (layer - 1)) == 0)]
        frontier = layer[(layer & (layer - 1)) != 0]
        if single.size and not frontier.size:
            break
    return out

"""Peg solitaire (Matt Parker's coin triangle and classic boards) on bitboards.

A position is an integer: bit i set means hole i holds a coin. A jump takes a coin over an adjacent coin along
a line of the board into an empty hole and removes the jumped coin. A move is a chain of jumps by one coin.
Small boards (up to 21 holes) are solved exactly by memoised search: solvability, finals with their fewest
moves, a fewest-move solution and the number of jump sequences. Larger boards get a depth-first search for
any solution, pruned by a table of dead positions up to the board's symmetries.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

Jump = tuple[int, int, int]  # from, over, to (hole indices)
Move = tuple[int, ...]  # the holes a coin visits: start, then each landing
EXACT_MAX_HOLES = 21
DFS_NODE_LIMIT = 50_000
INF = 10**9


class PegError(ValueError):
    """A board, hole or position that does not exist."""


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
            raise PegError(f"board {self.name} has no hole {label!r}") from e

    def start(self, label: str) -> int:
        """The full board with one hole empty."""
        return self.full & ~(1 << self.index(label))


def _make(name: str, cells: list[tuple[int, int]], labels: list[str], dirs: list[tuple[int, int]],
          sym: list[dict[tuple[int, int], tuple[int, int]]], points: list[tuple[float, float]]) -> Board:
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
    cells = [(r, c) for r in range(7) for c in range(7)
             if 2 <= r <= 4 or 2 <= c <= 4 or (french and 1 <= r <= 5 and 1 <= c <= 5)]
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
        raise PegError(f"unknown board {name!r}; boards: {', '.join(BOARDS)}")
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
    """Parse a position token; PegError if it is not a position of this board."""
    try:
        pos = int(token, 16)
    except ValueError as e:
        raise PegError("a position is a hexadecimal bitmask of the board's holes") from e
    if pos < 0 or pos > b.full or len(token) > 12:
        raise PegError(f"that position has coins outside the {b.size} holes of {b.name}")
    return pos


# ---------------------------------------------------------------- exact analysis for small boards


def move_results(b: Board, pos: int) -> Iterator[tuple[int, Move]]:
    """Every position one move (a chain of jumps by one coin) can reach, with that move."""
    for j in legal_jumps(b, pos):
        stack: list[tuple[int, Move]] = [(apply_jump(pos, j), (j[0], j[2]))]
        while stack:
            q, chain = stack.pop()
            yield q, chain
            for k in legal_jumps(b, q):
                if k[0] == chain[-1]:
                    stack.append((apply_jump(q, k), (*chain, k[2])))


@dataclass(frozen=True)
class Layers:
    """Breadth-first search by moves from a position: fewest moves to each final, and a way back."""

    finals: dict[int, int]  # final hole -> fewest moves
    parent: dict[int, tuple[int, Move, int]]  # position key -> (previous position, move from it, position reached)
    complete: bool
    stabiliser: tuple[tuple[int, ...], ...]

    def _key(self, q: int) -> int:
        """The identifier a position was stored under."""
        return min(image(perm, q) for perm in self.stabiliser) if len(self.stabiliser) > 1 else q

    def solution(self, final: int) -> list[Move]:
        """The fewest-move solution ending on a final hole."""
        end = self.parent[self._key(1 << final)][2]  # the image of the final that the search reached
        moves: list[Move] = []
        node = end
        while self.parent[self._key(node)][0] != -1:
            node, move, _ = self.parent[self._key(node)]
            moves.append(move)
        moves.reverse()
        # the stored path ends on an image of the final: map the whole path by the inverse symmetry
        perm = next(perm for perm in self.stabiliser if image(perm, end) == 1 << final)
        return [tuple(perm[h] for h in move) for move in moves]


def image(perm: tuple[int, ...], pos: int) -> int:
    """A position moved by a symmetry of the board."""
    img = 0
    while pos:
        low = pos & -pos
        img |= 1 << perm[low.bit_length() - 1]
        pos ^= low
    return img


def finals_mask(b: Board, pos: int, memo: dict[int, int]) -> int:
    """Bitmask of holes where a last single coin can end, from pos (memoised in `memo`)."""
    stack = [pos]
    while stack:
        p = stack[-1]
        if p in memo:
            stack.pop()
            continue
        if pegs(p) == 1:
            memo[p] = p
            stack.pop()
            continue
        kids = [apply_jump(p, j) for j in legal_jumps(b, p)]
        todo = [k for k in kids if k not in memo]
        if todo:
            stack.extend(todo)
            continue
        mask = 0
        for k in kids:
            mask |= memo[k]
        memo[p] = mask
        stack.pop()
    return memo[pos]


def layers(b: Board, pos: int, limit: int = 3_000_000) -> Layers:
    """Breadth-first search over positions, one move per layer, until every position is seen (or the limit).

    Positions are identified up to the symmetries that fix the start (they cannot change any distance from
    it); finals found in one position stand for their whole orbit.
    """
    stab = [perm for perm in b.symmetries if image(perm, pos) == pos]
    alive: dict[int, int] = {}

    def key(q: int) -> int:
        return min(image(perm, q) for perm in stab) if len(stab) > 1 else q

    parent: dict[int, tuple[int, Move, int]] = {key(pos): (-1, (), pos)}
    finals: dict[int, int] = {}
    if pegs(pos) == 1:
        finals[pos.bit_length() - 1] = 0
    frontier, depth = [pos], 0
    while frontier:
        depth += 1
        nxt = []
        for p in frontier:
            for q, move in move_results(b, p):
                k = key(q)
                if k in parent or not finals_mask(b, q, alive):
                    continue
                parent[k] = (p, move, q)
                if pegs(q) == 1:
                    for perm in stab:
                        finals.setdefault(perm[q.bit_length() - 1], depth)
                else:
                    nxt.append(q)
        if len(parent) > limit:
            return Layers(finals, parent, False, tuple(stab))
        frontier = nxt
    return Layers(finals, parent, True, tuple(stab))


class Exact:
    """Exact analysis of one small board: fewest moves by breadth-first search, counts by memoised recursion."""

    def __init__(self, b: Board) -> None:
        """Empty memo tables for a board."""
        if b.size > EXACT_MAX_HOLES:
            raise PegError(f"exact analysis is for boards of up to {EXACT_MAX_HOLES} holes")
        self.board = b
        self._count: dict[int, int] = {}
        self._layers: dict[int, Layers] = {}

    def search(self, pos: int) -> Layers:
        """The breadth-first search from a position (kept for the last few positions asked)."""
        if pos not in self._layers:
            if len(self._layers) > 64:
                self._layers.clear()
            self._layers[pos] = layers(self.board, pos)
        return self._layers[pos]

    def finals(self, pos: int) -> dict[int, int]:
        """Final hole -> fewest moves to finish there (empty: unsolvable)."""
        return dict(self.search(pos).finals)

    def min_moves(self, pos: int) -> int | None:
        """Fewest moves to one coin, or None if impossible."""
        f = self.search(pos).finals
        return min(f.values()) if f else None

    def count(self, pos: int) -> int:
        """Number of jump sequences from pos that end with one coin."""
        if pos in self._count:
            return self._count[pos]
        total = 1 if pegs(pos) == 1 else sum(self.count(apply_jump(pos, j)) for j in legal_jumps(self.board, pos))
        self._count[pos] = total
        return total

    def solution(self, pos: int, final: int = -1) -> list[Move]:
        """A fewest-move solution (to a given final hole, or to the nearest one)."""
        s = self.search(pos)
        if not s.finals:
            return []
        target = final if final >= 0 else min(s.finals, key=lambda h: (s.finals[h], h))
        if target not in s.finals:
            raise PegError("that final hole cannot be reached")
        return s.solution(target)


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


def find_solution(b: Board, pos: int, node_limit: int = DFS_NODE_LIMIT) -> Found:
    """Any solution to one coin, by depth-first search with a table of dead positions up to symmetry."""
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
        for j in legal_jumps(b, p):
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
                raise PegError(f"{b.labels[f]} to {b.labels[t]} is not a jump along a line")
            if not (pos >> f & 1 and pos >> o & 1 and not pos >> t & 1):
                raise PegError(f"{b.labels[f]} cannot jump over {b.labels[o]} into {b.labels[t]} here")
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


EXACT_QUICK_HOLES = 15  # exact analysis in a web request: boards this small, or positions with few coins
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


def next_moves(b: Board, pos: int, at: int | None = None) -> list[Jump]:
    """Legal jumps (only by the coin at `at`, if given)."""
    return [j for j in legal_jumps(b, pos) if at is None or j[0] == at]

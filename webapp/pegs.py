"""The peg board: play by clicking coins and targets, hints, step-through solutions, per-board tables, API."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlencode

from flask import Blueprint, Response, jsonify, request, url_for

from solvers.errors import InputError
from solvers.pegs import (
    BOARDS,
    Board,
    Jump,
    Move,
    analyse,
    apply_jump,
    board,
    canonical,
    class_finals,
    exact,
    from_token,
    image,
    jumps_to_moves,
    legal_jumps,
    pegs,
    quick_exact,
    replay,
    to_token,
)

from . import params
from .htmx import render

bp = Blueprint("pegs", __name__, url_prefix="/pegs")
api = Blueprint("pegs_api", __name__, url_prefix="/api")
MAX_JUMPS = 40
TABLE_NODE_LIMIT = 20_000


@dataclass(frozen=True)
class Game:
    """A game: board, starting hole, and the jumps made so far (as hole pairs)."""

    board: Board
    hole: str
    jumps: tuple[Jump, ...]

    @property
    def start(self) -> int:
        """The starting position."""
        return self.board.start(self.hole)

    def position(self) -> int:
        """The position after the jumps."""
        pos = self.start
        for j in self.jumps:
            pos = apply_jump(pos, j)
        return pos

    def text(self, jumps: tuple[Jump, ...] | None = None) -> str:
        """Jumps as the URL carries them: from-to by hole labels, comma-separated."""
        labels = self.board.labels
        return ",".join(f"{labels[f]}-{labels[t]}" for f, _, t in (self.jumps if jumps is None else jumps))

    def url(self, jumps: tuple[Jump, ...] | None = None, **more: str) -> str:
        """The play URL of a position."""
        q = {"board": self.board.name, "hole": self.hole, "j": self.text(jumps), **more}
        return url_for("pegs.play") + "?" + urlencode({k: v for k, v in q.items() if v})


def parse_game(args: Mapping[str, str]) -> Game:
    """Board, start hole and jumps from the URL; every jump is checked by the rules (400 otherwise)."""
    b = _board(args)
    hole = args.get("hole", "")
    try:
        pos = b.start(hole)
    except InputError as e:
        raise InputError(str(e)) from e
    lines = {(f, t): o for f, o, t in b.jumps}
    jumps: list[Jump] = []
    text = args.get("j", "")
    parts = [x for x in text.split(",") if x] if text else []
    if len(parts) > MAX_JUMPS:
        raise InputError("too many jumps")
    for part in parts:
        try:
            f_label, t_label = part.split("-")
            f, t = b.index(f_label), b.index(t_label)
        except (ValueError, InputError) as e:
            raise InputError(f"{part!r} is not a jump: write it as from-to, like 4-1") from e
        o = lines.get((f, t))
        if o is None or (f, o, t) not in set(legal_jumps(b, pos)):
            raise InputError(f"illegal jump {part}: it must go over a coin into an empty hole along a line")
        pos = apply_jump(pos, (f, o, t))
        jumps.append((f, o, t))
    return Game(b, b.labels[b.index(hole)], tuple(jumps))


def _board(args: Mapping[str, str]) -> Board:
    """The board named in the URL."""
    name = args.get("board", "triangle-4")
    try:
        return board(name)
    except InputError as e:
        raise InputError(str(e)) from e


def holes_of(pos: int) -> set[int]:
    """The holes holding a coin."""
    return {i for i in range(pos.bit_length()) if pos >> i & 1}


def _labels(b: Board, move: Move) -> list[str]:
    """A move as hole labels."""
    return [b.labels[h] for h in move]


@bp.get("")
def setup() -> str:
    """Pick a board and the empty hole."""
    return render("pegs/setup.html", "pegs/_setup.html", boards=BOARDS)


@bp.get("/play")
def play() -> str:
    """The board: select a coin, then a target; hints and counters."""
    g = parse_game(request.args)
    b, pos = g.board, g.position()
    sel_label = request.args.get("sel", "")
    sel = None
    if sel_label:
        try:
            sel = b.index(sel_label)
        except InputError as e:
            raise InputError(str(e)) from e
        if not pos >> sel & 1:
            raise InputError(f"there is no coin on {sel_label} to select")
    legal = list(legal_jumps(b, pos))
    targets = {t: g.url((*g.jumps, (f, o, t))) for f, o, t in legal if f == sel}
    moves = jumps_to_moves(g.jumps)
    hint = None
    if params.flag(request.args, "hint"):
        a = analyse(b, pos)
        hint = {
            "solvable": a.solvable,
            "min_moves": a.min_moves,
            "method": a.method,
            "next": _labels(b, a.solution[0]) if a.solution else None,
            "finals": sorted(b.labels[h] for h in (a.finals or {})),
        }
    return render(
        "pegs/play.html",
        "pegs/_play.html",
        g=g,
        b=b,
        occupied=holes_of(pos),
        sel=sel,
        targets=targets,
        select_url=lambda h: g.url(sel=b.labels[h]),
        legal=[(b.labels[f], b.labels[o], b.labels[t], g.url((*g.jumps, (f, o, t)))) for f, o, t in legal],
        moves=[_labels(b, m) for m in moves],
        jumps=len(g.jumps),
        coins=pegs(pos),
        undo=g.url(g.jumps[:-1]) if g.jumps else None,
        restart=g.url(()),
        hint=hint,
        hint_url=g.url(hint="1"),
        solution_url=url_for("pegs.solution") + "?" + urlencode({"board": b.name, "hole": g.hole}),
        dead=not legal and pegs(pos) > 1,
        won=pegs(pos) == 1,
    )


@bp.get("/solution")
def solution() -> str:
    """Step through a fewest-move solution from a start, one move at a time."""
    g = parse_game({**request.args, "j": ""})
    a = analyse(g.board, g.start, thorough=False)
    step = params.whole(request.args, "step", 0, 0, max(0, len(a.solution)), "step")
    pos = replay(g.board, g.start, a.solution[:step])
    base = {"board": g.board.name, "hole": g.hole}
    steps = [url_for("pegs.solution") + "?" + urlencode({**base, "step": str(k)}) for k in range(len(a.solution) + 1)]
    return render(
        "pegs/solution.html",
        "pegs/_solution.html",
        g=g,
        b=g.board,
        a=a,
        step=step,
        occupied=holes_of(pos),
        moves=[_labels(g.board, m) for m in a.solution],
        steps=steps,
        select_url=None,
        targets={},
        sel=None,
    )


@lru_cache(maxsize=8)
def board_table(name: str) -> tuple[tuple[str, bool | None, int | None, tuple[str, ...]], ...]:
    """For every start hole: solvable, fewest moves (exact boards), finals."""
    b = board(name)
    rows = []
    done: dict[int, tuple[bool | None, int | None, tuple[int, ...]]] = {}
    for label in b.labels:
        pos = b.start(label)
        key = canonical(b, pos)
        if key not in done:
            a = analyse(b, pos, node_limit=TABLE_NODE_LIMIT)
            done[key] = (a.solvable, a.min_moves, tuple(sorted(a.finals or {})))
            rows.append((label, a.solvable, a.min_moves, tuple(b.labels[x] for x in sorted(a.finals or {}))))
        else:  # a symmetric start: same answer, finals mapped by the symmetry
            other = next(r for r in rows if canonical(b, b.start(r[0])) == key)
            perm = next(p for p in b.symmetries if image(p, b.start(other[0])) == pos)
            finals = tuple(sorted((b.labels[perm[b.index(x)]] for x in other[3]), key=b.labels.index))
            rows.append((label, other[1], other[2], finals))
    return tuple(rows)


@bp.get("/table")
def table() -> str:
    """Which starts can be solved, and in how few moves."""
    b = _board(request.args)
    rows = board_table(b.name)
    links = {label: url_for("pegs.play") + "?" + urlencode({"board": b.name, "hole": label}) for label, *_ in rows}
    return render(
        "pegs/table.html",
        "pegs/_table.html",
        b=b,
        rows=rows,
        links=links,
        boards=BOARDS,
        exact=quick_exact(b, b.start(b.labels[0])),
    )


def report(b: Board, hole: str, position: str, count: bool) -> dict[str, object]:
    """The API's (and CLI's) answer for a start hole or a given position."""
    try:
        pos = from_token(b, position) if position else b.start(hole)
    except InputError as e:
        raise InputError(str(e)) from e
    a = analyse(b, pos, thorough=True)
    out: dict[str, object] = {
        "board": b.name,
        "hole": hole or None,
        "position": to_token(b, pos),
        "solvable": a.solvable,
        "min_moves": a.min_moves,
        "min_jumps": a.min_jumps,
        "finals": {b.labels[h]: m if a.method == "exact" else None for h, m in sorted((a.finals or {}).items())},
        "solution": [_labels(b, m) for m in a.solution],
        "method": a.method,
        "class_finals": [b.labels[h] for h in class_finals(b, pos)],
    }
    if count:
        if b.size > 21:
            raise InputError("solution counts are computed for boards of up to 21 holes")
        out["solutions"] = exact(b.name).count(pos)
    return out


@api.get("/pegs")
def pegs_json() -> Response:
    """Solvability, finals, fewest moves and a solution for a start (or a position)."""
    b = _board(request.args)
    hole = request.args.get("hole", "")
    position = request.args.get("position", "")
    if not hole and not position:
        raise InputError("give hole (the empty hole at the start) or position")
    return jsonify(report(b, hole, position, params.flag(request.args, "count")))

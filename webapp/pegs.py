"""The peg board: play by clicking coins and targets, hints, step-through solutions, per-board tables, API."""

from __future__ import annotations

from collections.abc import Mapping

from flask import Blueprint, Response, jsonify, render_template, request, url_for

from solvers.errors import InputError
from solvers.pegs import (
    BOARDS,
    CENTRES,
    PROBLEMS,
    Analysis,
    Board,
    Game,
    board,
    class_finals,
    finish_label,
    from_token,
    game_from_text,
    jumps_to_moves,
    legal_jumps,
    pegs,
    quick_exact,
    replay,
)
from solvers.pegs.report import labels, table_proofs
from solvers.report import as_json

from . import params
from .catalogue import (
    PEGS_ANALYSIS,
    PEGS_REPORT,
    PEGS_TABLE,
    QUICK_TABLE_HOLES,
    BoardParams,
    PositionParams,
    ReportParams,
    pegs_problem,
)
from .htmx import link
from .results import computed, peek

bp = Blueprint("pegs", __name__, url_prefix="/pegs")
api = Blueprint("pegs_api", __name__, url_prefix="/api")
MAX_JUMPS = 40


def parse_game(args: Mapping[str, str]) -> Game:
    """Board, start hole, jumps and goal (finish: any, start, centre or a hole) from the URL; every jump is
    checked by the rules."""
    return game_from_text(_board(args), args.get("hole", ""), args.get("j", ""), args.get("finish", ""))


def game_url(g: Game, **more: str) -> str:
    """The play URL of a position."""
    return link("pegs.play", {"board": g.board.name, "hole": g.hole, "j": g.text(), "finish": g.finish, **more})


def goals(g: Game) -> list[tuple[str, str, bool]]:
    """The goals a player can switch to (name, URL, current): anywhere, the start hole, the centre."""
    options = [("anywhere", ""), (f"in the start hole {g.hole}", g.hole)]
    centre = CENTRES.get(g.board.name)
    if centre and centre != g.hole:
        options.append((f"in the centre {centre}", centre))
    return [(name, game_url(Game(g.board, g.hole, g.jumps, label)), g.finish == label) for name, label in options]


def _board(args: Mapping[str, str]) -> Board:
    """The board named in the URL."""
    name = args.get("board", "triangle-4")
    return board(name)


def holes_of(pos: int) -> set[int]:
    """The holes holding a coin."""
    return {i for i in range(pos.bit_length()) if pos >> i & 1}


@bp.get("")
def setup() -> str:
    """Pick a board and the empty hole."""
    starts = {name: (lambda hole, name=name: url_for("pegs.play", board=name, hole=hole)) for name in BOARDS}
    return render_template("pegs/setup.html", boards=BOARDS, start_links=starts)


@bp.get("/play")
def play() -> str:
    """The board: select a coin, then a target; hints and counters."""
    g = parse_game(request.args)
    b, pos = g.board, g.position()
    sel_label = request.args.get("sel", "")
    sel = None
    if sel_label:
        sel = b.index(sel_label)
        if not pos >> sel & 1:
            raise InputError(f"there is no coin on {sel_label} to select")
    legal = list(legal_jumps(b, pos))
    targets = {t: game_url(g.then((f, o, t))) for f, o, t in legal if f == sel}
    moves = jumps_to_moves(g.jumps)
    hint = None
    if params.flag(request.args, "hint"):
        a: Analysis = computed(PEGS_ANALYSIS, PositionParams(b.name, pos, g.finish))
        hint = {
            "solvable": a.solvable,
            "min_moves": a.min_moves,
            "method": a.method,
            "next": labels(b, a.solution[0]) if a.solution else None,
            "finals": sorted(b.labels[h] for h in (a.finals or {})),
        }
    return render_template(
        "pegs/play.html",
        g=g,
        b=b,
        occupied=holes_of(pos),
        sel=sel,
        targets=targets,
        select_url=lambda h: game_url(g, sel=b.labels[h]),
        legal=[(b.labels[f], b.labels[o], b.labels[t], game_url(g.then((f, o, t)))) for f, o, t in legal],
        moves=[labels(b, m) for m in moves],
        jumps=len(g.jumps),
        coins=pegs(pos),
        undo=game_url(g.back()) if g.jumps else None,
        restart=game_url(g.back(len(g.jumps))),
        hint=hint,
        hint_url=game_url(g, hint="1"),
        solution_url=link("pegs.solution", {"board": b.name, "hole": g.hole, "j": g.text(), "finish": g.finish}),
        doomed=doomed(g),
        solvable_starts=solvable_starts(g) if not g.jumps else None,
        dead=g.dead,
        won=g.won,
        missed=g.missed,
        goals=goals(g),
    )


def doomed(g: Game) -> str | None:
    """Why this position can no longer be finished, when that is known at once (None: it can, or unknown)."""
    b, pos = g.board, g.position()
    if pegs(pos) <= 1 or g.dead:
        return None
    finals = class_finals(b, pos)
    if not finals:
        return "no single last coin has this position's class (a jump invariant), so it can never be finished"
    if g.finish_hole is not None and g.finish_hole not in finals:
        where = ", ".join(b.labels[h] for h in finals)
        return (
            f"a last coin on {g.finish} would not have this position's class (a jump invariant); "
            f"the last coin can only end on {where}"
        )
    if b.size <= QUICK_TABLE_HOLES:
        a: Analysis = computed(PEGS_ANALYSIS, PositionParams(b.name, pos, g.finish))
        if a.solvable is False:
            target = f"one coin on {g.finish}" if g.finish else "one coin"
            return f"an exhaustive search finds no way to {target} from here"
    return None


def solvable_starts(g: Game) -> list[str] | None:
    """The start holes that can be finished (for the game's goal), when the board's table is at hand: computed
    at once on small boards, read from the store on larger ones (None when not yet there, or for a goal the
    table does not cover: a finish hole other than the start)."""
    if g.finish and g.finish != g.hole:
        return None
    rows = (
        computed(PEGS_TABLE, BoardParams(g.board.name))
        if g.board.size <= QUICK_TABLE_HOLES
        else peek(PEGS_TABLE, BoardParams(g.board.name))
    )
    if rows is None:
        return None
    return [row.hole for row in rows if (row.home if g.finish else row.solvable)]


@bp.get("/solution")
def solution() -> str:
    """Step through a solution from a start, one move at a time: the hint's (fewest moves where exact), or with
    fewest=1 from a start with a finish hole, the proved fewest moves of the thorough report (a background job)."""
    g = parse_game(request.args)  # from the start, or from a game's position (j: its jumps so far)
    here = g.position()
    fewest = params.flag(request.args, "fewest")
    if fewest and (g.jumps or not g.finish):
        raise InputError("fewest=1 is for a start with a finish hole: leave out j and give finish")
    a: Analysis = (
        computed(PEGS_REPORT, ReportParams(g.board.name, here, g.hole, False, g.finish)).analysis(g.board)
        if fewest
        else computed(PEGS_ANALYSIS, PositionParams(g.board.name, here, g.finish))
    )
    step = params.whole(request.args, "step", 0, 0, max(0, len(a.solution)), "step")
    pos = replay(g.board, here, a.solution[:step])
    base = {
        "board": g.board.name,
        "hole": g.hole,
        "j": g.text(),
        "finish": g.finish,
        **({"fewest": 1} if fewest else {}),
    }
    steps = [link("pegs.solution", {**base, "step": k}) for k in range(len(a.solution) + 1)]
    return render_template(
        "pegs/solution.html",
        g=g,
        b=g.board,
        a=a,
        step=step,
        occupied=holes_of(pos),
        moves=[labels(g.board, m) for m in a.solution],
        steps=steps,
        select_url=None,
        targets={},
        sel=None,
    )


@bp.get("/table")
def table() -> str:
    """Which starts can be solved, and in how few moves."""
    b = _board(request.args)
    rows = computed(PEGS_TABLE, BoardParams(b.name))
    links = {row.hole: url_for("pegs.play", board=b.name, hole=row.hole) for row in rows}
    home_links = {row.hole: url_for("pegs.play", board=b.name, hole=row.hole, finish=row.hole) for row in rows}
    problems = [
        (
            hole,
            finish,
            peek(PEGS_REPORT, pegs_problem(b.name, hole, finish)),
            url_for("pegs.solution", board=b.name, hole=hole, finish=finish, fewest=1),
        )
        for hole, finish in PROBLEMS.get(b.name, ())
    ]
    settled = {(h, f): r.min_moves for h, f, r, _ in problems if r and r.proved}
    extra = table_proofs(b, rows, settled)
    return render_template(
        "pegs/table.html",
        b=b,
        rows=rows,
        links=links,
        home_links=home_links,
        home_proved=extra.home,
        anywhere=extra.anywhere,
        problems=problems,
        boards=BOARDS,
        exact=quick_exact(b, b.start(b.labels[0])),
    )


@api.get("/pegs")
def pegs_json() -> Response:
    """Solvability, finals, fewest moves and a solution for a start (or a position)."""
    b = _board(request.args)
    hole = request.args.get("hole", "")
    position = request.args.get("position", "")
    if not hole and not position:
        raise InputError("give hole (the empty hole at the start) or position")
    pos = from_token(b, position) if position else b.start(hole)
    count = params.flag(request.args, "count")
    finish = request.args.get("finish", "any")
    if finish == "start" and not hole:
        raise InputError("finish=start needs hole")
    label = finish_label(b, hole, finish) or None
    report = computed(PEGS_REPORT, ReportParams(b.name, pos, hole or None, count, label))
    return jsonify(as_json(report))

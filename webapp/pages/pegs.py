"""The peg board: play by clicking coins and targets, hints, step-through solutions, per-board tables, API."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import NamedTuple

from flask import Blueprint, Response, jsonify, render_template, request, url_for

from solvers.errors import InputError
from solvers.history import MOVES
from solvers.pegs import (
    BOARDS,
    CENTRES,
    PROBLEMS,
    Analysis,
    Board,
    Jump,
    PegGame,
    PegRow,
    board,
    finish_label,
    from_token,
    game_from_text,
    quick_exact,
    replay,
)
from solvers.pegs.lesson import IMPOSSIBLE, FewestMoves, lesson
from solvers.pegs.play import Session, session_from_text
from solvers.pegs.report import (
    PegPlayPage,
    PegReport,
    TableProofs,
    labels,
    on_proved_path,
    play_page,
    settled_report,
    table_proofs,
)
from solvers.pegs.shipped import shipped_start
from solvers.report import as_json
from webapp.http import params
from webapp.http.htmx import link
from webapp.jobs.access import computed, held, peek
from webapp.pages.gamebar import Bar, Score, StatsKey, format_id, game_bar, id_route
from webapp.pages.puzzle import Puzzle
from webapp.results.catalogue import (
    PEGS_ANALYSIS,
    PEGS_REPORT,
    PEGS_SEARCH,
    PEGS_TABLE,
    QUICK_TABLE_HOLES,
    BoardParams,
    PositionParams,
    ReportParams,
    nearest_finish,
    pegs_problem,
    settled_start,
)

bp = Blueprint("pegs", __name__, url_prefix="/pegs")
api = Blueprint("pegs_api", __name__, url_prefix="/api")


def parse_game(args: Mapping[str, str]) -> PegGame:
    """Board, start hole, jumps and goal (finish: any, start, centre or a hole) from the URL; every jump is
    checked by the rules."""
    return game_from_text(_board(args), args.get("hole", ""), params.moves_text(args, "j"), args.get("finish", ""))


def game_id(g: PegGame) -> str:
    """The game's short ID (`format_id`): board, start hole ('>' the finish), jumps: 'english:d4>d4:d2-d4,d5-d3'."""
    return format_id((g.board.name, f"{g.hole}>{g.finish}" if g.finish else g.hole), g.text())


def game_url(g: PegGame, **more: str) -> str:
    """The play URL of a position (a fresh undo chain: its jumps)."""
    return link("pegs.play", {"board": g.board.name, "hole": g.hole, MOVES: g.text(), "finish": g.finish, **more})


def parse_session(args: Mapping[str, str]) -> Session:
    """The game and its undo chain from the URL (j: every jump and restart, at: how many are in effect)."""
    return session_from_text(
        _board(args),
        args.get("hole", ""),
        params.moves_text(args, "j"),
        args.get("finish", ""),
        args.get("at", ""),
        args.get("u", ""),
    )


def session_url(s: Session, **more: object) -> str:
    """The play URL of a session."""
    g = s.game
    return link(
        "pegs.play", {"board": g.board.name, "hole": g.hole, **s.chain.query(MOVES), "finish": g.finish, **more}
    )


def goals(s: Session, hints: int) -> list[tuple[str, str, bool]]:
    """The goals a player can switch to (name, URL, current): anywhere, the start hole, the centre."""
    g = s.game
    options = [("anywhere", ""), (f"in the start hole {g.hole}", g.hole)]
    centre = CENTRES.get(g.board.name)
    if centre and centre != g.hole:
        options.append((f"in the centre {centre}", centre))
    return [(name, session_url(s.with_goal(label), h=hints or ""), g.finish == label) for name, label in options]


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
    """The board: select a coin, then a target; undo and redo, hints that teach, the game's ID, the win screen."""
    s = parse_session(request.args)
    g = s.game
    hints = params.hints_used(request.args)
    starts = solvable_starts(g) if not g.jumps else None
    page = play_page(g, request.args.get("sel", ""), searched(g.board, g.finish), starts)
    hint = _hint(g) if params.flag(request.args, "hint") else None
    return render_template("pegs/play.html", page=page, view=_play_links(s, page, hints, hint))


class PegPlayLinks(NamedTuple):
    """What the play page adds to its model: its links (each target's and each coin's, every legal jump's, the
    hint's, the solution's, the goals'), its bar (with the result once the game has ended) and the hint."""

    targets: dict[int, str]
    jumps: dict[int, list[tuple[str, str]]]  # each coin that can jump: its targets' labels and moves' links
    select: Callable[[int], str]
    legal: list[tuple[str, str, str, str]]
    hint_url: str
    solution_url: str
    goals: list[tuple[str, str, bool]]
    bar: Bar
    hint: dict[str, object] | None


def _play_links(s: Session, page: PegPlayPage, hints: int, hint: dict[str, object] | None) -> PegPlayLinks:
    """The play page's links, bar and result for a session."""
    g, b = s.game, page.board
    keep = {"h": hints or ""}
    bar = game_bar(
        game_id(g),
        session_url(s.moved(s.chain.shared())),
        s.chain,
        lambda c: session_url(s.moved(c), **keep),
        hints=hints,
        stats=_stats(g),
        end=_score(g, len(page.moves)) if page.ended else None,
    )

    def jump_url(j: Jump, again: bool) -> str:  # the move; the coin stays selected where it can jump on
        return session_url(s.then(j), **keep, sel=b.labels[j[2]] if again else "")

    jumps: dict[int, list[tuple[str, str]]] = {}
    for j, again in page.every:
        jumps.setdefault(j[0], []).append((b.labels[j[2]], jump_url(j, again)))
    return PegPlayLinks(
        targets={j[2]: jump_url(j, again) for j, again in page.targets},
        jumps=jumps,
        select=lambda h: session_url(s, sel=b.labels[h], **keep),
        legal=[
            (b.labels[f], b.labels[o], b.labels[t], session_url(s.then((f, o, t)), **keep)) for f, o, t in page.legal
        ],
        hint_url=session_url(s, hint="1", h=hints + 1),
        solution_url=link(
            "pegs.solution",
            {"board": b.name, "hole": g.hole, **s.chain.query(MOVES), "finish": g.finish, "h": hints + 1},
        ),
        goals=goals(s, hints),
        bar=bar,
        hint=hint,
    )


def _peek_report(p: ReportParams) -> PegReport | None:
    """A stored report, if there is one (never computing or queuing anything)."""
    return peek(PEGS_REPORT, p)


def _shipped_report(b: Board, hole: str, finish: str) -> PegReport | None:
    """A listed problem's report from the proof shipped in the package, where there is one."""
    a = shipped_start(b, hole, finish)
    return None if a is None else settled_report(b, hole, finish, a)


def proved_here(g: PegGame) -> Analysis | None:
    """The proved fewest-move solution from a game's position that the stored proofs of the classic problems give
    (up to symmetry; finishing anywhere once every possible finish is proved): at its start, the start's; later,
    the rest of it, where the game is still on it (`on_proved_path`); else None."""
    b = g.board
    start = settled_start(b, g.hole, g.finish or None, _peek_report)
    if start is None or not g.jumps:
        return start
    return on_proved_path(b, b.start(g.hole), start, g.position(), g.finish or None)


def _fewest(b: Board, finish: str) -> FewestMoves:
    """The fewest moves from a position (a fresh move) where the exact analysis is quick; -1 when it cannot be
    finished; None when not known in a request."""

    def fewest(pos: int) -> int | None:
        p = PositionParams(b.name, pos, finish)
        if not (quick_exact(b, pos) and PEGS_ANALYSIS.quick(p)):
            return None
        a: Analysis = computed(PEGS_ANALYSIS, p)
        return IMPOSSIBLE if a.solvable is False else a.min_moves

    return fewest


def _hint(g: PegGame) -> dict[str, object]:
    """The hint: solvable or not, the best next move, the fewest moves from here and what the last jump cost.
    Where the hint's search runs out of budget, the thorough search (a job of seconds) answers."""
    b = g.board
    here = PositionParams(b.name, g.position(), g.finish)
    a = proved_here(g) or computed(PEGS_ANALYSIS, here)
    if a.solvable is None and not a.solution:
        a = computed(PEGS_SEARCH, here)
    only_to, a = nearest_finish(b, g.hole, g.position(), a, _peek_report) if not g.finish else (None, a)
    return {
        "only_to": only_to,  # as on the solution page: a proved solution to that finish, not proved the fewest anywhere
        "solvable": a.solvable,
        "min_moves": a.min_moves,
        "method": a.method,
        "next": labels(b, a.solution[0]) if a.solution else None,
        "finals": sorted(b.labels[h] for h in (a.finals or {})),
        "lesson": lesson(g, _fewest(b, g.finish)),
    }


def _optimum(g: PegGame) -> int | None:
    """The proved fewest moves of the game from its start, where known: the exact analysis, or a stored proof of
    a classic problem."""
    b = g.board
    fewest = _fewest(b, g.finish)(g.start)
    if fewest is not None:
        return None if fewest == IMPOSSIBLE else fewest
    found = settled_start(b, g.hole, g.finish or None, _peek_report)
    return found.min_moves if found is not None else None


def _stats(g: PegGame) -> StatsKey:
    """What the browser's statistics are kept per: the board, start and goal."""
    goal = f", finishing on {g.finish}" if g.finish else ""
    return StatsKey(f"pegs:{g.board.name}:{g.hole}>{g.finish or 'any'}", f"the {g.board.title} without {g.hole}{goal}")


def _score(g: PegGame, moves: int) -> Score:
    """The win screen (or the end of a lost game)."""
    title = "Solved!" if g.won else "Dead end: no jump left" if g.dead else f"One coin left, but not on {g.finish}"
    return Score(title, g.won, moves, _optimum(g), "moves")


def searched(b: Board, finish: str) -> Callable[[int], bool | None]:
    """Whether the exhaustive search finds a position solvable, where it is run in a request (small boards)."""

    def solvable(pos: int) -> bool | None:
        if b.size > QUICK_TABLE_HOLES:
            return None
        a: Analysis = computed(PEGS_ANALYSIS, PositionParams(b.name, pos, finish))
        return a.solvable

    return solvable


def solvable_starts(g: PegGame) -> list[str] | None:
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


@id_route(bp, 3, "a peg board", "board:hole:jumps, like english:d4:d2-d4", bare=True)
def _opened(parts: list[str], _: str | None) -> str:
    """Open the game a typed or pasted ID describes (see `game_id`): board:hole:jumps, the hole followed by
    '>' and the finish hole when the goal names one; without its jumps, the start."""
    hole, _, finish = parts[1].partition(">")
    return game_url(game_from_text(board(parts[0]), hole.strip(), parts[2], finish.strip()))


@bp.get("/solution")
def solution() -> str:
    """Step through a solution from a start, one move at a time: the hint's (fewest moves where exact), or with
    fewest=1 from a start with a finish hole, the proved fewest moves of the thorough report (a background job)."""
    s = parse_session(request.args)  # from the start, or from a game's position (its undo chain: j, at, u)
    g, hints = s.game, params.hints_used(request.args)
    here = g.position()
    fewest = params.flag(request.args, "fewest")
    if fewest and (g.jumps or not g.finish):
        raise InputError("fewest=1 is for a start with a finish hole: leave out j and give finish")
    a = proved_here(g)
    if a is None and fewest:
        a = computed(PEGS_REPORT, ReportParams(g.board.name, here, g.hole, False, g.finish)).analysis(g.board)
    if a is None:
        a = computed(PEGS_ANALYSIS, PositionParams(g.board.name, here, g.finish))
    if a.solvable is None and not a.solution:  # the hint's search ran out of budget: the thorough one (a job)
        a = computed(PEGS_SEARCH, PositionParams(g.board.name, here, g.finish))
    only_to, a = nearest_finish(g.board, g.hole, here, a, _peek_report) if not g.finish else (None, a)
    step = params.whole(request.args, "step", 0, 0, max(0, len(a.solution)), "step")
    pos = replay(g.board, here, a.solution[:step])
    base = {
        "board": g.board.name,
        "hole": g.hole,
        **s.chain.query(MOVES),
        "finish": g.finish,
        "h": hints or "",
        **({"fewest": 1} if fewest else {}),
    }
    steps = [link("pegs.solution", {**base, "step": k}) for k in range(len(a.solution) + 1)]
    moves = [labels(g.board, m) for m in a.solution]
    back = session_url(s, h=hints or "")
    view = SolutionView(
        g=g, a=a, step=step, occupied=holes_of(pos), moves=moves, steps=steps, back=back, only_to=only_to
    )
    return render_template("pegs/solution.html", view=view)


class SolutionView(NamedTuple):
    """The solution page: the game it starts from, the analysis, the step shown, the coins after it, every move
    as labels and each step's link."""

    g: PegGame
    a: Analysis
    step: int
    occupied: set[int]
    moves: list[tuple[str, ...]]
    steps: list[str]
    back: str  # the game it came from: its goal, undo chain and hints (this solution counted among them)
    only_to: str | None  # finishing anywhere: the finish a proved solution was served for (`nearest_finish`)


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
            peek(PEGS_REPORT, pegs_problem(b.name, hole, finish)) or _shipped_report(b, hole, finish),
            url_for("pegs.solution", board=b.name, hole=hole, finish=finish, fewest=1),
        )
        for hole, finish in PROBLEMS.get(b.name, ())
    ]
    settled = {(h, f): r.min_moves for h, f, r, _ in problems if r and r.proved}
    problem_links = {(hole, finish): url for hole, finish, _, url in problems}
    busy = {(h, f) for h, f, r, _ in problems if r is None and held(PEGS_REPORT, pegs_problem(b.name, h, f))}
    proofs = table_proofs(b, rows, settled)
    exact = quick_exact(b, b.start(b.labels[0]))
    view = PegTableView(
        b=b,
        rows=rows,
        links=links,
        home_links=home_links,
        proofs=proofs,
        problems=problems,
        problem_links=problem_links,
        busy=busy,
        boards=tuple(BOARDS),
        exact=exact,
    )
    return render_template("pegs/table.html", view=view)


class PegTableView(NamedTuple):
    """The table of starts: the board, its rows, each start's link (finishing anywhere, and in its own hole), the
    proofs the stored reports give, the classic problems (start, finish, report, link), those being computed, the
    boards, and whether every position was searched."""

    b: Board
    rows: tuple[PegRow, ...]
    links: dict[str, str]
    home_links: dict[str, str]
    proofs: TableProofs
    problems: list[tuple[str, str, PegReport | None, str]]
    problem_links: dict[tuple[str, str], str]
    busy: set[tuple[str, str]]  # problems not stored whose job is queued or running (the rest start when opened)
    boards: tuple[str, ...]
    exact: bool


@api.get("/pegs")
@params.takes("board hole position count finish")
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
    settled = settled_start(b, hole, label, _peek_report) if hole and not position and not count else None
    if settled is not None:
        return jsonify(as_json(settled_report(b, hole, label, settled)))
    report = computed(PEGS_REPORT, ReportParams(b.name, pos, hole or None, count, label))
    return jsonify(as_json(report))


puzzle = Puzzle(
    area="pegs",
    name="The peg board",
    endpoint="pegs.setup",
    blurb="Jump coins over each other on a triangle, the English or the French board, down to one.",
    picture="A triangle of fifteen holes filled with coins but one",
    sources="Exact analysis up to 21 holes, searches beyond. Sources: Matt Parker's coin triangle; G. I. Bell, "
    "'Solving Triangular Peg Solitaire' (JIS, 2008).",
    blueprints=(bp, api),
    presets=(
        ("English board, centre to centre", "pegs.play", {"board": "english", "hole": "d4", "finish": "d4"}),
        ("French board from d3", "pegs.play", {"board": "french", "hole": "d3"}),
        ("Triangle of 15, corner empty", "pegs.play", {"board": "triangle-5", "hole": "1"}),
    ),
)

"""The peg board's report: what the API and the command line say about a start hole or a position."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from solvers.errors import InputError, LimitError
from solvers.progress import Tick, quiet
from solvers.report import optional

from .analysis import Analysis, analyse
from .board import Board, Jump, Move
from .exact import EXACT_MAX_HOLES, exact
from .fewest import IN_MEMORY, Means
from .invariant import class_finals
from .play import PROBLEMS, PegGame, fewest_anywhere, listed_problem
from .rules import goes_on, jumps_to_moves, legal_jumps, pegs, replay, to_token
from .table import PegRow


def labels(b: Board, move: Move) -> tuple[str, ...]:
    """A move as hole labels."""
    return tuple(b.labels[h] for h in move)


@dataclass(frozen=True)
class PegReport:
    """Solvability, fewest moves (exact boards; larger boards with a finish hole by bidirectional search), finals
    with their fewest moves, a solution, and counts. proved: the answer is a proof (the fewest moves, or that no
    solution exists); false when a solution was found by search without a proof that it is shortest."""

    board: str
    hole: str | None
    position: str
    finish: str | None
    solvable: bool | None
    min_moves: int | None
    min_jumps: int | None
    finals: dict[str, int | None]
    solution: tuple[tuple[str, ...], ...]
    method: str
    proved: bool
    class_finals: tuple[str, ...]
    solutions: int | None = optional()

    def analysis(self, b: Board) -> Analysis:
        """The report as an analysis of its position (the solution as hole indices), for the solution pages."""
        moves = [tuple(b.index(x) for x in move) for move in self.solution]
        return Analysis(self.solvable, self.min_moves, self.min_jumps, None, moves, self.method)

    def text(self) -> str:
        """The report in words."""
        where = f"empty {self.hole}" if self.hole else f"position {self.position}"
        if self.finish:
            where += f", finishing on {self.finish}"
        known = {True: "yes", False: "no", None: "unknown"}[self.solvable]
        fewest = "-" if self.min_moves is None else f"{self.min_moves}{' (proved)' if self.proved else ''}"
        lines = [
            f"{self.board}, {where}: solvable {known}; fewest moves {fewest} ({self.method}); "
            f"finals {', '.join(self.finals) or 'none'}"
        ]
        if self.solutions is not None:
            lines.append(f"jump sequences that solve it: {self.solutions:,}")
        lines += [f"{i}: {' -> '.join(move)}" for i, move in enumerate(self.solution, 1)]
        return "\n".join(lines)


def counted(b: Board, count: bool, finish: str | None) -> None:
    """LimitError if a report that counts solutions cannot be made (checked before one is queued, and again as it
    is made): counts are for boards of up to EXACT_MAX_HOLES holes, finishing anywhere."""
    if count and b.size > EXACT_MAX_HOLES:
        raise LimitError(f"solution counts are computed for boards of up to {EXACT_MAX_HOLES} holes")
    if count and finish:
        raise LimitError("solution counts are for finishing anywhere: leave out the finish hole")


def peg_report(
    b: Board,
    pos: int,
    hole: str | None = None,
    count: bool = False,
    finish: str | None = None,
    tick: Tick = quiet,
    means: Means = IN_MEMORY,
) -> PegReport:
    """Analyse a position thoroughly (exact up to 21 holes), for a finish hole (its label) or anywhere, and, if
    asked, count its solutions. means: what a fewest-moves search may use (its levels on disk, its states, its
    first limit)."""
    counted(b, count, finish)
    a = analyse(
        b,
        pos,
        thorough=True,
        finish=b.index(finish) if finish else None,
        fewest=True,
        tick=tick,
        means=means,
    )
    return PegReport(
        board=b.name,
        hole=hole,
        position=to_token(b, pos),
        finish=finish or None,
        solvable=a.solvable,
        min_moves=a.min_moves,
        min_jumps=a.min_jumps,
        finals={b.labels[h]: m if a.method == "exact" else None for h, m in sorted((a.finals or {}).items())},
        solution=tuple(labels(b, m) for m in a.solution),
        method=a.method,
        proved=a.solvable is False or a.min_moves is not None,
        class_finals=tuple(b.labels[h] for h in class_finals(b, pos)),
        solutions=exact(b.name).count(pos) if count else None,
    )


@dataclass(frozen=True)
class FinishCell:
    """One finish a start's position class allows: its listed problem up to symmetry (None: not listed), whether
    that problem is settled, and its fewest moves (None: impossible, or not settled yet)."""

    finish: str
    problem: tuple[str, str] | None
    settled: bool
    moves: int | None


@dataclass(frozen=True)
class TableProofs:
    """What the proved classic problems add to a board's table of starts: the fewest moves finishing anywhere
    where the exact search gives none (once every possible finish is a settled problem up to symmetry), the
    fewest moves finishing in the start hole where that is a proved problem up to symmetry, and per solvable start
    the fewest moves to each finish its position class allows (on boards with listed problems)."""

    anywhere: dict[str, int]
    home: dict[str, int]
    finishes: dict[str, tuple[FinishCell, ...]] = field(default_factory=dict)


def table_proofs(b: Board, rows: Sequence[PegRow], settled: Mapping[tuple[str, str], int | None]) -> TableProofs:
    """The table's additions from the settled problems (start, finish) -> fewest moves (None: impossible)."""
    proved = {pair: m for pair, m in settled.items() if m is not None}
    anywhere = {
        row.hole: m
        for row in rows
        if settled
        and row.solvable
        and row.min_moves is None
        and (m := fewest_anywhere(b, row.hole, settled)) is not None
    }
    home: dict[str, int] = {}
    for row in rows:
        listed = listed_problem(b, row.hole, row.hole) if row.home else None
        if listed in proved:
            home[row.hole] = proved[listed]
    return TableProofs(anywhere, home, finish_cells(b, rows, settled))


def finish_cells(
    b: Board, rows: Sequence[PegRow], settled: Mapping[tuple[str, str], int | None]
) -> dict[str, tuple[FinishCell, ...]]:
    """Per solvable start, each finish its position class allows with the fewest moves of its listed problem where
    settled; nothing on a board without listed problems."""
    if not PROBLEMS.get(b.name):
        return {}
    out: dict[str, tuple[FinishCell, ...]] = {}
    for row in rows:
        if not row.solvable:
            continue
        cells = []
        for f in class_finals(b, b.start(row.hole)):
            listed = listed_problem(b, row.hole, b.labels[f])
            known = listed is not None and listed in settled
            cells.append(FinishCell(b.labels[f], listed, known, settled[listed] if listed and known else None))
        out[row.hole] = tuple(cells)
    return out


def _back(b: Board, hole: str, finish: str, problem: tuple[str, str]) -> tuple[int, ...]:
    """The inverse of the symmetry of the board taking hole and finish onto the listed problem's start and finish."""
    h, f = b.index(hole), b.index(finish)
    ph, pf = b.index(problem[0]), b.index(problem[1])
    return next(tuple(sym.index(x) for x in range(b.size)) for sym in b.symmetries if sym[h] == ph and sym[f] == pf)


def problem_solution(b: Board, hole: str, finish: str, report: PegReport) -> Analysis | None:
    """A proved listed problem's solution (its report, settled up to symmetry) as the analysis of the start without
    hole finishing on finish, its moves mapped by the symmetry and replayed by the rules (None if the report holds
    no proof of fewest moves)."""
    listed = listed_problem(b, hole, finish)
    if listed is None or not report.proved or report.min_moves is None:
        return None
    inverse = _back(b, hole, finish, listed)
    moves = [tuple(inverse[b.index(x)] for x in move) for move in report.solution]
    end = replay(b, b.start(hole), moves)
    if pegs(end) != 1 or end != 1 << b.index(finish) or len(moves) != report.min_moves:
        raise AssertionError("a proved peg solution failed its replay")
    return Analysis(True, report.min_moves, report.min_jumps, {b.index(finish): report.min_moves}, moves, report.method)


def proved_start(b: Board, hole: str, finish: str | None, reports: Mapping[str, PegReport | None]) -> Analysis | None:
    """The proved fewest-move solution from a start, from the settled listed problems: for a finish hole, its
    problem's up to symmetry; finishing anywhere, the least of every finish the start's position class allows,
    once each of them is settled (reports: the stored report of each finish's problem, None when not stored).
    None when the proofs at hand do not settle it."""
    finishes = [finish] if finish else [b.labels[f] for f in class_finals(b, b.start(hole))]
    found = []
    for f in finishes:
        report = reports.get(f)
        if report is None or not report.proved:
            return None
        if report.solvable:
            found.append(problem_solution(b, hole, f, report))
    best = min((a for a in found if a is not None), key=lambda a: len(a.solution), default=None)
    if best is None and found == [] and finishes:
        return Analysis(False, None, None, {}, [], "bidirectional")  # every finish proved impossible
    return best


def on_proved_path(b: Board, start: int, proved: Analysis, position: int, finish: str | None) -> Analysis | None:
    """The rest of a solution from start, from a position it passes through (up to a symmetry of the board that
    keeps the finish hole), replayed to its end. A proved fewest-move solution's rest is proved the fewest from
    there too, since a shorter rest would make a shorter whole; a solution found by search (no fewest moves) gives
    a rest that is a solution, no more. None when the position is not on it."""
    if not proved.solvable or not proved.solution:
        return None
    keep = [s for s in b.symmetries if not finish or s[b.index(finish)] == b.index(finish)]
    here = start
    for done, _ in enumerate(proved.solution):
        for sym in keep:
            if sum(1 << sym[h] for h in range(b.size) if here >> h & 1) == position:
                rest = [tuple(sym[h] for h in move) for move in proved.solution[done:]]
                end = replay(b, position, rest)
                if pegs(end) != 1 or (finish and end != 1 << b.index(finish)):
                    raise AssertionError("the rest of a proved peg solution failed its replay")
                if proved.min_moves is None:  # found, not proved: a way to finish from here
                    return Analysis(True, None, None, None, rest, proved.method)
                finals = {end.bit_length() - 1: len(rest)}
                return Analysis(True, proved.min_moves - done, None, finals, rest, proved.method)
        here = replay(b, here, proved.solution[done : done + 1])
    return None


def settled_report(b: Board, hole: str, finish: str | None, a: Analysis) -> PegReport:
    """The report of a start whose fewest moves the proved listed problems settle (`proved_start`)."""
    pos = b.start(hole)
    finals: dict[str, int | None] = {b.labels[h]: m if finish else None for h, m in sorted((a.finals or {}).items())}
    return PegReport(
        board=b.name,
        hole=hole,
        position=to_token(b, pos),
        finish=finish,
        solvable=a.solvable,
        min_moves=a.min_moves,
        min_jumps=a.min_jumps,
        finals=finals,
        solution=tuple(labels(b, m) for m in a.solution),
        method=a.method,
        proved=True,
        class_finals=tuple(b.labels[h] for h in class_finals(b, pos)),
    )


def doomed(g: PegGame, searched: Callable[[int], bool | None]) -> str | None:
    """Why a position can no longer be finished, when that is known at once (None: it can, or it is not known):
    the jump invariant's class, else `searched` (whether an exhaustive search finds it solvable; None where none
    is run here)."""
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
    if searched(pos) is False:
        target = f"one coin on {g.finish}" if g.finish else "one coin"
        return f"an exhaustive search finds no way to {target} from here"
    return None


@dataclass(frozen=True)
class PegVerdict:
    """The play page's one-line verdict: what the position is and what to do next; `table` when it ends with a
    pointer to the board's table of starts."""

    text: str
    table: bool = False


def verdict(
    g: PegGame, sel: int | None, can_jump: bool, why_doomed: str | None, solvable_starts: Sequence[str] | None
) -> PegVerdict:
    """The verdict for a position (sel: the selected coin's hole; can_jump: whether it has a jump)."""
    b, moves = g.board, jumps_to_moves(g.jumps)
    if g.missed:
        (last,) = (h for h in range(b.size) if g.position() >> h & 1)
        return PegVerdict(
            f"One coin left, but on {b.labels[last]}, not on {g.finish}: not solved for this goal. Undo, "
            "or change the goal."
        )
    if g.won:
        n = len(moves)
        on = f" on {g.finish}" if g.finish else ""
        return PegVerdict(f"Solved: one coin left{on}, in {n} move{'' if n == 1 else 's'} ({len(g.jumps)} jumps).")
    if g.dead:
        return PegVerdict(f"Dead end: no jump is possible and {pegs(g.position())} coins remain.")
    if why_doomed:
        if g.jumps:
            return PegVerdict(f"This position cannot be finished: {why_doomed}. Undo, or start again.")
        others = ""
        if solvable_starts:
            can = "be finished in their own hole" if g.finish else "be solved"
            others = f": {', '.join(solvable_starts)} can {can}"
        return PegVerdict(
            f"This position cannot be finished: {why_doomed}. Undo, or start again from another hole{others}",
            table=True,
        )
    if sel is None:
        return PegVerdict("Choose a coin to jump.")
    here = b.labels[sel]
    if not can_jump:
        return PegVerdict(f"The coin on {here} cannot jump from here: choose another coin.")
    if moves and moves[-1][-1] == sel:
        return PegVerdict(f"The coin on {here} can jump again: choose where, or choose another coin.")
    return PegVerdict(f"Coin on {here} selected: choose where it jumps.")


@dataclass(frozen=True)
class PegPlayPage:
    """The peg board's play page, without its links: the game, the coins on the board, the selected coin (a hole,
    or None), every legal jump, the selected coin's jumps each with whether the coin can jump again after it (it
    then stays selected), the moves so far as labels, the verdict, and every legal jump with that same flag (the
    page's script selects a coin without asking the server)."""

    game: PegGame
    occupied: frozenset[int]
    sel: int | None
    legal: tuple[Jump, ...]
    targets: tuple[tuple[Jump, bool], ...]
    moves: tuple[tuple[str, ...], ...]
    verdict: PegVerdict
    every: tuple[tuple[Jump, bool], ...] = ()

    @property
    def board(self) -> Board:
        """The board."""
        return self.game.board

    @property
    def coins(self) -> int:
        """Coins left."""
        return pegs(self.game.position())

    @property
    def ended(self) -> bool:
        """Won, dead or finished on the wrong hole."""
        return self.game.won or self.game.dead or self.game.missed


def play_page(
    g: PegGame, sel_label: str, searched: Callable[[int], bool | None], starts: Sequence[str] | None
) -> PegPlayPage:
    """The play page's model for a game and the coin selected by its label ('' for none; InputError when no coin
    is there); `searched` and `starts` as `doomed` and `verdict` take them."""
    b, pos = g.board, g.position()
    sel = b.index(sel_label) if sel_label else None
    if sel is not None and not pos >> sel & 1:
        raise InputError(f"there is no coin on {sel_label} to select")
    legal = tuple(legal_jumps(b, pos))
    every = tuple((j, goes_on(b, pos, j)) for j in legal)
    targets = tuple((j, again) for j, again in every if j[0] == sel)
    said = verdict(g, sel, bool(targets), doomed(g, searched), starts)
    moves = tuple(labels(b, m) for m in jumps_to_moves(g.jumps))
    occupied = frozenset(h for h in range(b.size) if pos >> h & 1)
    return PegPlayPage(g, occupied, sel, legal, targets, moves, said, every)

"""Æquitas reports: a starting position's value and winning moves, and the whole table beside the paper."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from solvers.errors import InputError
from solvers.report import optional
from solvers.weighing.knowledge import UserPan, UserWeighing, pans

from .game import CONVENTIONS, Convention, Position, grouped_moves, grundy, playable
from .match import Match, MatchStep, MatchVerdict
from .paper import GAMES, PaperCell, agreement, cells
from .play import AequitasTable, realise

AEQUITAS_MAX_COINS = 40
PAPER_MISERE: Convention = "misere-stop-before-reveal"  # the reading the paper's tables follow


@dataclass(frozen=True)
class WinningMove:
    """A weighing that leaves the opponent a Grundy-0 position."""

    left: tuple[int | str, ...]
    right: tuple[int | str, ...]
    leads_to: str
    grundy: int


@dataclass(frozen=True)
class PositionReport:
    """A starting position's Grundy value, outcome class (P: the player to move loses) and winning moves."""

    game: str
    coins: int
    misere: bool
    extra: bool
    convention: Convention
    light: int | None
    fake: str | None
    position: str
    grundy: int
    outcome: str
    winning_moves: tuple[WinningMove, ...]

    def text(self) -> str:
        """The report in words."""
        return (
            f"{self.game} with {self.coins} coins ({self.convention}): Grundy value {self.grundy}, outcome "
            f"{self.outcome}; {len(self.winning_moves)} winning move(s)"
        )


def position_report(
    game: str,
    n: int,
    extra: bool,
    convention: Convention,
    light: int | None = None,
    heavy: int | None = None,
    fake: str | None = None,
) -> PositionReport:
    """Value and winning moves of a start: F_N, FI_N, or D(light, heavy) with the fake 'light' or 'heavy'."""
    if game not in GAMES:
        raise InputError(f"game must be one of {', '.join(GAMES)}")
    if convention not in CONVENTIONS:
        raise InputError(f"convention must be one of {', '.join(CONVENTIONS)}")
    if not 1 <= n <= AEQUITAS_MAX_COINS:
        raise InputError(f"coins must be 1 to {AEQUITAS_MAX_COINS}")
    light, fake_light = _destinies(n, light, heavy, fake) if game == "D" else (0, False)
    first_fake = (1 if fake_light else light + 1) if game == "D" else 1
    m = Match(game, n, extra, light, first_fake, not fake_light, convention, "you")
    t = m.start()
    pos, mirrored = t.position()
    winning = tuple(
        WinningMove(w[0], w[1], child.to_token(), 0)
        for child, move in playable(pos, t.goal, convention)
        if grundy(child, t.goal, convention) == 0
        for w in [realise(t, move, mirrored)]
    )
    value = grundy(pos, t.goal, convention)
    return PositionReport(
        game,
        n,
        convention != "normal",
        extra,
        convention,
        light if game == "D" else None,
        ("light" if fake_light else "heavy") if game == "D" else None,
        pos.to_token(),
        value,
        "P" if value == 0 else "N",
        winning,
    )


def _destinies(n: int, light: int | None, heavy: int | None, fake: str | None) -> tuple[int, bool]:
    """D's light-destined count and whether the fake is light-destined (defaults: all light, the fake light)."""
    light = n if light is None else light
    heavy = n - light if heavy is None else heavy
    if not 0 <= light <= n or light + heavy != n:
        raise InputError("light + heavy must equal coins")
    fake = fake or ("light" if light else "heavy")
    if fake not in ("light", "heavy"):
        raise InputError("fake must be light or heavy")
    if fake == "heavy" and heavy == 0:
        raise InputError("the fake cannot be heavy: no coin would be heavy if it were the fake")
    if fake == "light" and light == 0:
        raise InputError("the fake cannot be light: no coin would be light if it were the fake")
    return light, fake == "light"


@dataclass(frozen=True)
class Certificate:
    """One option of a position: where it leads, its value, and whether it reveals everything."""

    position: str
    grundy: int
    reveals: bool


@dataclass(frozen=True)
class TableCell:
    """One cell of the comparison with the paper."""

    game: str
    coins: int
    extra: bool
    light: int | None
    fake: str | None
    convention: Convention
    grundy: int
    paper: int | None
    source: str
    agrees: bool
    certificate: tuple[Certificate, ...] | None = optional()
    options: int | None = optional()  # the certificate's options, counted, where the table was sent without them


@dataclass(frozen=True)
class Agreement:
    """How many cells of one convention agree with the paper."""

    agree: int
    cells: int


@dataclass(frozen=True)
class TableReport:
    """Every game N = 1..max_coins under every convention, beside the paper's formulas."""

    max_coins: int
    paper_tables_use: Convention
    agreement: dict[Convention, Agreement]
    cells: tuple[TableCell, ...]
    certificates: bool = True  # each disagreeing cell's certificate listed (False: counted in `options`)

    def text(self) -> str:
        """The agreement counts in words."""
        return "\n".join(
            f"{conv}: {a.agree} of {a.cells} cells agree with the paper" for conv, a in self.agreement.items()
        )


@lru_cache(maxsize=4)
def table_cells(max_coins: int) -> tuple[PaperCell, ...]:
    """The comparison table (cached: it is the same for everyone)."""
    return tuple(cells(max_coins))


def _table_cell(c: PaperCell) -> TableCell:
    """A cell as reported, with its certificate when it disagrees with the paper."""
    d = c.game == "D"
    cert = None if c.agrees else tuple(Certificate(p, v, r) for p, v, r in c.certificate())
    return TableCell(
        c.game,
        c.n,
        c.extra,
        c.light if d else None,
        ("light" if c.fake_light else "heavy") if d else None,
        c.convention,
        c.searched,
        c.paper,
        c.source,
        c.agrees,
        cert,
    )


def table_report(max_coins: int, rows: tuple[PaperCell, ...] | None = None) -> TableReport:
    """The whole comparison table (from its cells when already computed)."""
    rows = table_cells(max_coins) if rows is None else rows
    agree = {k: Agreement(a, n) for k, (a, n) in agreement(list(rows)).items()}
    return TableReport(max_coins, PAPER_MISERE, agree, tuple(_table_cell(c) for c in rows))


def without_certificates(report: TableReport) -> TableReport:
    """The table as the API and the command line send it unless certificates are asked for: each disagreeing
    cell's certificate counted (options) instead of listed, a fiftieth of the size (N <= 30: 1.1 MB against 22)."""
    cells = tuple(
        replace(c, certificate=None, options=len(c.certificate)) if c.certificate is not None else c
        for c in report.cells
    )
    return replace(report, cells=cells, certificates=False)


TABLE_COLUMNS: tuple[tuple[str, bool], ...] = (
    ("F", False),
    ("FI", False),
    ("F", True),
    ("FI", True),
    ("D", False),
    ("D", True),
)  # (game, extra genuine coin): the table's columns; D with every coin light-destined (l = N)


@dataclass(frozen=True)
class AequitasTableView:
    """The comparison table as the site shows it: per convention, a row per N of the cells in TABLE_COLUMNS (None
    where no cell was computed), the D(l, h) cells that disagree with the paper (listed below the grid), and the
    agreement counts."""

    max_coins: int
    grid: dict[Convention, list[tuple[int, list[PaperCell | None]]]]
    flagged: dict[Convention, list[PaperCell]]
    agree: dict[Convention, tuple[int, int]]


def table_view(rows: tuple[PaperCell, ...], max_coins: int) -> AequitasTableView:
    """The table's view of its cells."""
    index = {(c.convention, c.game, c.n, c.extra): c for c in rows if c.game != "D" or c.light == c.n}
    grid = {
        conv: [
            (n, [index.get((conv, game, n, extra)) for game, extra in TABLE_COLUMNS]) for n in range(1, max_coins + 1)
        ]
        for conv in CONVENTIONS
    }
    flagged = {
        conv: [c for c in rows if c.convention == conv and c.game == "D" and not c.agrees] for conv in CONVENTIONS
    }
    return AequitasTableView(max_coins, grid, flagged, agreement(list(rows)))


@dataclass(frozen=True)
class MoveHint:
    """A move the player may make: the position it leads to, its Grundy value, whether it reveals everything, and
    a weighing of the table's coins that makes it."""

    position: str
    grundy: int
    reveals: bool
    weighing: str


@dataclass(frozen=True)
class AequitasPlayView:
    """A position of a match as the play page shows it: the table, the position (and whether it is mirrored), the
    verdict once it is over, every step so far, the last weighing or two (the player's and the computer's reply,
    numbered, with their pans), the position's Grundy value and, when asked, a hint for every move."""

    table: AequitasTable
    position: Position
    mirrored: bool
    over: MatchVerdict | None
    steps: tuple[MatchStep, ...]
    recent: tuple[tuple[int, MatchStep, tuple[UserPan, UserPan]], ...]
    value: int
    hints: tuple[MoveHint, ...]


def play_view(m: Match, ws: tuple[UserWeighing, ...], hint: bool) -> AequitasPlayView:
    """The play page's model after the weighings ws."""
    t = m.replay(ws)[-1]
    pos, mirrored = t.position()
    over = m.verdict(t, len(ws))
    steps = m.steps(ws)
    last = steps[-2:] if len(steps) >= 2 and steps[-1].mover != steps[-2].mover == "you" else steps[-1:]
    recent = tuple((len(steps) - len(last) + i + 1, step, pans(step.weighing)) for i, step in enumerate(last))
    hints = []
    if hint and not over:
        for child, value, move, reveals in grouped_moves(pos, t.goal, m.convention):
            w = realise(t, move, mirrored)
            weighing = f"{', '.join(map(str, w[0]))} against {', '.join(map(str, w[1]))}"
            hints.append(MoveHint(child.plain(mirrored), value, reveals, weighing))
    return AequitasPlayView(
        t, pos, mirrored, over, tuple(steps), recent, grundy(pos, t.goal, m.convention), tuple(hints)
    )


@dataclass(frozen=True)
class StartVerdict:
    """Who wins a match's start with best play (the first player exactly when its Grundy value is not 0), why, in
    one line, and whether that is the player."""

    value: int
    first_wins: bool
    you_win: bool
    you_first: bool
    reason: str


def first_turn_sentence(m: Match, value: int) -> str | None:
    """The end screen's word on the player's first turn (normal play only): whether a win could be forced from it,
    from its Grundy value."""
    if m.convention != "normal":
        return None
    can = "could force a win" if value else "could not force a win against best play"
    return f"you {can} from your first turn (Grundy value {value})"


def start_verdict(m: Match) -> StartVerdict:
    """The start's verdict under the match's rule, from its Grundy value (exhaustive search)."""
    t = m.start()
    pos, _ = t.position()
    value = grundy(pos, t.goal, m.convention)
    first_wins = value != 0
    if first_wins:
        reason = f"its Grundy value is {value}, so a first weighing can leave value 0, lost for the player to move"
    else:
        reason = "its Grundy value is 0, so whatever the first player weighs, the other can win"
    return StartVerdict(value, first_wins, first_wins == (m.first == "you"), m.first == "you", reason)


@dataclass(frozen=True)
class AequitasPlayPage:
    """The Æquitas play page, without its links: the match, the weighings in effect, the position's view (with the
    hints when asked), who moves next, the Grundy values before and after the player's last weighing, and, once
    the match is over, the player's weighings and the end screen's word on the first turn."""

    match: Match
    weighings: tuple[UserWeighing, ...]
    view: AequitasPlayView
    to_move: str
    grundy_step: tuple[int, int] | None
    your_weighings: int
    first_turn: str | None


def play_page(m: Match, ws: tuple[UserWeighing, ...], hint: bool) -> AequitasPlayPage:
    """The play page's model after the weighings ws."""
    v = play_view(m, ws, hint)
    mine = [i for i in range(len(ws)) if m.mover(i) == "you"]
    step = None
    if mine:
        step = (play_view(m, ws[: mine[-1]], False).value, play_view(m, ws[: mine[-1] + 1], False).value)
    first = first_turn_sentence(m, play_view(m, m.advance(()), False).value) if v.over is not None else None
    return AequitasPlayPage(m, ws, v, m.mover(len(ws)), step, len(mine), first)

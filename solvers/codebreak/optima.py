"""The table of proved Mastermind optima (colours may repeat, black and white pegs, the game ends when the secret
is guessed): which sizes it lists, what has been published about them, and the table's rows and chart built from
the proved trees.

Each cell is two complete searches (`optimal`): the least total number of guesses over all secrets (the
optimal average, with the worst case of that tree) and the least worst case. Published values are listed with
their sources; a cell agrees when its proved total equals the published one (or rounds to the published average
where only that is printed). A cell with no publication is new as far as this project's sources go.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, NamedTuple

from .strategy import Stats

OPTIMA_MAX_SECRETS = 8000  # the table's largest games
AUTOMATIC_SECRETS = 3125  # cells up to this size are queued by `make run`; larger ones (minutes each) by
# `make precompute` only
# sizes whose proof has not finished in make frontier's runs (sessions long; its snapshot in webapp/data/proofs
# holds how far it got): `coin-puzzles precompute` tries them after everything else. None now: 5x6, the last, was
# proved on 2026-11-26
FRONTIER: frozenset[tuple[int, int]] = frozenset()
PEGS = range(2, 7)  # as the game pages offer
COLOURS = range(2, 10)

SOURCES = {  # short name -> the full reference
    "Goddard 2004": 'W. Goddard, "Mastermind revisited", J. Combin. Math. Combin. Comput. 51 (2004): averages to '
    "three decimals",
    "Goddard 2004, Chen and Lin": "closed formulas for two pegs (Goddard 2004; Chen and Lin; a gap in the proof "
    "closed by M. Peczarski, 2018), not evaluated here",
    "Koyama and Lai 1993": "K. Koyama and T. W. Lai, J. Recreational Math. 25 (1993)",
    "Ville 2013": 'G. Ville, "An optimal Mastermind (4,7) strategy and more results in the expected case" (2013)',
    "arfst23": "arfst23/Mastermind on GitHub, README: 4.99780 guesses on average, worst case 7",
}


@dataclass(frozen=True)
class Published:
    """A published optimal average: exactly (total) or rounded to three decimals (average), with its source (a
    key of SOURCES)."""

    source: str
    total: int | None = None
    average: str | None = None

    def agrees(self, total: int, secrets: int) -> bool | None:
        """Whether a proved total matches what was published (None: published as a formula not checked here)."""
        if self.total is not None:
            return total == self.total
        if self.average is None:
            return None
        return abs(Fraction(total, secrets) - Fraction(self.average)) <= Fraction(1, 2000)


PUBLISHED: dict[tuple[int, int], Published] = {
    **{(2, c): Published("Goddard 2004, Chen and Lin") for c in COLOURS},
    **{
        size: Published("Goddard 2004", average=average)
        for size, average in {
            (2, 2): "2.000",
            (3, 2): "2.250",
            (4, 2): "2.750",
            (5, 2): "3.031",
            (6, 2): "3.500",
            (2, 3): "2.333",
            (3, 3): "2.704",
            (4, 3): "3.037",
            (5, 3): "3.358",
            (2, 4): "2.813",
            (3, 4): "3.219",
            (4, 4): "3.535",
            (2, 5): "3.240",
            (3, 5): "3.608",
            (4, 5): "3.941",
        }.items()
    },
    (4, 6): Published("Koyama and Lai 1993", total=5625),
    (4, 7): Published("Ville 2013", total=11228),
    (4, 8): Published("arfst23", total=20471),
}
PUBLISHED_WORST = {(4, 6): (5, "Knuth, J. Recreational Math. 9 (1977)")}


def sizes(limit: int = OPTIMA_MAX_SECRETS) -> list[tuple[int, int]]:
    """The (pegs, colours) of the table's cells with at most `limit` secrets, smallest game first."""
    cells = [(p, c) for p in PEGS for c in COLOURS if c**p <= limit]
    return sorted(cells, key=lambda pc: (pc[1] ** pc[0], pc))


def code_label(index: int, pegs: int, colours: int) -> str:
    """The code with this index in the game's order (the first peg most significant; colours A, B, ...)."""
    digits = []
    for _ in range(pegs):
        index, d = divmod(index, colours)
        digits.append(chr(ord("A") + d))
    return "".join(reversed(digits))


CellState = Literal["proved", "pending", "refused"]


class Kept(NamedTuple):
    """A certificate kept in the project: its file, the total it certifies, and, where recorded, the day it was
    made, the CPU seconds its proof took (one process, the search's log on) and those the independent checker took
    (one process), and its number of claims."""

    name: str
    total: int
    made: str | None = None
    proof_cpu_seconds: float | None = None
    check_cpu_seconds: float | None = None
    claims: int | None = None


@dataclass(frozen=True)
class OptimaCell:
    """One size: the proved optimal total (its average and the worst case of that tree), the optimal worst case,
    the first guess of the optimal-average tree, and what has been published."""

    pegs: int
    colours: int
    secrets: int
    state: CellState
    total: int | None
    average: str | None  # total / secrets to six decimals
    worst_of_average: int | None
    optimal_worst: int | None
    first_guess: str | None
    published: str | None  # the source's short name (a key of SOURCES), if any
    published_value: str | None  # as published ('formula': a closed formula, not evaluated here)
    agrees: bool | None  # None: nothing published, published as an unchecked formula, or not proved yet
    new: bool  # proved, and not in the publications this project checked
    note: str = ""  # why a cell is refused or still pending
    certificate: str | None = None  # its certificate file of the same total (webapp/data/certificates), if any
    certified_on: str | None = None  # the day that certificate was made, and the CPU seconds its proof and its ...
    proof_cpu_seconds: float | None = None
    check_cpu_seconds: float | None = None  # ... independent check took, where recorded


def cell(
    pegs: int,
    colours: int,
    average: tuple[int | None, Stats] | None,
    worst: Stats | None,
    note: str = "",
    certified: dict[tuple[int, int], Kept] | None = None,
) -> OptimaCell:
    """A cell from its optimal-average result (first guess, statistics) and its optimal-worst statistics, either
    missing while it is computed (note: its progress) or refused (note: why); certified: the certificates kept,
    (pegs, colours) -> what is kept, a cell showing its own when the totals agree."""
    n = colours**pegs
    pub = PUBLISHED.get((pegs, colours))
    shown = None if pub is None else (f"{pub.total:,}" if pub.total is not None else pub.average or "formula")
    source = None if pub is None else pub.source
    if average is None:
        state: CellState = "refused" if note.startswith("refused") else "pending"
        return OptimaCell(pegs, colours, n, state, None, None, None, None, None, source, shown, None, False, note)
    first, st = average
    assert st.verified, "only verified trees are shown"
    agrees = None if pub is None else pub.agrees(st.total, n)
    kept = (certified or {}).get((pegs, colours))
    kept = kept if kept is not None and kept.total == st.total else None
    return OptimaCell(
        pegs,
        colours,
        n,
        "proved",
        st.total,
        f"{st.total / n:.6f}",
        st.worst,
        None if worst is None else worst.worst,
        None if first is None else code_label(first, pegs, colours),
        source,
        shown,
        agrees,
        pub is None,
        note,
        *((kept.name, kept.made, kept.proof_cpu_seconds, kept.check_cpu_seconds) if kept else ()),
    )


@dataclass(frozen=True)
class Point:
    """A point of the chart in its own units: secrets (log scale) across, average guesses up."""

    x: float
    y: float
    label: str


@dataclass(frozen=True)
class Series:
    """One line of the chart: the proved cells of one number of pegs."""

    pegs: int
    points: tuple[Point, ...]


@dataclass(frozen=True)
class OptimaReport:
    """The table and its chart."""

    rows: tuple[OptimaCell, ...]
    sources: dict[str, str]  # the short names used by the rows -> the full references
    chart: tuple[Series, ...]
    x_ticks: tuple[Point, ...]  # secrets 10, 100, 1,000 along the bottom
    y_ticks: tuple[Point, ...]  # whole numbers of guesses up the side
    proved: int
    new: int
    disagreements: int
    certified: int  # proved sizes whose certificate is kept
    beyond: tuple[OptimaCell, ...] = ()  # certified sizes past the table's games (more colours or secrets)

    def text(self) -> str:
        """The table in words, one size a line."""
        lines = [
            f"{self.proved} of {len(self.rows)} sizes proved, {self.new} new, {self.disagreements} disagreements, "
            f"{self.certified} with a certificate"
        ]
        if self.beyond:
            lines[0] += f"; {len(self.beyond)} certified past the table"
        for c in (*self.rows, *self.beyond):
            size = f"{c.pegs}x{c.colours} ({c.secrets:,} secrets)"
            if c.total is None:
                lines.append(f"{size}: {c.note}")
                continue
            worst = "-" if c.optimal_worst is None else c.optimal_worst
            known = (
                "new"
                if c.published is None
                else f"{'agrees with' if c.agrees else 'DISAGREES with'} {c.published_value}"
            )
            lines.append(
                f"{size}: total {c.total:,}, average {c.average}, worst of that tree {c.worst_of_average}, least worst "
                f"case {worst}, first guess {c.first_guess}; {known}"
                + (f"; certificate {c.certificate}" if c.certificate else "")
                + (f" made {c.certified_on}" if c.certified_on else "")
                + (f", proof {c.proof_cpu_seconds:,.1f} CPU s" if c.proof_cpu_seconds is not None else "")
                + (f", check {c.check_cpu_seconds:,.1f} CPU s" if c.check_cpu_seconds is not None else "")
            )
        return "\n".join(lines)


WIDTH, HEIGHT, MARGIN = 640.0, 320.0, 40.0  # the chart's drawing area (SVG user units)


def report(rows: list[OptimaCell], beyond: tuple[OptimaCell, ...] = ()) -> OptimaReport:
    """The table's rows and the chart of average guesses against the number of secrets (a log scale); beyond: the
    certified sizes past the table, listed after it."""
    proved = [r for r in rows if r.total is not None]
    top = max((math.log10(r.secrets) for r in proved), default=1.0) or 1.0
    ceiling = max((r.total / r.secrets for r in proved if r.total is not None), default=1.0)
    series = []
    for p in sorted({r.pegs for r in proved}):
        points = tuple(
            Point(
                round(MARGIN + (WIDTH - 2 * MARGIN) * math.log10(r.secrets) / top, 1),
                round(HEIGHT - MARGIN - (HEIGHT - 2 * MARGIN) * (r.total / r.secrets) / ceiling, 1),
                f"{r.pegs}x{r.colours}: {r.average}",
            )
            for r in proved
            if r.pegs == p and r.total is not None
        )
        series.append(Series(p, points))
    across = WIDTH - 2 * MARGIN
    x_ticks = tuple(
        Point(round(MARGIN + across * e / top, 1), HEIGHT - MARGIN, f"{10**e:,}") for e in range(1, int(top) + 1)
    )
    y_ticks = tuple(
        Point(MARGIN, round(HEIGHT - MARGIN - (HEIGHT - 2 * MARGIN) * g / ceiling, 1), str(g))
        for g in range(1, int(ceiling) + 1)
    )
    return OptimaReport(
        tuple(rows),
        {k: v for k, v in SOURCES.items() if any(r.published == k for r in rows)},
        tuple(series),
        x_ticks,
        y_ticks,
        len(proved),
        sum(r.new for r in proved),
        sum(r.agrees is False for r in proved),
        sum(r.certificate is not None for r in proved),
        beyond,
    )

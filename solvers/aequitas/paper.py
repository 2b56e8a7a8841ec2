"""The paper's closed-form Grundy values, and a cell-by-cell comparison with exhaustive search.

Sources (all in the seed, Burke et al. 2022): Lemma 1 (destined coins, extra coin), Corollary 3 with
Tables 1 and 2 (destined coins, no extra coin), Corollary 4 (their P-positions), Lemma 6 and Table 4 (unknown
coins, extra coin), Table 3 (two unknown coins), Lemmas 9 and 10 with Tables 6 and 8 (unknown coins, no extra
coin), Corollary 7 (won in one move). The search is the source of truth; the formulas are what we compare.
"""

from __future__ import annotations

from dataclasses import dataclass

from solvers.progress import Tick, quiet
from solvers.weighing.problem import Goal

from .game import CONVENTIONS, Convention, Position, grundy, options, start

GAMES = ("D", "F", "FI")


def unreachable(n: int, light: int) -> int:
    """Corollary 3: the smallest number of destined coins not reachable in one move from D(l, h)."""
    heavy = n - light
    if n == 2 * light:
        return n - 1
    if n % 2 == 0 and min(light, heavy) == 1:
        return 1
    base = n // 2 + min(light, heavy)
    return base + 1 if (base + 1) % 2 != n % 2 else base + 2


def paper_value(game: str, n: int, extra: bool, misere: bool, light: int = 0) -> tuple[int | None, str]:
    """The paper's Grundy value for a game (None: the paper calls it impossible or excludes it), and its source."""
    if game == "D":
        if extra:
            value = n - 2 if misere else n - 1
            return (value if value >= 0 else None), "Lemma 1"
        if n == 2 and light == 1:
            return None, "excluded (Section 2, N = 2)"
        u = unreachable(n, light)
        src = "Table 1" if light in (0, n) else "Table 2" if 2 * light == n else "Corollary 3"
        value = u - 2 if misere else u - 1
        return (value if value >= 0 else None), src
    identify = game == "FI"
    if extra:
        if n == 1:
            table3 = {(False, False): 0, (True, False): 1, (False, True): None, (True, True): 1}
            return table3[(identify, misere)], "Section 3.1 (one unknown coin)"
        return (n - 1 if misere else n), "Lemma 6 / Table 4"
    if n % 2 == 0:
        return (n - 2 if misere else 0), "Lemma 9 / Table 6"
    values = {(False, False): 1, (True, False): 0, (False, True): 1, (True, True): 1}
    return values[(identify, misere)], "Lemma 10 / Table 8"


@dataclass(frozen=True)
class PaperCell:
    """One cell of the comparison: a game position, the searched value and the paper's."""

    game: str
    n: int
    extra: bool
    light: int
    fake_light: bool
    convention: Convention
    searched: int
    paper: int | None
    source: str

    @property
    def agrees(self) -> bool:
        """True when the paper's formula gives the searched value ('impossible' matches a finished start)."""
        if self.paper is None:
            return not options(self.position, self.goal)
        return self.paper == self.searched

    @property
    def position(self) -> Position:
        """The starting position of this cell."""
        return start(self.game, self.n, self.extra, self.light, self.fake_light)

    @property
    def goal(self) -> Goal:
        """What the Observer must learn."""
        return "identify" if self.game == "FI" else "find"

    def certificate(self) -> list[tuple[str, int, bool]]:
        """The position's options with their values: (position, Grundy value, reveals everything)."""
        conv, goal = self.convention, self.goal
        return [(c.describe(), grundy(c, goal, conv), c.goal_reached(goal)) for c in options(self.position, goal)]


def cells(max_coins: int, tick: Tick = quiet) -> list[PaperCell]:
    """Every game, N = 1..max_coins, with and without the extra coin, under every convention."""
    out = []
    for n in range(1, max_coins + 1):
        tick(n * n, max_coins * max_coins)  # the work grows with about N^2 cells
        for extra in (False, True):
            for conv in CONVENTIONS:
                misere = conv != "normal"
                for light in range(n + 1):
                    for fake_light in (False, True):
                        if (fake_light and light == 0) or (not fake_light and light == n):
                            continue  # the fake must have a coin of its destiny
                        pos = start("D", n, extra, light, fake_light)
                        value, src = paper_value("D", n, extra, misere, light)
                        out.append(
                            PaperCell("D", n, extra, light, fake_light, conv, grundy(pos, "find", conv), value, src)
                        )
                for game in ("F", "FI"):
                    goal: Goal = "identify" if game == "FI" else "find"
                    value, src = paper_value(game, n, extra, misere)
                    out.append(
                        PaperCell(game, n, extra, 0, False, conv, grundy(start(game, n, extra), goal, conv), value, src)
                    )
    return out


def agreement(table: list[PaperCell]) -> dict[Convention, tuple[int, int]]:
    """For each convention: (cells agreeing with the paper, cells compared)."""
    out: dict[Convention, tuple[int, int]] = {}
    for conv in CONVENTIONS:
        mine = [c for c in table if c.convention == conv]
        out[conv] = (sum(c.agrees for c in mine), len(mine))
    return out

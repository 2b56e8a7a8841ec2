"""The shipped code-breaking game files, read once per process, and their built games and strategy trees."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from solvers.codebreak import Game, Node, Spec, Stats, Strategy, build, parse
from solvers.codebreak.solve import TreeRequest, solve
from solvers.codebreak.strategy import Proving
from solvers.errors import InputError
from solvers.parallel import ONE, Execution
from webapp.config import ROOT

GAMES_DIR = ROOT / "games"
Sizes = tuple[int | None, int | None, int | None]  # pegs, colours, coins (None: the file's own)


@lru_cache(maxsize=1)
def shipped() -> dict[str, Spec]:
    """The game files that come with the project."""
    return {p.stem: parse(p.read_text()) for p in sorted(GAMES_DIR.glob("*.game"))}


def game_spec(name: str, files: bool = False) -> Spec:
    """A shipped game, or (files=True, for the command line) a game file by path."""
    games = shipped()
    if name in games:
        return games[name]
    path = Path(name)
    if files and path.suffix == ".game" and path.is_file():
        return parse(path.read_text())
    raise InputError(f"no game {name[:40]!r}: shipped games are {', '.join(games)}")


def default_sizes(spec: Spec) -> Sizes:
    """The sizes a game file declares (pegs and colours, or coins), as the pages use them by default."""
    if spec.secrets[0] == "coins":
        return None, None, int(spec.secrets[1].get("count", "4"))
    return int(spec.secrets[1].get("length", "4")), int(spec.secrets[1].get("colours", "6")), None


@lru_cache(maxsize=8)  # the five shipped games and a few sizes of visitors' own
def load(name: str, pegs: int | None = None, colours: int | None = None, coins: int | None = None) -> Game:
    """A built game with its sizes overridden."""
    over = {k: v for k, v in (("length", pegs), ("colours", colours), ("count", coins)) if v is not None}
    return build(game_spec(name, files=True), over)


@lru_cache(maxsize=24)
def analysis(
    name: str,
    pegs: int | None,
    colours: int | None,
    coins: int | None,
    strategy: Strategy,
    max_guesses: int | None = None,
    possible_only: bool = False,
    run: Execution = ONE,
) -> tuple[Node, Stats]:
    """A strategy tree and its verified statistics (cached); the optimal average within max_guesses if given, the
    optimal strategy among those guessing only possible codes if asked; run: where an optimal proof runs."""
    game = load(name, pegs, colours, coins)
    return solve(TreeRequest(game, strategy, max_guesses, possible_only, proving=Proving(run=run)))

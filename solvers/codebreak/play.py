"""Playing a code-breaking game: guesses as codes, the adversarial code maker, a round replayed from its
guesses (against a hidden secret or the adversary), and following a strategy tree with real feedback."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from solvers.errors import IllegalMoveError, InputError, LimitError

from .game import COLOUR_NAMES, Game
from .strategy import HEURISTICS, choose
from .tree import Node

MAX_GUESSES = 12
HINT_WORK = 40_000_000  # scores a hint may compute per heuristic (about 0.15 s); more: after another guess


@dataclass(frozen=True)
class Terms:
    """A game's own words on its pages: what a code is made of, what a place is called, the two kinds of right
    piece (right place; right piece, wrong place), how each symbol A, B, C ... is shown, and its name."""

    symbol: str
    place: str
    right: str
    close: str
    glyphs: tuple[str, ...]
    names: tuple[str, ...]
    digits: bool = False

    def show(self, code: str) -> str:
        """A code as the page shows it (Bulls and Cows: digits)."""
        return "".join(self.glyph(ch) for ch in code)

    def letters(self, shown: str) -> str:
        """A code as the page shows it, back in the engine's letters (Bulls and Cows: '0123' -> 'ABCD'); letters
        stay as they are (the IDs written before digits were)."""
        text = shown.strip().upper()
        if not self.digits or not text or any(ch not in self.glyphs for ch in text):
            return text
        return "".join(chr(65 + self.glyphs.index(ch)) for ch in text)

    def glyph(self, letter: str) -> str:
        """One symbol as the page shows it ('?' stays '?')."""
        k = ord(letter) - 65
        return self.glyphs[k] if 0 <= k < len(self.glyphs) else letter

    def score(self, name: str) -> str:
        """A score such as '1B2W' in words: '1 black, 2 white' or '1 bull, 2 cows'."""
        right, _, rest = name.partition("B")
        close = rest.rstrip("W") or "0"
        plural = self.digits  # bulls and cows take a plural; black and white pegs are counted as colours
        return f"{right} {self.right}{'s' if plural and right != '1' else ''}, {close} {self.close}" + (
            "s" if plural and close != "1" else ""
        )


COLOUR_GLYPHS = tuple(chr(65 + i) for i in range(10))
BULLS_AND_COWS = Terms("digit", "place", "bull", "cow", tuple("0123456789"), tuple("0123456789"), digits=True)


def terms(g: Game) -> Terms:
    """The words and symbols of a game's pages: Bulls and Cows in digits, bulls and cows; the others in colours
    (letters A, B, C ... with the colour's name), pegs, black and white."""
    if g.spec.name == "bulls-and-cows":
        return BULLS_AND_COWS
    return Terms("colour", "peg", "black", "white", COLOUR_GLYPHS, COLOUR_NAMES)


def code_text(g: Game, index: int) -> str:
    """A secret as the game's pages and addresses write it (Bulls and Cows: digits, '0123'); `code_index` reads
    it back, and the engine's letters too (addresses written before digits were)."""
    return terms(g).show(g.secrets[index])


def code_index(g: Game, text: str) -> int:
    """A code like 'ABCD' (or as the page shows it: Bulls and Cows' '0123') as a secret index."""
    try:
        return g.secrets.index(terms(g).letters(text))
    except ValueError as e:
        raise InputError(f"{text[:20]!r} is not a code of this game") from e


def refusal(g: Game, code: str) -> str | None:
    """Why a guess entered as one letter per peg ('?' for a peg left empty) is not a code of the game, or None."""
    length = len(g.secrets[0])
    t = terms(g)
    if len(code) != length or "?" in code:
        return f"choose a {t.symbol} for each of the {length} {t.place}s first"
    if code in g.secrets:
        return None
    if len(set(code)) < len(code) and all(len(set(x)) == len(x) for x in g.secrets):
        return f"{t.show(code)} repeats a {t.symbol}, and in this game a code never does"
    return f"{t.show(code)} is not a code of this game"


def adversary_score(g: Game, alive: NDArray[np.int64], e: int) -> int:
    """The adversarial code maker's score: keep the largest set of consistent secrets (ties: lowest score),
    never conceding while another secret is left."""
    values, sizes = np.unique(g.outcomes(e, alive), return_counts=True)
    if len(alive) > 1:
        keep = [(int(s), -int(v)) for v, s in zip(values, sizes, strict=True) if int(v) != g.win_outcome]
        if keep:
            return -max(keep)[1]
    return int(values[np.argmax(sizes)])


@dataclass(frozen=True)
class Round:
    """A game replayed from its guesses: each guess's score and the secrets still consistent."""

    guesses: tuple[int, ...]
    outcomes: tuple[int, ...]
    alive: NDArray[np.int64]
    won: bool


def play_round(g: Game, guesses: tuple[int, ...], secret: int | None = None) -> Round:
    """Score each guess against the secret (or the adversarial maker when None); no guess after a win."""
    if not g.must_hit:
        raise InputError("play is for guess-the-secret games (Mastermind, Bulls and Cows)")
    if len(guesses) > MAX_GUESSES:
        raise LimitError(f"at most {MAX_GUESSES} guesses")
    alive = np.arange(len(g.secrets))
    outcomes: list[int] = []
    for e in guesses:
        if outcomes and outcomes[-1] == g.win_outcome:
            raise IllegalMoveError("the game was already won")
        o = g.outcome(e, secret) if secret is not None else adversary_score(g, alive, e)
        outcomes.append(o)
        alive = alive[g.outcomes(e, alive) == o]
    return Round(guesses, tuple(outcomes), alive, bool(outcomes) and outcomes[-1] == g.win_outcome)


def suggestions(g: Game, r: Round, trees: Mapping[str, Node | None] | None = None) -> dict[str, str | None]:
    """Each heuristic's next guess (the last secret itself when one is left). Where the player has followed a
    heuristic's own tree so far, its next node says it at once; elsewhere the heuristic is computed, when that
    scores at most HINT_WORK pairs (None: too many codes are still possible for a quick answer)."""
    if r.alive.size == 1:
        return dict.fromkeys(HEURISTICS, g.secrets[int(r.alive[0])])
    out: dict[str, str | None] = {}
    for s in HEURISTICS:
        node = along((trees or {}).get(s), r.guesses, r.outcomes)
        if node is not None and node.experiment is not None:
            out[s] = g.experiments[node.experiment]
        elif len(g.experiments) * r.alive.size <= HINT_WORK:
            out[s] = g.experiments[choose(g, r.alive, s)]
        else:
            out[s] = None
    return out


QUICK_HINT = 2_000_000  # below this many scores a heuristic answers in a few milliseconds: no need to keep it


def top(g: Game, root: Node) -> Node:
    """The part of a strategy tree whose suggestions cost more than QUICK_HINT scores to compute again: a copy
    of the nodes reached by more than QUICK_HINT / |experiments| secrets, each deeper node replaced by an empty
    one (no experiment), where `suggestions` computes the heuristic, which makes the same choice as its tree."""
    least = QUICK_HINT // max(1, len(g.experiments))

    def copy(node: Node | None) -> Node | None:
        if node is None or node.experiment is None:
            return node
        if node.secrets <= least:
            return Node(None, node.secrets)
        return Node(node.experiment, node.secrets, {o: copy(c) for o, c in node.children.items()})

    kept = copy(root)
    assert kept is not None
    return kept


def along(root: Node | None, guesses: Sequence[int], outcomes: Sequence[int]) -> Node | None:
    """The node a tree reaches when the game so far made exactly its guesses (None once it departs)."""
    node = root
    for e, o in zip(guesses, outcomes, strict=True):
        if node is None or node.experiment != e:
            return None
        node = node.children.get(o)
    return node


def follow(g: Game, root: Node, feedback: list[str]) -> Node | None:
    """The node of a strategy tree reached by real feedback (outcome names); IllegalMoveError on a contradiction."""
    node: Node | None = root
    for i, step in enumerate(feedback, 1):
        if node is None or node.experiment is None:
            raise IllegalMoveError(f"the plan has already finished before feedback {i}")
        if step not in g.outcome_names or g.outcome_names.index(step) not in node.children:
            raise IllegalMoveError(
                f"feedback {i} ({step[:20]}) contradicts the earlier feedback: no secret gives it here"
            )
        node = node.children[g.outcome_names.index(step)]
    return node


def guesses_followed(g: Game, root: Node, feedback: list[str]) -> list[str]:
    """The guesses a strategy tree makes along real feedback (`follow`), one for each feedback entered."""
    nodes = [follow(g, root, feedback[:i]) for i in range(len(feedback))]
    return [g.experiments[n.experiment] for n in nodes if n is not None and n.experiment is not None]


@dataclass(frozen=True)
class CodePlayPage:
    """A code-breaking game's play page, without its links: the game and its code maker, the round so far (each
    guess with its score), the codes still possible, whether it is won, the code's length, the symbols offered
    with their names, the game's own words, the secret once found (random maker), and why the last guess entered
    was refused (None: it was not)."""

    game: Game
    maker: str
    round: Round
    rows: tuple[tuple[str, str], ...]
    length: int
    colours: tuple[tuple[str, str], ...]
    terms: Terms
    secret: str | None
    refused: str | None

    @property
    def alive(self) -> int:
        """Codes still possible."""
        return int(self.round.alive.size)


def refused_guess(g: Game, code: str) -> str | None:
    """Why a guess that was refused (as it was entered, '?' for a peg left empty) is not a code of the game; None
    for text that is not such a guess."""
    code = code.upper()[:12]
    if not code or not all(ch == "?" or "A" <= ch <= "Z" for ch in code):
        return None
    return refusal(g, code)


def play_page(g: Game, maker: str, r: Round, secret: int | None, symbols: int, refused: str) -> CodePlayPage:
    """The play page's model after the round r (symbols: how many the guess row offers)."""
    words = terms(g)
    rows = tuple((g.secrets[e], g.outcome_names[o]) for e, o in zip(r.guesses, r.outcomes, strict=True))
    colours = tuple((chr(65 + i), words.names[i]) for i in range(symbols))
    shown = g.secrets[secret] if secret is not None and r.won else None
    return CodePlayPage(g, maker, r, rows, len(g.secrets[0]), colours, words, shown, refused_guess(g, refused))


def contradiction(g: Game, node: Node | None, entered: str) -> str | None:
    """Why a score entered at a node of a strategy's tree cannot be (no secret still possible gives it), or None."""
    if not entered or node is None or node.experiment is None:
        return None
    try:
        follow(g, node, [entered])
    except IllegalMoveError:
        return (
            f"{entered[:20]} contradicts the feedback so far: no secret still possible gives it to "
            f"{g.experiments[node.experiment]}. Check the last score you entered."
        )
    return None

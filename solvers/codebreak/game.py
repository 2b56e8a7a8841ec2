"""Code-breaking games after Klimoš's general model: secrets, experiments, and an outcome table.

Secrets and experiments are enumerated explicitly; the outcome of every experiment on every secret is held in
a NumPy table (small integers), so knowledge is just the array of secret indices still consistent.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations, permutations, product

import numpy as np
from numpy.typing import NDArray

from solvers.errors import InputError, LimitError
from solvers.weighing.case import all_cases
from solvers.weighing.knowledge import honest_outcome
from solvers.weighing.problem import Outcome, Problem

MAX_SECRETS = 6000
COLOUR_NAMES = ("red", "blue", "green", "yellow", "white", "black", "orange", "purple", "pink", "brown")


@dataclass(frozen=True)
class Spec:
    """A game as declared in its file (or through the Python API)."""

    name: str
    title: str
    secrets: tuple[str, dict[str, str]]
    experiments: tuple[str, dict[str, str]]
    outcome: str
    finish: str
    source: str = ""


@dataclass(frozen=True)
class Game:
    """A game ready to play: labels for secrets and experiments and the outcome table."""

    spec: Spec
    secrets: tuple[str, ...]
    experiments: tuple[str, ...]
    table: NDArray[np.uint8] = field(repr=False)  # table[e, s] = outcome of experiment e on secret s
    outcome_names: tuple[str, ...]
    must_hit: bool  # True: the game ends when an experiment is the secret itself (Mastermind)
    win_outcome: int  # the outcome meaning "this experiment is the secret" (must_hit games)
    orbit: tuple[int, ...] = ()  # each experiment's class under the game's symmetries (equal: equivalent at the start)

    @property
    def name(self) -> str:
        """The game's name."""
        return self.spec.name


def summary(spec: Spec) -> str:
    """The game file's opening comment, as one paragraph."""
    lines = []
    for line in spec.source.splitlines():
        if not line.startswith("#"):
            break
        lines.append(line.lstrip("# ").strip())
    return " ".join(lines)


# ---------------------------------------------------------------- parsing game files


def parse(text: str) -> Spec:
    """Parse a game file; InputError with the line number on anything malformed."""
    fields: dict[str, str] = {}
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if ":" not in line:
            raise InputError(f"line {n}: expected 'key: value'")
        key, value = (x.strip() for x in line.split(":", 1))
        if key not in ("name", "title", "secrets", "experiments", "outcome", "finish"):
            raise InputError(f"line {n}: unknown key {key!r}")
        if key in fields:
            raise InputError(f"line {n}: {key} given twice")
        fields[key] = value
    for key in ("name", "secrets", "experiments", "outcome", "finish"):
        if key not in fields:
            raise InputError(f"missing '{key}:' line")
    if fields["outcome"] not in ("black-white", "black", "balance"):
        raise InputError(f"unknown outcome {fields['outcome']!r} (black-white, black or balance)")
    if fields["finish"] not in ("guess-the-secret", "know-the-secret"):
        raise InputError("finish must be guess-the-secret or know-the-secret")
    return Spec(
        fields["name"],
        fields.get("title", fields["name"]),
        _kind(fields["secrets"], "secrets"),
        _kind(fields["experiments"], "experiments"),
        fields["outcome"],
        fields["finish"],
        text,
    )


def _kind(value: str, what: str) -> tuple[str, dict[str, str]]:
    """'sequences length=4 colours=6' -> ('sequences', {...})."""
    words = value.split()
    if not words or words[0] not in ("sequences", "coins", "weighings"):
        raise InputError(f"{what}: expected sequences, coins or weighings")
    params: dict[str, str] = {}
    for w in words[1:]:
        if "=" not in w:
            raise InputError(f"{what}: parameter {w!r} should be name=value")
        k, v = w.split("=", 1)
        params[k] = v
    return words[0], params


def _int(params: dict[str, str], key: str, lo: int, hi: int) -> int:
    """A whole-number parameter in range."""
    try:
        v = int(params[key])
    except (KeyError, ValueError) as e:
        raise InputError(f"parameter {key} must be a whole number") from e
    if not lo <= v <= hi:
        raise InputError(f"parameter {key} must be {lo} to {hi}")
    return v


# ---------------------------------------------------------------- building the outcome table


def sequences(params: dict[str, str]) -> list[tuple[int, ...]]:
    """All sequences of colours (with or without repeats)."""
    length, colours = _int(params, "length", 1, 8), _int(params, "colours", 2, 10)
    if params.get("repeats", "yes") == "yes":
        return list(product(range(colours), repeat=length))
    return list(permutations(range(colours), length))


def score_table(guesses: NDArray[np.int8], secrets: NDArray[np.int8], colours: int) -> NDArray[np.uint8]:
    """Every guess scored against every secret as black * (length + 1) + white, in blocks of guesses so that
    the temporary arrays stay small (a few MB even for Bulls and Cows' 5,040 x 5,040)."""
    length = guesses.shape[1]
    palette = np.arange(colours, dtype=np.int8)
    s_counts = (secrets[:, :, None] == palette).sum(axis=1, dtype=np.uint8)
    g_counts = (guesses[:, :, None] == palette).sum(axis=1, dtype=np.uint8)
    table = np.empty((len(guesses), len(secrets)), dtype=np.uint8)
    for lo in range(0, len(guesses), 128):
        g = guesses[lo : lo + 128]
        black = (g[:, None, :] == secrets[None, :, :]).sum(axis=2, dtype=np.uint8)
        common = np.minimum(g_counts[lo : lo + 128, None, :], s_counts[None, :, :]).sum(axis=2, dtype=np.uint8)
        table[lo : lo + 128] = black * (length + 1) + (common - black)
    return table


def build(spec: Spec, overrides: dict[str, int] | None = None) -> Game:
    """Enumerate secrets and experiments and fill the outcome table."""
    overrides = overrides or {}
    s_kind, s_params = spec.secrets[0], {**spec.secrets[1], **{k: str(v) for k, v in overrides.items()}}
    e_kind, e_params = spec.experiments[0], {**spec.experiments[1], **{k: str(v) for k, v in overrides.items()}}
    if s_kind == "sequences":
        return _build_sequences(spec, s_params, e_params)
    if s_kind == "coins" and e_kind == "weighings":
        return _build_coins(spec, s_params)
    raise InputError(f"secrets {s_kind} with experiments {e_kind} is not a supported combination")


def _build_sequences(spec: Spec, s_params: dict[str, str], e_params: dict[str, str]) -> Game:
    """Mastermind-like games."""
    secrets, experiments = sequences(s_params), sequences(e_params)
    if not secrets or not experiments:
        raise InputError("no codes: without repeated colours a code needs at least as many colours as pegs")
    if spec.finish == "guess-the-secret" and secrets != experiments:
        raise InputError("guess-the-secret games need the same secrets and experiments")
    if len(secrets) > MAX_SECRETS:
        raise LimitError(f"{len(secrets):,} secrets is more than this engine holds ({MAX_SECRETS:,})")
    length, colours = len(secrets[0]), _int(s_params, "colours", 2, 10)
    table = score_table(np.array(experiments, dtype=np.int8), np.array(secrets, dtype=np.int8), colours)
    if spec.outcome != "black-white":
        table //= length + 1  # black pegs only
    width = length + 1 if spec.outcome == "black-white" else 1
    names = tuple(
        f"{o // width}B{o % width}W" if spec.outcome == "black-white" else f"{o}B" for o in range(width * (length + 1))
    )
    win = length * width if spec.outcome == "black-white" else length
    labels = tuple("".join("ABCDEFGHIJ"[c] for c in s) for s in secrets)
    e_labels = tuple("".join("ABCDEFGHIJ"[c] for c in e) for e in experiments)
    # permuting colours and positions maps the game to itself: a code's class is its sorted colour counts
    patterns: dict[tuple[int, ...], int] = {}
    orbit = tuple(patterns.setdefault(tuple(sorted(Counter(e).values())), len(patterns)) for e in experiments)
    return Game(spec, labels, e_labels, table, names, spec.finish == "guess-the-secret", win, orbit)


SCALE = {Outcome.RIGHT: 0, Outcome.BALANCE: 1, Outcome.LEFT: 2}  # outcome numbers, as the names below


def _build_coins(spec: Spec, params: dict[str, str]) -> Game:
    """The counterfeit coin: secrets (coin, weight); experiments all weighings of k against k coins."""
    n = _int(params, "count", 1, 8)
    secrets = all_cases(Problem(n))
    weighings = []
    for k in range(1, n // 2 + 1):
        for left in combinations(range(1, n + 1), k):
            rest = [c for c in range(1, n + 1) if c not in left]
            for right in combinations(rest, k):
                if left < right:
                    weighings.append((left, right))
    table = np.zeros((len(weighings), len(secrets)), dtype=np.uint8)
    for i, (left, right) in enumerate(weighings):
        for j, case in enumerate(secrets):
            table[i, j] = SCALE[honest_outcome((left, right), case)]
    labels = tuple(f"{case.coin}{'+' if case.heavier else '-'}" for case in secrets)
    e_labels = tuple(f"{','.join(map(str, left))} v {','.join(map(str, right))}" for left, right in weighings)
    orbit = tuple(len(left) - 1 for left, _ in weighings)  # permuting coins: only the pan size matters
    return Game(spec, labels, e_labels, table, ("right heavier", "balance", "left heavier"), False, -1, orbit)

"""The weighing variants (a lying balance, two counterfeits, k pans) against an independent brute force.

The brute force below knows nothing of the solver's counts, classes or bounds: it holds the explicit set of
(secret, lies used) pairs still possible, tries every weighing of concrete coins (any equal-size disjoint groups,
one per pan), and lets the scale lie with any other reading. Its own reading rule is written here too.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

import pytest

from solvers.errors import InputError
from solvers.variants.model import Secret, Variant
from solvers.variants.plan import make_plan, verify
from solvers.variants.report import table, variant_report

Pair = tuple[tuple[int, ...], bool]


def _readings(k: int) -> tuple[str, ...]:
    """Every reading of a k-pan scale, as the brute force names them."""
    if k == 2:
        return ("L", "B", "R")
    return ("B", *[f"{i}" for i in range(1, k + 1)], *"abcde"[:k])


def _read(groups: tuple[frozenset[int], ...], fakes: tuple[int, ...], heavier: bool) -> str:
    """The honest reading: each pan's extra weight (+1 per heavy fake, -1 per light one)."""
    extra = [sum((1 if heavier else -1) for c in fakes if c in g) for g in groups]
    if len(groups) == 2:
        return "L" if extra[0] > extra[1] else "R" if extra[0] < extra[1] else "B"
    odd = [i for i, x in enumerate(extra) if x]
    if not odd:
        return "B"
    return f"{odd[0] + 1}" if extra[odd[0]] > 0 else "abcde"[odd[0]]


def _weighings(n: int, k: int) -> list[tuple[frozenset[int], ...]]:
    """Every weighing: k disjoint groups of the same size m >= 1, as an unordered collection of pans (but in a
    fixed order so that the readings can name pans)."""
    found: set[tuple[frozenset[int], ...]] = set()
    coins = range(1, n + 1)

    def extend(chosen: list[frozenset[int]], m: int) -> None:
        if len(chosen) == k:
            found.add(tuple(sorted(chosen, key=sorted)))
            return
        used = set().union(*chosen) if chosen else set()
        for g in combinations([c for c in coins if c not in used], m):
            extend([*chosen, frozenset(g)], m)

    for m in range(1, n // k + 1):
        extend([], m)
    return sorted(found, key=lambda w: [sorted(g) for g in w])


def brute_fewest(n: int, weight: str, lies: int, fakes: int, pans: int, most: int) -> int | None:
    """The fewest weighings by exhaustive search over explicit sets (None: not within `most`)."""
    dirs = {"unknown": (True, False), "heavier": (True,), "lighter": (False,)}[weight]
    start = frozenset(((f, d), 0) for f in combinations(range(1, n + 1), fakes) for d in dirs)
    weighings = _weighings(n, pans)
    readings = _readings(pans)

    @cache
    def solvable(state: frozenset[tuple[Pair, int]], w: int) -> bool:
        if len({s for s, _ in state}) <= 1:
            return True
        if w == 0:
            return False
        for g in weighings:
            kids = []
            for o in readings:
                kid = frozenset((s, e + (o != _read(g, *s))) for s, e in state if e + (o != _read(g, *s)) <= lies)
                kids.append(kid)
            if all(solvable(kid, w - 1) for kid in kids):
                return True
        return False

    for w in range(most + 1):
        if solvable(start, w):
            return w
    return None


SLOW = pytest.mark.slow
CASES = [
    # (n, weight, lies, fakes, pans)
    *[(n, "unknown", 1, 1, 2) for n in (3, 4)],
    pytest.param(5, "unknown", 1, 1, 2, marks=SLOW),
    *[(n, "heavier", 1, 1, 2) for n in (1, 2, 3, 4, 5)],
    pytest.param(6, "heavier", 1, 1, 2, marks=SLOW),
    *[(n, "lighter", 2, 1, 2) for n in (2, 3)],
    *[(n, "heavier", 0, 2, 2) for n in (2, 3, 4, 5, 6)],
    *[(n, "unknown", 0, 2, 2) for n in (3, 5)],
    *[(n, "unknown", 0, 1, 3) for n in (3, 4, 5, 6)],
    *[(n, "heavier", 0, 1, 3) for n in (1, 3, 4, 5, 6)],
    *[(n, "unknown", 0, 1, 4) for n in (4, 5)],
]


@pytest.mark.parametrize(("n", "weight", "lies", "fakes", "pans"), CASES)
def test_fewest_weighings_agree_with_brute_force(n: int, weight: str, lies: int, fakes: int, pans: int) -> None:
    """The solver's proved minimum equals the explicit exhaustive search's, and its plan replays correctly."""
    plan = make_plan(Variant(n, weight, lies, fakes, pans))  # type: ignore[arg-type]
    assert plan.weighings is not None
    assert plan.bound <= plan.weighings
    assert brute_fewest(n, weight, lies, fakes, pans, plan.weighings) == plan.weighings
    check = verify(plan)
    assert check.ok and check.worst == plan.weighings


def test_unsolvable_variants_have_indistinguishable_secrets() -> None:
    """Two coins, weight unknown: coin 1 heavier and coin 2 lighter read the same on every weighing; four coins,
    two fakes: {1, 2} heavier and {3, 4} lighter too. The solver says there is no plan."""
    for g in _weighings(2, 2):
        assert _read(g, (1,), True) == _read(g, (2,), False)
    for g in _weighings(4, 2):
        assert _read(g, (1, 2), True) == _read(g, (3, 4), False)
    assert make_plan(Variant(2)).weighings is None
    assert make_plan(Variant(2, lies=1)).weighings is None
    assert make_plan(Variant(4, fakes=2)).weighings is None
    assert make_plan(Variant(5, fakes=2)).weighings == 3
    assert _weighings(2, 3) == [] and make_plan(Variant(2, "heavier", pans=3)).weighings is None
    assert brute_fewest(2, "heavier", 0, 1, 3, 6) is None


def test_verification_catches_a_wrong_answer() -> None:
    """Change one leaf's answer and the replay (lies included) must fail."""
    plan = make_plan(Variant(5, lies=1))
    assert verify(plan).ok
    path = next(p for p, (node, _) in plan.nodes.items() if node.answer is not None)
    node, state = plan.nodes[path]
    wrong = Secret((1,), True) if node.answer != Secret((1,), True) else Secret((2,), True)
    plan.nodes[path] = (node.__class__(node.path, None, node.hypotheses, wrong, node.left), state)
    assert not verify(plan).ok


def test_lies_are_told_where_they_happened() -> None:
    """At every leaf of a one-lie plan, the answer disagrees with at most one reading on its path."""
    plan = make_plan(Variant(6, lies=1))
    verify(plan)
    lied = 0
    for path, (node, _) in plan.nodes.items():
        if node.answer is not None:
            marks = plan.lies_on_path(path, node.answer)
            assert sum(marks) <= 1
            lied += sum(marks)
    assert lied > 0


def test_twelve_coins_one_lie_report() -> None:
    """The acceptance example: 12 coins, one lie, verified; the volume bound beside it: 24 * (1 + 2w) <= 3^w
    first holds at w = 6 (24 * 13 = 312 <= 729, while 24 * 11 = 264 > 243)."""
    r = variant_report(Variant(12, lies=1), tree=True)
    assert r.verified and r.proved and r.lower_bound == 6 and r.weighings == 6 and r.bound == "volume"
    assert r.tree is not None and set(r.tree) == {"pans", "readings"}


def test_variant_tokens_round_trip_and_bad_combinations() -> None:
    """Canonical tokens round-trip; combinations that are not offered are refused."""
    for v in (Variant(12, lies=2), Variant(7, "heavier", fakes=2), Variant(30, "lighter", pans=5)):
        assert Variant.from_token(v.to_token()) == v
    for bad in (dict(lies=1, pans=3), dict(fakes=2, lies=1), dict(fakes=3), dict(pans=6), dict(lies=3)):
        with pytest.raises(InputError):
            Variant(12, **bad)  # type: ignore[arg-type]
    with pytest.raises(InputError):
        Variant(101)


def test_table_rows_are_verified_and_above_the_bound() -> None:
    """A short table: every row's figure at least its bound; known-heavier with three pans is ceil(log4 N) (four
    readings; thirds of the suspects on the pans, the rest off), except two coins, which cannot fill three pans."""
    rows = table(Variant(1, "heavier", pans=3), top=20)
    assert rows[1].coins == 2 and rows[1].weighings is None and "fewer coins than pans" in rows[1].note
    for r in rows[:1] + rows[2:]:
        assert r.weighings is not None and r.weighings >= r.lower_bound
        w = 0
        while 4**w < r.coins:
            w += 1
        assert r.weighings == w


@pytest.mark.parametrize(
    "v", [Variant(12, lies=1), Variant(7, fakes=2), Variant(13, pans=3), Variant(6, "heavier", lies=2)]
)
def test_adversary_holds_the_plan_to_its_minimum(v: Variant) -> None:
    """Playing the optimal plan's own weighings against the adversarial scale takes exactly the minimum: the scale
    always keeps the most weighings needed, and the plan never needs more. Each turn costs at most one."""
    from solvers.variants.adversary import play

    plan = make_plan(v)
    assert plan.weighings is not None
    weighings = []
    path = ""
    while plan.node(path).pans is not None:
        pans = plan.node(path).pans
        assert pans is not None
        weighings.append(pans)
        game = play(plan, weighings)
        path += game.turns[-1].reading
        assert game.turns[-1].needed == plan.weighings - len(weighings)
    assert len(weighings) == plan.weighings and game.answer is not None and game.answer == plan.node(path).answer


def test_adversary_rejects_bad_weighings() -> None:
    """Wrong pan counts, unequal pans, a coin twice, coins out of range: clear refusals."""
    from solvers.variants.adversary import parse_weighings

    v = Variant(12, pans=3)
    for bad in ("1,2-3,4", "1,2-3-4", "1-1-2", "1-2-13", "a-b-c", "1,2-3,4-5,"):
        with pytest.raises(InputError):
            parse_weighings(v, bad)
    assert parse_weighings(v, "3,1-2,4-5,6;7-8-9") == [((1, 3), (2, 4), (5, 6)), ((7,), (8,), (9,))]


@pytest.mark.parametrize("k", [3, 4, 5])
def test_k_pans_weight_unknown_follow_the_capacity_argument(k: int) -> None:
    """With the weight unknown, w weighings on k pans settle at most (k+1)^w - 1 coins (a tipped pan leaves at most
    (k+1)^(w-1) coins of known weight; the coins off the scale at most (k+1)^(w-1) - 1 by induction), and the
    search reaches that number, for every N from k to 30; fewer coins than pans cannot be weighed."""
    for n in range(1, 31):
        got = make_plan(Variant(n, pans=k)).weighings
        if n < max(k, 3):
            assert got is None
            continue
        w = 1
        while n > (k + 1) ** w - 1:
            w += 1
        assert got == w, (n, got, w)


@pytest.mark.parametrize("v", [Variant(20, lies=1), Variant(9, fakes=2), Variant(30, pans=4)])
def test_stored_plan_rebuilds_the_verified_tree(v: Variant) -> None:
    """A plan stored as JSON (its chosen weighings, no search tables) rebuilds exactly the tree that was verified."""
    from solvers.variants.plan import StoredPlan, restored, stored
    from solvers.variants.report import tree_json
    from webapp.store import codec

    plan = make_plan(v)
    assert verify(plan).ok
    before = tree_json(plan)
    blob = codec.encode(stored(plan))
    again = restored(codec.decode(codec.open_envelope(blob).value, StoredPlan))
    assert not again.nodes and not again.search.solved and tree_json(again) == before
    assert verify(again).ok


def test_table_stops_searching_after_the_first_row_beyond_reach(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a tiny work budget, the first row past it says so and every later row is left unsearched."""
    from solvers.variants import single

    monkeypatch.setattr(single.SingleSearch, "max_work", 40)
    rows = table(Variant(1, lies=1), top=12)
    first = next(r for r in rows if r.note.startswith("beyond"))
    later = [r for r in rows if r.coins > first.coins]
    assert later and all(r.weighings is None and r.note.startswith("not searched") for r in later)


def test_the_navigator_draws_as_genuine_the_weighed_coins_no_reading_left_suspect() -> None:
    """At every node of the 12-coin plan (one fake, lighter or heavier, an honest scale), the coins on the pans
    shown as known genuine are those that no (coin, weight) consistent with the readings so far could be, worked
    out here by the balance's rule."""
    from solvers.variants.report import navigate

    plan = make_plan(Variant(12))

    def reading(pans: tuple[tuple[int, ...], ...], coin: int, heavier: bool) -> str:
        tilt = (1 if heavier else -1) * ((coin in pans[0]) - (coin in pans[1]))
        return "L" if tilt > 0 else "R" if tilt < 0 else "B"

    checked, paths = 0, [""]
    while paths:
        path = paths.pop()
        view = navigate(plan, path)
        if view.node.pans is None:
            continue
        paths += [path + c.letter for c in view.choices if c.secrets]
        possible = {
            (c, h)
            for c in range(1, 13)
            for h in (True, False)
            if all(reading(step.pans, c, h) == step.letter for step in view.steps)
        }
        on_pans = {c for pan in view.node.pans for c in pan}
        assert view.genuine == {c for c in on_pans if all(c != x for x, _ in possible)}, path
        checked += bool(view.genuine)
    assert checked > 3


def test_the_game_says_what_is_known_of_each_coin() -> None:
    """12 coins, one lighter or heavier, an honest scale; after 1-4 against 5-8 the picker's classes follow the
    balance's rule: on a balance 1-8 are genuine and 9-12 unknown; when a pan goes down its coins may be heavy,
    the other pan's may be light, the coins off the scale are genuine. With lies, a coin stays a suspect."""
    from solvers.variants.adversary import parse_weighings, play

    for lies in (0, 1):
        v = Variant(12, lies=lies)
        game = play(make_plan(v), parse_weighings(v, "1,2,3,4-5,6,7,8"))
        letter = game.turns[0].reading
        status = {c: game.status(c) for c in range(1, 13)}
        if lies:
            assert all(s != "genuine" for s in status.values())  # one lie can explain any single reading
            continue
        if letter == "B":
            expected = {c: "genuine" if c <= 8 else "unknown" for c in range(1, 13)}
        else:
            down, up = (range(1, 5), range(5, 9)) if letter == "L" else (range(5, 9), range(1, 5))
            kind = {**dict.fromkeys(down, "maybe-heavy"), **dict.fromkeys(up, "maybe-light")}
            expected = {c: kind.get(c, "genuine") for c in range(1, 13)}
        assert status == expected, letter


@pytest.mark.parametrize(
    "v",
    [Variant(12, lies=1), Variant(9, "heavier", lies=1), Variant(10, "heavier", fakes=2), Variant(13, pans=3)],
    ids=lambda v: v.to_token(),
)
def test_following_the_hints_finishes_in_the_fewest_weighings(v: Variant) -> None:
    """From the start, and after a wasteful first weighing, each hint keeps the fewest weighings still needed
    falling by one against the adversarial scale, until the answer is known: the hints are best weighings."""
    from solvers.variants.adversary import play

    plan = make_plan(v)
    assert plan.weighings is not None
    wasteful = ((1,), (2,)) if v.pans == 2 else tuple((c,) for c in range(1, v.pans + 1))
    for start in ([], [wasteful]):
        game = play(plan, list(start), hint=True)
        made = list(start)
        while game.answer is None:
            assert game.hint is not None
            made.append(game.hint)
            after = play(plan, made, hint=True)
            assert after.needed == game.needed - 1, (made, game.needed, after.needed)
            game = after
        assert game.hint is None and len(made) == len(start) + play(plan, list(start)).needed

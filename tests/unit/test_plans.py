"""Every plan is replayed against every case; large plans are walked node by node."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.errors import InputError
from solvers.weighing import OUTCOMES, Outcome, Problem, make_plan, min_weighings, verify
from solvers.weighing.plan import Plan, complement, describe, size, take, union
from solvers.weighing.verify import verify_abstract

VARIANTS = [
    (weight, goal, extra, z)
    for weight in ("unknown", "lighter", "heavier")
    for goal in ("identify", "find")
    for extra in (0, 1, 3)
    for z in (False, True)
]


@pytest.mark.slow
@pytest.mark.parametrize(("weight", "goal", "extra", "z"), VARIANTS)
def test_every_plan_up_to_60_coins_is_verified(weight: str, goal: str, extra: int, z: bool) -> None:
    """Exhaustive replay of both plans for N = 1..60 in this variant."""
    for n in range(1, 61):
        p = Problem(n, weight, goal, extra, z)  # type: ignore[arg-type]
        m = min_weighings(p)
        if not m.solvable:
            with pytest.raises(InputError):
                make_plan(p)
            continue
        for objective in ("worst", "average"):
            v = verify(make_plan(p, objective))
            assert v.ok, (p, objective, v.failures)
            assert v.cases == p.cases
        assert verify(make_plan(p)).worst == m.weighings
        assert verify(make_plan(p, "average")).total <= verify(make_plan(p)).total


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(61, 3000),
    weight=st.sampled_from(["unknown", "lighter", "heavier"]),
    goal=st.sampled_from(["identify", "find"]),
    extra=st.integers(0, 5),
    z=st.booleans(),
)
def test_larger_plans_verify(n: int, weight: str, goal: str, extra: int, z: bool) -> None:
    """Random larger problems: every case replayed, worst case equals the minimum."""
    p = Problem(n, weight, goal, extra, z)  # type: ignore[arg-type]
    plan = make_plan(p)
    v = verify(plan)
    assert v.ok and v.worst == min_weighings(p).weighings
    assert verify_abstract(plan).total == v.total


def test_twelve_coin_tree_shape() -> None:
    """The 12-coin plan: 4 against 4 first; every leaf names a coin and weight; all 24 cases."""
    plan = make_plan(Problem(12))
    tree = plan.tree()
    assert tree["left"] == [1, 2, 3, 4] and tree["right"] == [5, 6, 7, 8]
    leaves = []

    def collect(node: dict[str, object]) -> None:
        if "outcomes" in node:
            outs = node["outcomes"]
            assert isinstance(outs, dict) and set(outs) == {o.value for o in OUTCOMES}
            for kid in outs.values():
                collect(kid)
        elif not node.get("impossible"):
            leaves.append((node["coin"], node["weight"]))

    collect(tree)
    assert sorted(leaves, key=str) == sorted(((c, w) for c in range(1, 13) for w in ("heavier", "lighter")), key=str)


def test_navigation_and_bad_paths() -> None:
    """Nodes by path; paths that leave the plan or take impossible outcomes are refused."""
    plan = make_plan(Problem(12))
    assert plan.node("").weighing is not None
    leaf = plan.node("LBB")
    assert leaf.answer is not None and leaf.answer.sentence().startswith("Coin ")
    for bad in ("X", "LBBL", "L" * 65):
        with pytest.raises(InputError):
            plan.node(bad)
    impossible = [o for o, k in plan.node("LL").outcome_cases().items() if k == 0]
    for o in impossible:
        with pytest.raises(InputError):
            plan.node("LL" + o.letter)


def test_none_leaf() -> None:
    """With maybe_none, all-balance ends in 'All coins are genuine'."""
    plan = make_plan(Problem(12, maybe_none=True))
    leaf = plan.node("BBB")
    assert leaf.answer is not None and leaf.answer.coin is None
    assert leaf.answer.sentence() == "All coins are genuine."


def test_million_coins_lazily() -> None:
    """N = 1,000,000: the first weighing and a root-to-leaf walk, without building the tree."""
    plan = make_plan(Problem(1_000_000))
    path = ""
    while (node := plan.node(path)).weighing is not None:
        cases = node.outcome_cases()
        assert max(cases.values()) <= 3 ** (node.budget - 1)
        path += next(o.letter for o in (Outcome.BALANCE, Outcome.LEFT) if cases[o])
    assert len(path) <= 14 and node.answer is not None
    assert verify(plan).ok
    with pytest.raises(InputError):
        plan.tree()


def test_verify_catches_a_wrong_plan() -> None:
    """A plan whose weighings lie about the coins must fail verification (the verifier can fail)."""
    good = make_plan(Problem(12))

    class Broken(Plan):
        def step(self, c, depth):  # type: ignore[no-untyped-def]
            w = super().step(c, depth)
            if w is None or depth != 0:
                return w
            return dataclasses.replace(w, after=(w.after[1], w.after[0], w.after[2]))

    broken = Broken(good.problem, good.objective, good.minimum)
    assert not verify(broken).ok


@given(st.lists(st.tuples(st.integers(1, 60), st.integers(0, 8)), max_size=6), st.integers(0, 30))
def test_ranges_take_and_union(spans: list[tuple[int, int]], k: int) -> None:
    """take() splits off exactly the lowest k coins; union and complement partition 1..n."""
    r = union(*(((a, a + n),) for a, n in spans))
    taken, rest = take(r, k)
    assert size(taken) == min(k, size(r)) and union(taken, rest) == r
    assert not taken or not rest or taken[-1][1] <= rest[0][0]
    n = 80
    assert size(complement(r, n)) + size(r) == n
    assert not set(range(1, n + 1)) - {c for a, b in union(r, complement(r, n)) for c in range(a, b)}
    assert describe(()) == "none"


def test_node_page_model() -> None:
    """The plan page's model for 12 coins after 'left heavier, then balance': two crumbs naming each weighing and
    reading, the last weighing with its reading, and readings from here whose cases add up to the node's."""
    from solvers.weighing.report import node_view

    plan = make_plan(Problem(12))
    view = node_view(plan, "LB")
    assert [c[0] for c in view.crumbs] == [0, 1] and [c[3] for c in view.crumbs] == ["L", "LB"]
    assert view.crumbs[1][2] == Outcome.from_letter("B").words and view.last is not None
    assert view.last[0] == plan.node("L").weighing and view.last[2] == Outcome.from_letter("B").value
    assert view.here.weighing is not None and sum(o.secrets for o in view.outcomes) == view.here.coins.abstract().cases
    assert node_view(plan, "").crumbs == () and node_view(plan, "").last is None


def test_the_navigator_page_model_is_made_without_flask() -> None:
    """12 coins at path B (the first weighing balanced): the crumbs name it, the next weighing's outcomes, the most
    balanced weighing's worst case beside the plan's, each coin drawn; at an answer no weighing is judged."""
    from solvers.weighing import Problem, make_plan
    from solvers.weighing.report import node_page, verification

    p = Problem(12)
    plan = make_plan(p)
    page = node_page(p, "worst", plan, verification(p, "worst"), "B")
    assert len(page.view.crumbs) == 1 and page.view.crumbs[0][2] == "balance" and page.show_grid
    assert page.best_worst is not None and page.best_worst <= max(o.secrets for o in page.view.outcomes)
    leaf = next(path for path in ("LLL", "BBB", "LBR", "BLL", "BBL") if plan.node(path).answer is not None)
    assert node_page(p, "worst", plan, verification(p, "worst"), leaf).best_worst is None

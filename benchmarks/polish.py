"""Super Mastermind (5 pegs, 8 colours, 32,768 secrets): a heuristic tree improved by optimal search below it.

The heuristic's tree (entropy by default) is built, the game's whole outcome table filled (1 GiB), and every
largest node of at most --most secrets searched by the optimal average search with every guess allowed
(`solvers.codebreak.polish`); each node's result is appended to a checkpoint in benchmarks/checkpoints/ as it is
settled, so a stopped run resumes. The improved tree is verified on every secret and written to
webapp/data/proofs/super-mastermind-tree.json.gz (tests/unit/test_super_tree.py replays it with its own scorer).
What it shows is an upper bound on the optimal total; the best published tree averages 5.4856 (Issue 30's
figure; about 179,752 guesses in all).

    python benchmarks/polish.py [--most 100] [--strategy entropy]
    python benchmarks/polish.py --bound      # a proved lower bound on the optimum, two experiments deep
    python benchmarks/polish.py --again --most 150 --above 100   # a further pass over the tree kept in git
"""

from __future__ import annotations

import argparse
import gzip
import json
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.record import Record  # noqa: E402
from solvers.codebreak import Game, Node, Stats, build, build_tree, parse, verify  # noqa: E402
from solvers.codebreak.optimal.average_search import AverageSearch  # noqa: E402
from solvers.codebreak.optimal.table import Tuning  # noqa: E402
from solvers.codebreak.polish import bound_two_deep, from_nested, frontier, graft, improve, nested  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "games" / "super-mastermind.game"
CHECKPOINTS = Path(__file__).resolve().parent / "checkpoints"
TREE = Path(__file__).resolve().parents[1] / "webapp" / "data" / "proofs" / "super-mastermind-tree.json.gz"
PUBLISHED_AVERAGE = 5.4856
SAVE_SECONDS = 300  # how often a run writes its improved tree


def main() -> None:
    """Improve the tree node by node, resuming from the checkpoint; then verify and record it."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--most", type=int, default=100, help="the largest node searched (secrets)")
    parser.add_argument("--strategy", default="entropy")
    parser.add_argument("--bound", action="store_true", help="the lower bound two experiments deep")
    parser.add_argument("--again", action="store_true", help="start from the improved tree kept in git")
    parser.add_argument("--above", type=int, default=0, help="search only nodes of more secrets (settled before)")
    args = parser.parse_args()
    g = build(parse(GAME.read_text()))
    if args.bound:
        lower_bound(g)
        return
    t = time.perf_counter()
    tabled = g.tabled()
    start = "improved" if args.again else args.strategy
    tree = from_nested(tabled, json.loads(gzip.decompress(TREE.read_bytes()))) if args.again else None
    tree = tree or build_tree(g, args.strategy)
    before = verify(g, tree)
    assert before.verified
    print(f"{start}: total {before.total:,} in {time.perf_counter() - t:.1f} s", flush=True)
    search = AverageSearch(tabled, Tuning(node_limit=10**12))
    path = CHECKPOINTS / f"super-mastermind-polish-{start}-{args.most}.jsonl"
    done = {}
    if path.exists():
        for line in path.read_text().splitlines():
            try:
                row = json.loads(line)
            except ValueError:
                continue  # a line cut short by a crash
            done[tuple(row["path"])] = row
    nodes = [n for n in frontier(tabled, tree, args.most) if len(n.secrets) > args.above]
    print(f"{len(nodes):,} nodes of at most {args.most} secrets; {len(done):,} settled before", flush=True)
    gain, searched, t = 0, 0, time.perf_counter()
    saved = t
    CHECKPOINTS.mkdir(parents=True, exist_ok=True)
    with path.open("a") as out:
        for i, node in enumerate(nodes):
            row = done.get(node.path)
            if row is None:
                started = time.perf_counter()
                total, subtree = improve(tabled, search, node)
                row = {"path": list(node.path), "total": total, "tree": None if subtree is None else nested(subtree)}
                out.write(json.dumps(row) + "\n")
                out.flush()
                searched += 1
                print(
                    f"{time.strftime('%H:%M:%S')} {i + 1}/{len(nodes)}: {len(node.secrets)} secrets, tree "
                    f"{node.cost}, optimum {total if total < node.cost else f'{node.cost} (the tree)'} in "
                    f"{time.perf_counter() - started:.1f} s",
                    flush=True,
                )
            if row["tree"] is not None:
                sub = from_nested(tabled, row["tree"])
                graft(tree, node.path, sub)
                gain += node.cost - int(row["total"])
                if time.perf_counter() - saved >= SAVE_SECONDS:  # a run stopped part-way leaves its best tree
                    keep(g, tree, before.total - gain)
                    saved = time.perf_counter()
    took = time.perf_counter() - t
    after = keep(g, tree, before.total - gain)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    record = Record("super-tree")
    record.row(
        f"Super Mastermind 5x8: the {start} tree improved by optimal search at every node of at most "
        f"{args.most} secrets",
        f"total {after.total:,} (average {after.total / after.secrets:.6f}, worst {after.worst}) against "
        f"{before.total:,} before; {len(nodes):,} nodes, {searched:,} searched in {took:.1f} s this run; peak RSS "
        f"{peak:,.0f} MB; the best published tree averages {PUBLISHED_AVERAGE}",
    )
    record.save()


def keep(g: Game, tree: Node, total: int) -> Stats:
    """Verify the tree (its total as expected) and write it where the test replays it."""
    st = verify(g, tree)
    assert st.verified and st.total == total, (st.total, total)
    TREE.parent.mkdir(parents=True, exist_ok=True)
    partial = TREE.with_suffix(".partial")
    partial.write_bytes(gzip.compress(json.dumps(nested(tree)).encode(), mtime=0))
    partial.replace(TREE)
    print(f"{time.strftime('%H:%M:%S')} kept the tree: total {st.total:,}", flush=True)
    return st


def lower_bound(g: Game) -> None:
    """The least total any strategy can have, bounded two experiments deep, for each first guess."""
    t = time.perf_counter()
    tabled = g.tabled()
    bounds = bound_two_deep(tabled, AverageSearch(tabled, Tuning(node_limit=10**12)))
    took = time.perf_counter() - t
    each = ", ".join(f"{tabled.experiments[e]} {b:,}" for e, b in sorted(bounds.items(), key=lambda x: x[1]))
    low = min(bounds.values())
    record = Record("super-tree")
    record.row(
        "Super Mastermind 5x8: a lower bound on the optimal total (every guess allowed), two experiments deep",
        f"at least {low:,} (average {low / len(g.secrets):.6f}) in {took:.1f} s; by first guess: {each}",
    )
    record.save()


if __name__ == "__main__":
    main()

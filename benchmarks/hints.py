"""Code-breaking hints in a web request, with the strategy trees stored as `make run` stores them.

Prints, for Bulls and Cows (5,040 codes, 4 heuristic trees) and Super Mastermind (32,768 codes, its Knuth tree):
the first hint request of a fresh process (it reads each stored tree once and keeps its top), then the median
and worst of further requests on the heuristics' own paths and off them. Baseline in the same run: unpickling
the stored trees, which every hint request did before the tops were kept.

Run with `python benchmarks/hints.py` (about two minutes here: the trees are computed first). Not part of
`make test`.
"""

from __future__ import annotations

import os
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.record import Record  # noqa: E402


def main() -> None:
    """Print the figures."""
    with tempfile.TemporaryDirectory() as instance:
        os.environ["COIN_PUZZLES_INSTANCE"] = instance
        os.environ.setdefault("COIN_PUZZLES_SECRET", secrets.token_hex(32))
        from webapp import create_app
        from webapp.results.catalogue import REGISTRY
        from webapp.results.codebreak_results import codebreak_params, game_params
        from webapp.results.computations import dumps, loads, run

        app = create_app()

        def app_built(game: str):  # type: ignore[no-untyped-def]
            from solvers.codebreak import build, parse

            return build(parse((ROOT / "games" / f"{game}.game").read_text()))

        store_blobs: dict[str, list[bytes]] = {}
        with app.app_context():
            from webapp.jobs.access import app_store

            store = app_store()
            for game, sizes, strategies in (
                ("bulls-and-cows", (4, 10, None), ("knuth", "expected", "entropy", "parts")),
                ("super-mastermind", (5, 8, None), ("knuth",)),
            ):
                built = REGISTRY["codebreak.game"]
                built_with = game_params(game, sizes)
                store.put(built.key(built_with), dumps(built, run(built, built_with, lambda done, total: None)))
                for s in strategies:
                    c = REGISTRY["codebreak.tree"]
                    params = codebreak_params(game, sizes, s)
                    t = time.perf_counter()
                    blob = dumps(c, run(c, params, lambda done, total: None))
                    store.put(c.key(params), blob)
                    store_blobs.setdefault(game, []).append(blob)
                    print(
                        f"{game} {s}: tree computed and stored in {time.perf_counter() - t:.1f} s ({len(blob):,} bytes)"
                    )
        record = Record("hints")
        off_paths = {
            "bulls-and-cows": ["ABCD,BADC", "EFGH,ABIJ"],
            "super-mastermind": ["AABBC,CDDEE,EFGHA", "ABCDE,FGHAB,CDEFG"],
        }
        for game, blobs in store_blobs.items():
            tree = REGISTRY["codebreak.tree"]
            knuth, _ = loads(tree, blobs[0])  # type: ignore[misc]
            own, off = [app_built(game).experiments[knuth.experiment]], off_paths[game]
            t = time.perf_counter()
            for blob in blobs:
                loads(tree, blob)
            before = time.perf_counter() - t
            client = create_app().test_client()  # a fresh app: nothing read yet
            url = f"/codebreak/play?game={game}&maker=adversarial&hint=1&g="
            t = time.perf_counter()
            page = client.get(url)
            first = time.perf_counter() - t
            assert page.status_code == 200 and "codes still possible" in page.get_data(as_text=True)
            figures: dict[str, list[float]] = {"own path": [], "off path": []}
            for _ in range(5):
                for kind, guesses in (("own path", ["", *own]), ("off path", off)):
                    for g in guesses:
                        t = time.perf_counter()
                        page = client.get(url + g)
                        figures[kind].append(time.perf_counter() - t)
                        assert page.status_code == 200 and "codes still possible" in page.get_data(as_text=True)
            record.row(
                f"{game}: a hint from the stored trees (a process reads each tree once and keeps its top)",
                f"first hint of a fresh process {first * 1000:.0f} ms; then "
                + "; ".join(
                    f"{k} median {statistics.median(v) * 1000:.0f} ms, worst {max(v) * 1000:.0f} ms"
                    for k, v in figures.items()
                ),
                f"{before * 1000:.0f} ms per request: decoding the stored trees on every hint",
                target="< 1 s",
            )
        record.save()


if __name__ == "__main__":
    main()

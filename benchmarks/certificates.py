"""Certificates of Mastermind optima: what making one costs beside the plain proof, and how long the independent
checker takes to confirm it.

For each size: the proof with the search's log on and the certificate assembled (`certificate.certify`, one
process), beside the same proof with the log off in the same process (the baseline); then the checker
(`tests/certify/checker.py`) on the certificate made.

Run with `python benchmarks/certificates.py` (a few minutes here). Not part of `make test`.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.record import Record  # noqa: E402
from solvers.codebreak import build, parse  # noqa: E402
from solvers.codebreak.optimal.average_search import AverageSearch  # noqa: E402
from solvers.codebreak.optimal.certificate import certify  # noqa: E402
from tests.certify.checker import check  # noqa: E402

SIZES = ((3, 8), (4, 6), (5, 4), (3, 10), (5, 5))


def main() -> None:
    """Print and record the figures."""
    spec = parse((ROOT / "games" / "mastermind.game").read_text())
    record = Record("certificates")
    for pegs, colours in SIZES:
        g = build(spec, {"length": pegs, "colours": colours}, colours_up_to=colours)
        plain = AverageSearch(g.tabled())
        plain.load_kernels()
        t = time.perf_counter()
        total = plain.solve().cost
        baseline = time.perf_counter() - t
        t = time.perf_counter()
        cert = certify(g)
        made = time.perf_counter() - t
        assert cert.total == total, (pegs, colours, cert.total, total)
        t = time.perf_counter()
        claims = check(cert._asdict())
        checked = time.perf_counter() - t
        print(
            f"{pegs}x{colours}: total {total:,}; made in {made:.1f} s (plain proof {baseline:.1f} s); "
            f"{claims:,} claims checked in {checked:.1f} s",
            flush=True,
        )
        record.row(
            f"Mastermind {pegs}x{colours} ({colours**pegs:,} codes): certificate made, then checked",
            f"made in {made:.1f} s ({claims:,} claims, total {total:,}); checked in {checked:.1f} s by the checker",
            f"{baseline:.1f} s: the same proof without its log (one process)",
            f"{made / baseline:.2f}x",
            "a certificate for every new value; checked by make test (seconds) or make proofs",
        )
    print(record.save())


if __name__ == "__main__":
    main()

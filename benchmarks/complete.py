"""How soon a fresh install is complete, and how prompt its pages stay while searches run: `coin-puzzles serve`
(nginx in front, gunicorn, the real consumers, the precomputation) from an empty instance folder, driven over HTTP.

Printed, for this checkout and, as the baseline in the same run, for commit BASELINE (before the results were
shipped and no search ran inside a request; run from a git worktree with the same environment): the seconds from
the start until the optima table counts 14 or more sizes proved, until the English centre game's solution page
shows its proof and until a Bulls and Cows second guess is judged; the wall time of another second-guess page
once the game is built; then the home page's wall times while four third-guess pages (searched by jobs) are asked
at once. Each wait is cut at CUT_SECONDS from the start.

Run with `python benchmarks/complete.py` (about five minutes here). Not part of `make test`.
"""

from __future__ import annotations

import concurrent.futures
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.crawl import fetch, free_port  # noqa: E402
from benchmarks.record import Record  # noqa: E402

BIN = Path(sys.executable).parent
BASELINE = "4b9619a"
CUT_SECONDS = 120
SECOND = "/codebreak/play?game=bulls-and-cows&maker=adversarial&moves=0123,4567"
ANOTHER = "/codebreak/play?game=bulls-and-cows&maker=adversarial&moves=0123,1456"
THIRDS = [SECOND + "," + g for g in ("8901", "8912", "8923", "8934")]


def _waited(since: float, check: Callable[[], bool]) -> float | None:
    """Seconds from `since` until check() holds (polled each half second), or None past CUT_SECONDS."""
    while time.perf_counter() - since < CUT_SECONDS:
        if check():
            return time.perf_counter() - since
        time.sleep(0.5)
    return None


def _proved(base: str) -> bool:
    """The optima table counts at least 14 sizes proved."""
    found = re.search(r"(\d+) of \d+ sizes", fetch(base + "/codebreak/optima")[1])
    return found is not None and int(found.group(1)) >= 14


def measure(code: Path) -> dict[str, str]:
    """One fresh server of the code at `code`: its figures in words."""
    folder = tempfile.mkdtemp(prefix="coin-puzzles-complete-")
    port = free_port()
    env = {**os.environ, "COIN_PUZZLES_INSTANCE": folder, "PYTHONPATH": str(code)}
    log = open(Path(folder) / "serve.log", "w")  # noqa: SIM115 - open for the server's lifetime
    server = subprocess.Popen(  # in the code's folder: gunicorn puts its working folder first on the import path
        [str(BIN / "coin-puzzles"), "serve", "--port", str(port)],
        env=env,
        cwd=code,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base, start = f"http://127.0.0.1:{port}", time.perf_counter()
    out: dict[str, str] = {}
    try:
        _waited(start, lambda: _reachable(base))
        optima = _waited(start, lambda: _proved(base))
        out["optima"] = f"{optima:.0f} s" if optima is not None else f"not within {CUT_SECONDS} s"
        english = "/pegs/solution?board=english&hole=d4&finish=d4&fewest=1"
        proof = _waited(start, lambda: "18 moves, the fewest possible" in fetch(base + english)[1])
        out["english"] = f"{proof:.0f} s" if proof is not None else f"not within {CUT_SECONDS} s"
        judged = _waited(start, lambda: 'class="lost"' in fetch(base + SECOND)[1])
        out["second"] = f"{judged:.0f} s" if judged is not None else f"not within {CUT_SECONDS} s"
        _, body, seconds = fetch(base + ANOTHER)  # once the game is built: a second guess not asked before
        out["another"] = f"{seconds:.2f} s" + (", then a progress page" if "<progress" in body else ", judged")
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            heavy = [pool.submit(fetch, base + path) for path in THIRDS]
            time.sleep(0.1)
            home = [fetch(base + "/")[2] for _ in range(10)]
            pages = [f.result()[2] for f in heavy]
        out["home"] = f"median {statistics.median(home) * 1000:.1f} ms, max {max(home) * 1000:.1f} ms"
        out["thirds"] = f"slowest {max(pages):.2f} s"
    finally:
        server.terminate()
        server.wait(timeout=60)
        log.close()
    return out


def _reachable(base: str) -> bool:
    """The server answers."""
    try:
        urllib.request.urlopen(base + "/healthz", timeout=5).close()
        return True
    except OSError:
        return False


def main() -> None:
    """Measure this checkout and the baseline's worktree; print and record."""
    tree = Path(tempfile.mkdtemp(prefix="coin-puzzles-baseline-")) / "tree"
    subprocess.run(["git", "worktree", "add", "--detach", str(tree), BASELINE], cwd=ROOT, check=True)
    try:  # its kernels compiled first, as its `make run` would (their cache is keyed by the files' paths)
        env = {**os.environ, "PYTHONPATH": str(tree)}
        subprocess.run([str(BIN / "coin-puzzles"), "warm-up", "--quiet"], env=env, cwd=tree, check=True)
        theirs = measure(tree)
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=False)
    ours = measure(ROOT)
    record = Record("complete")
    record.row("a fresh `make run`: the optima table counts 14 sizes proved", ours["optima"], theirs["optima"])
    record.row("a fresh `make run`: the English centre game's solution proved", ours["english"], theirs["english"])
    record.row("a fresh `make run`: a Bulls and Cows second guess judged", ours["second"], theirs["second"])
    record.row(
        "then another second-guess page (its first request)", ours["another"], theirs["another"], target="<= 0.5 s"
    )
    record.row(
        "the home page while four Bulls and Cows third-guess pages are asked at once (10 requests)",
        ours["home"],
        theirs["home"],
        target="< 1 s",
    )
    record.row("those four third-guess pages", ours["thirds"], theirs["thirds"], target="<= 0.5 s each")
    record.save()


if __name__ == "__main__":
    main()

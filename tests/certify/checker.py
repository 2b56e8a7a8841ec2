"""An independent checker of Mastermind optimal-average certificates (`solvers.codebreak.optimal.certificate` makes
them). It imports nothing from the project: its scores, bounds and symmetries are its own, written from the rules
of the game, with numpy (and Numba for one inner loop, `_least_deeper`), so that a fault in the search cannot hide
in a fault shared with its checker.

What it confirms, for a game of `pegs` places and `colours` colours (colours may repeat; black and white pegs; the
game ends when the secret is guessed), the total T being the sum over every secret of the guesses made:

1. Upper bound. The certificate gives each secret's guesses. They must end on the secret (and not meet it before),
   form one strategy (two secrets that got the same answers so far get the same next guess) and total T.
2. Lower bound. Every claim (S, v) says that no strategy finds the secrets of S in fewer than v guesses in all. A
   claim holds when, for every guess g that tells something about S, |S| plus, over the parts of S that g leaves
   open, the most that is known of each part (its own claim; the counting bound of its size; or, one guess deeper,
   the least over every guess of |P| plus the counting bounds of its parts) is at least v. Guesses that tell
   nothing are never on an optimal strategy (they only add |S|). By induction on |S| (every part of an informative
   guess is smaller than S), every claim is then true, and the whole game's claim is T.
3. Symmetry. A claim may name the guesses made before it (history). The permutations of places and colours that
   fix each of them keep every score, so, once the checker has seen that each maps S onto itself, guesses of one
   orbit under them cost the same at S, and one per orbit (its least code) is checked. The permutations are built
   the way the search builds its own (each place permutation with the colour map it forces), so a shared mistake
   of construction is not ruled out by independence; instead each generator is checked before it is used: it is
   a permutation of the codes, it keeps the answer of every guess to every secret, and it fixes each guess of
   the history. Generators that pass generate a group of symmetries fixing the history, whatever built them; a
   smaller group than the whole only makes the orbits finer (more guesses checked), never unsound.

Parallel: the claims are independent of one another once all of them are known, so `check(cert, jobs)` splits
them by the first guess of their history (the claims below one first guess share its symmetries; a claim without
history goes alone) into `jobs` shares of about equal size, each checked by a process forked from this one.

Counting bound: a strategy makes one first guess; each guess has at most b answers other than "all black" that
leave the game open, so at most b^(d-1) secrets can be found with the d-th guess; the least total for n secrets
fills the depths in order.
"""

from __future__ import annotations

import multiprocessing
import os
from itertools import permutations, product
from pathlib import Path
from typing import Any

import numba
import numpy as np
from numpy.typing import NDArray

CHUNK = 256  # guesses scored at a time


@numba.njit(cache=True)
def _least_deeper(
    by_secret: NDArray[np.uint8], part: NDArray[np.int64], bound: NDArray[np.int64], kinds: int, win: int
) -> int:  # pragma: no cover - compiled
    """The least over every informative guess g of |P| plus the counting bounds of the parts g leaves open (by_secret:
    each secret's answers to every guess; "all black", win, leaves none open; a guess that leaves one part holding
    all of P tells nothing). P's secrets' rows are counted one after another, each read in order."""
    codes = by_secret.shape[1]
    counts = np.zeros((codes, kinds), dtype=np.int32)
    for x in part:
        row = by_secret[x]
        for g in range(codes):
            counts[g, row[g]] += 1
    n = part.shape[0]
    best = -1
    for g in range(codes):
        total = n
        informative = True
        for o in range(kinds):
            if o == win:
                continue
            c = counts[g, o]
            if c == n:
                informative = False
                break
            total += bound[c]
        if informative and (best < 0 or total < best):
            best = total
    return best


class Rejected(Exception):
    """The certificate does not prove what it claims."""


def all_codes(pegs: int, colours: int) -> NDArray[np.int64]:
    """Every code, numbered in this order: the first place most significant."""
    return np.array(list(product(range(colours), repeat=pegs)), dtype=np.int64).reshape(-1, pegs)


def answers(pegs: int, colours: int) -> NDArray[np.uint8]:
    """answers[g, x]: the answer to guess g when the secret is x, as blacks * (pegs + 1) + whites."""
    c = all_codes(pegs, colours)
    tally = np.stack([(c == k).sum(axis=1) for k in range(colours)], axis=1)  # how many of each colour
    n = len(c)
    out = np.empty((n, n), dtype=np.uint8)
    for lo in range(0, n, CHUNK):
        g = c[lo : lo + CHUNK]
        blacks = (g[:, None, :] == c[None, :, :]).sum(axis=2)
        common = np.minimum(tally[lo : lo + CHUNK, None, :], tally[None, :, :]).sum(axis=2)
        out[lo : lo + CHUNK] = blacks * (pegs + 1) + (common - blacks)
    return out


def counting(n: int, branches: int) -> NDArray[np.int64]:
    """bound[k] for k = 0..n: the least total number of guesses to find k secrets (see the module's note)."""
    out = np.zeros(n + 1, dtype=np.int64)
    for k in range(1, n + 1):
        left, depth, width, total = k, 1, 1, 0
        while left > 0:
            here = min(left, width)
            total += depth * here
            left -= here
            depth, width = depth + 1, width * branches
        out[k] = total
    return out


class Checker:
    """The checks of one game's certificates."""

    def __init__(self, pegs: int, colours: int) -> None:
        self.pegs, self.colours = pegs, colours
        self.codes = all_codes(pegs, colours)
        self.n = len(self.codes)
        scored = answers(pegs, colours)
        present = np.unique(scored)  # the answers that occur, numbered 0, 1, ... in their order
        number = np.zeros(int(present.max()) + 1, dtype=np.uint8)
        number[present] = np.arange(len(present))
        self.answers = number[scored]
        self.by_secret = np.ascontiguousarray(self.answers.T)  # by_secret[x, g]: one secret's answers to every guess
        self.win = int(number[pegs * (pegs + 1)])
        self.kinds = len(present)
        self.bound = counting(self.n, self.kinds - 1)  # every answer but "all black" leaves the game open
        self.weights = colours ** np.arange(pegs - 1, -1, -1, dtype=np.int64)
        self._orbits: dict[tuple[int, ...], NDArray[np.bool_]] = {}
        self._deeper: dict[bytes, int] = {}
        self._symmetries: set[bytes] = set()

    # ------------------------------------------------------------------ the optimal tree

    def check_strategy(self, lengths: NDArray[Any], guesses: NDArray[Any], total: int) -> None:
        """Each secret's guesses end on it, are one strategy, and total `total`."""
        if len(lengths) != self.n or int(np.sum(lengths)) != len(guesses):
            raise Rejected("the guesses do not cover every secret once")
        if len(guesses) and (int(np.min(guesses)) < 0 or int(np.max(guesses)) >= self.n):
            raise Rejected("a guess is not a code")
        if int(np.sum(lengths)) != total:
            raise Rejected(f"the strategy totals {int(np.sum(lengths))}, not {total}")
        nodes: dict[tuple[int, ...], int] = {}
        at = 0
        for x in range(self.n):
            seq = [int(g) for g in guesses[at : at + int(lengths[x])]]
            at += int(lengths[x])
            if not seq or seq[-1] != x or x in seq[:-1]:
                raise Rejected(f"the guesses for secret {x} do not end on it")
            heard: tuple[int, ...] = ()
            for g in seq:
                if nodes.setdefault(heard, g) != g:
                    raise Rejected(f"two guesses after the same answers {heard}")
                heard = (*heard, int(self.answers[g, x]))

    # ------------------------------------------------------------------ the lower bounds

    def check_claims(
        self,
        sizes: NDArray[Any],
        values: NDArray[Any],
        members: NDArray[Any],
        made: NDArray[Any],
        history: NDArray[Any],
        total: int,
        jobs: int = 1,
    ) -> int:
        """Every claim holds (see the module's note) and the whole game's claim is at least total; how many claims.
        With jobs > 1, the claims are checked by that many processes, split by their history's first guess."""
        claims: dict[bytes, int] = {}
        sets, hists = [], []
        at = h = 0
        for size, value, m in zip(sizes.tolist(), values.tolist(), made.tolist(), strict=True):
            s = np.asarray(members[at : at + size], dtype=np.int64)
            at += size
            if size < 1 or s[0] < 0 or s[-1] >= self.n or (size > 1 and not (np.diff(s) > 0).all()):
                raise Rejected("a claim's set is not a sorted set of codes")
            hist = None if m < 0 else tuple(int(g) for g in history[h : h + m])
            h += max(m, 0)
            key = s.tobytes()
            claims[key] = max(claims.get(key, 0), int(value))
            sets.append((s, int(value)))
            hists.append(hist)
        if at != len(members) or h != len(history):
            raise Rejected("the claims' arrays do not add up")
        if claims.get(np.arange(self.n, dtype=np.int64).tobytes(), -1) < total:
            raise Rejected("no claim that the whole game needs the total")
        work = [(s, value, hist) for (s, value), hist in zip(sets, hists, strict=True)]
        if jobs <= 1:
            for s, value, hist in work:
                self._check_claim(s, value, hist, claims)
        else:
            _shared[:] = [self, work, claims]  # read by the forked processes (`_check_share`), never sent
            pool = multiprocessing.get_context("fork").Pool(jobs)
            try:
                pool.map(_check_share, shares(work, jobs))
            finally:  # the processes end once the shares are done, not by the SIGTERM of a pool's terminate, which
                pool.close()  # a handler they inherited (a caller's that halts proofs on a stop) would take as one
                pool.join()
            _shared.clear()
        return len(sets)

    def _check_claim(
        self, s: NDArray[np.int64], v: int, hist: tuple[int, ...] | None, claims: dict[bytes, int]
    ) -> None:
        n = len(s)
        if v <= self.bound[n]:
            return
        tried = self._representatives(s, hist)
        a = self.answers[np.ix_(tried, s)].astype(np.int64)
        opened = self._tally(a)
        useless = (opened == n).any(axis=1)
        low = n + self.bound[opened].sum(axis=1)
        for i in np.flatnonzero(~useless & (low < v)):
            if self._guess_total(s, a[i], claims, v) < v:
                raise Rejected(f"guess {int(tried[i])} at a set of {n} is not shown to need {v} guesses")

    def _guess_total(self, s: NDArray[np.int64], answer: NDArray[np.int64], claims: dict[bytes, int], v: int) -> int:
        """|S| plus the most known of each part the guess leaves open: its claim or its counting bound, then, while
        the total is below v, the one-guess-deeper bound of the largest parts first."""
        parts = [s[answer == o] for o in np.unique(answer) if o != self.win]
        known = [max(int(self.bound[len(p)]), claims.get(p.tobytes(), 0)) for p in parts]
        total = len(s) + sum(known)
        for i in sorted(range(len(parts)), key=lambda i: -len(parts[i])):
            if total >= v or len(parts[i]) < 3:  # two secrets cost 3 whatever is guessed: their counting bound
                break
            total += self._one_deeper(parts[i], known[i]) - known[i]
        return total

    def _one_deeper(self, part: NDArray[np.int64], known: int) -> int:
        """What is known of P (known: its claim or counting bound) raised, one guess deeper, to the least over every
        informative guess of |P| plus the counting bounds of its open parts, if that is more. Only the least, which
        the game alone decides, is kept from one call to the next: a claim's value never outlives its certificate
        (a checker used again for another certificate once carried them over)."""
        key = part.tobytes()
        if key not in self._deeper:
            self._deeper[key] = int(_least_deeper(self.by_secret, part, self.bound, self.kinds, self.win))
        return max(known, self._deeper[key])

    def _tally(self, a: NDArray[Any], by_guess: bool = True) -> NDArray[np.int64]:
        """Per guess (a row of a, or a column when not by_guess): how many secrets give each answer, "all black"
        left out."""
        guesses = a.shape[0] if by_guess else a.shape[1]
        at = self.kinds * np.arange(guesses, dtype=np.int64)
        flat = a.astype(np.int64) + (at[:, None] if by_guess else at[None, :])
        counts = np.bincount(flat.ravel(), minlength=guesses * self.kinds).reshape(guesses, self.kinds)
        counts[:, self.win] = 0
        return counts

    # ------------------------------------------------------------------ symmetries

    def _representatives(self, s: NDArray[np.int64], hist: tuple[int, ...] | None) -> NDArray[np.int64]:
        """The guesses to check at S: every code, or with a history the least code of each orbit of the
        permutations fixing its guesses, once each is seen to map S onto itself."""
        if hist is None:
            return np.arange(self.n, dtype=np.int64)
        key = tuple(sorted(set(hist)))
        if key and (key[0] < 0 or key[-1] >= self.n):
            raise Rejected("a claim's history names a guess that is not a code")
        gens = self._generators(key)
        for g in gens:
            if not np.array_equal(np.sort(g[s]), s):
                raise Rejected("a claim's history has a symmetry that does not map its set onto itself")
        if key not in self._orbits:
            for g in gens:
                self._is_symmetry(g, key)
            least = np.arange(self.n, dtype=np.int64)
            while True:
                before = least.copy()
                for g in gens:
                    np.minimum(least, least[g], out=least)
                    least[g] = np.minimum(least[g], least)
                if np.array_equal(before, least):
                    break
            self._orbits[key] = least == np.arange(self.n)
        return np.flatnonzero(self._orbits[key])

    def _is_symmetry(self, g: NDArray[np.int64], hist: tuple[int, ...]) -> None:
        """g (each code's image) permutes the codes, keeps every answer and fixes every guess of hist; else the
        checker itself is at fault (AssertionError: not a verdict on the certificate)."""
        assert np.array_equal(np.sort(g), np.arange(self.n)), "a generator is not a permutation of the codes"
        assert all(int(g[h]) == h for h in hist), "a generator moves a guess of the history"
        if g.tobytes() in self._symmetries:  # the same permutation kept every answer for another history
            return
        self._symmetries.add(g.tobytes())
        for lo in range(0, self.n, CHUNK):
            rows = np.arange(lo, min(lo + CHUNK, self.n))
            same = self.answers[np.ix_(g[rows], g)] == self.answers[rows]
            assert same.all(), "a generator changes an answer"

    def _generators(self, hist: tuple[int, ...]) -> list[NDArray[np.int64]]:
        """Permutations of the codes (image of each code) that generate the group of place-and-colour permutations
        fixing every guess of hist: for each place permutation, the colour map it forces on the colours hist uses
        (when it is one-to-one), the other colours left alone; and two that permute the unused colours."""
        guesses = self.codes[list(hist)]
        used = sorted({int(c) for c in guesses.ravel()})
        out = []
        for places in permutations(range(self.pegs)):
            colour: dict[int, int] = {}
            fits = all(
                colour.setdefault(int(g[places[i]]), int(g[i])) == int(g[i]) for g in guesses for i in range(self.pegs)
            )
            if fits and len(set(colour.values())) == len(colour):
                full = np.arange(self.colours)
                for a, b in colour.items():
                    full[a] = b
                out.append(self._image(list(places), full))
        unused = [c for c in range(self.colours) if c not in used]
        if len(unused) >= 2:
            swap = np.arange(self.colours)
            swap[unused[0]], swap[unused[1]] = unused[1], unused[0]
            turn = np.arange(self.colours)
            turn[unused] = unused[1:] + unused[:1]
            out += [self._image(list(range(self.pegs)), swap), self._image(list(range(self.pegs)), turn)]
        return out

    def _image(self, places: list[int], colour: NDArray[np.int64]) -> NDArray[np.int64]:
        """Each code's image: place i of the image holds the colour map's image of the code's place places[i]."""
        image: NDArray[np.int64] = colour[self.codes[:, places]] @ self.weights
        return image


_shared: list[Any] = []  # the checker, the claims to check and every claim's value, for the forked processes


def _check_share(share: list[int]) -> None:
    """In a forked process: check the claims at these places of the work list."""
    checker, work, claims = _shared
    for i in share:
        s, value, hist = work[i]
        checker._check_claim(s, value, hist, claims)


def shares(work: list[tuple[NDArray[np.int64], int, tuple[int, ...] | None]], jobs: int) -> list[list[int]]:
    """The claims' places split into `jobs` shares: the claims grouped by their history's first guess (they share
    its symmetries), a claim without history alone (it uses none), each group whole, the largest groups first to
    the share with the fewest secrets so far."""
    groups: dict[tuple[int, int], list[int]] = {}
    for i, (_, _, hist) in enumerate(work):
        groups.setdefault((hist[0], -1) if hist else (-1, i), []).append(i)
    out: list[list[int]] = [[] for _ in range(jobs)]
    load = [0] * jobs
    for group in sorted(groups.values(), key=lambda g: -sum(len(work[i][0]) for i in g)):
        least = load.index(min(load))
        out[least] += group
        load[least] += sum(len(work[i][0]) for i in group)
    return [share for share in out if share]


ARRAYS = ("pegs", "colours", "total", "lengths", "guesses", "sizes", "values", "members", "made", "history")


def _integers(cert: dict[str, Any]) -> None:
    """Every array a certificate needs is there and holds integers (a float array would be truncated silently)."""
    for name in ARRAYS:
        if name not in cert:
            raise Rejected(f"the certificate has no {name}")
        if not np.issubdtype(np.asarray(cert[name]).dtype, np.integer):
            raise Rejected(f"the certificate's {name} are not integers")
    if min(int(cert["pegs"]), int(cert["colours"])) < 1:
        raise Rejected("the game has no codes")


def check(cert: dict[str, Any], jobs: int = 1) -> int:
    """Check a certificate (its arrays by name) on `jobs` processes; how many claims it holds. Rejected if it
    proves nothing."""
    _integers(cert)
    pegs, colours, total = int(cert["pegs"]), int(cert["colours"]), int(cert["total"])
    checker = Checker(pegs, colours)
    checker.check_strategy(cert["lengths"], cert["guesses"], total)
    arrays = (cert["sizes"], cert["values"], cert["members"], cert["made"], cert["history"])
    return checker.check_claims(*arrays, total, jobs=jobs)


def check_file(path: str | Path, jobs: int = 1) -> tuple[int, dict[str, Any]]:
    """Check a certificate file on `jobs` processes; (how many claims it holds, its arrays). Rejected if it proves
    nothing."""
    try:
        with np.load(path, allow_pickle=False) as f:
            cert = dict(f)
    except (OSError, ValueError) as e:
        raise Rejected(f"not a certificate file ({e})") from None
    return check(cert, jobs), cert


def main(argv: list[str]) -> int:
    """python -m tests.certify.checker [--jobs N] FILE... (--jobs before or after the files): check certificate
    files on N processes (default: every core this process may use); exit status 1 if one is rejected."""
    import time

    jobs = len(os.sched_getaffinity(0))
    if "--jobs" in argv:  # before or after the files
        at = argv.index("--jobs")
        jobs, argv = int(argv[at + 1]), argv[:at] + argv[at + 2 :]
    status = 0
    for path in argv:
        started = time.monotonic()
        try:
            claims, cert = check_file(path, jobs)
        except Rejected as e:
            print(f"{path}: REJECTED: {e}")
            status = 1
            continue
        pegs, colours, total = int(cert["pegs"]), int(cert["colours"]), int(cert["total"])
        print(
            f"{path}: Mastermind {pegs}x{colours}: the optimal total is {total:,} (average "
            f"{total / colours**pegs:.6f}): {claims:,} claims and the strategy checked in "
            f"{time.monotonic() - started:.1f} s on {jobs} process{'es' if jobs > 1 else ''}"
        )
    return status


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))

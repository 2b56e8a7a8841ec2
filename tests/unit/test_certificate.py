"""Certificates of optimal averages (`solvers.codebreak.optimal.certificate`) and their independent checker
(`tests/certify/checker.py`): the checker's scores and bounds against brute force written here, whole games
against an exhaustive search written here, the certificates kept in webapp/data/certificates, and certificates altered
so that they no longer prove anything, which the checker must refuse."""

from __future__ import annotations

from collections import Counter
from itertools import product
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from solvers.codebreak import build
from solvers.codebreak.optimal.certificate import OptimumCertificate, certify
from tests import oracle
from tests.certify.checker import Checker, Rejected, all_codes, answers, check, check_file, counting, shares
from webapp.results.games import game_spec

KEPT = Path(__file__).resolve().parents[2] / "webapp" / "data" / "certificates"


def mastermind(pegs: int, colours: int) -> Any:
    return build(game_spec("mastermind"), {"length": pegs, "colours": colours})


@pytest.mark.parametrize(("pegs", "colours"), [(3, 4), (4, 3), (2, 6)])
def test_checker_scores_as_a_player_counts(pegs: int, colours: int) -> None:
    table = answers(pegs, colours)
    codes = [tuple(int(c) for c in code) for code in all_codes(pegs, colours)]
    assert codes == list(product(range(colours), repeat=pegs))
    for g, guess in enumerate(codes):
        for x, secret in enumerate(codes):
            b, w = oracle.score(guess, secret)
            assert table[g, x] == b * (pegs + 1) + w


def test_checker_score_examples() -> None:
    """Examples worked by hand (colours A=0, B=1, ...)."""
    table = answers(4, 6)

    def at(guess: str, secret: str) -> int:
        number = {code: i for i, code in enumerate(product(range(6), repeat=4))}
        return int(table[number[tuple(ord(c) - 65 for c in guess)], number[tuple(ord(c) - 65 for c in secret)]])

    assert at("AABB", "ABAB") == 2 * 5 + 2
    assert at("AABB", "CCDD") == 0
    assert at("ABCD", "DCBA") == 4
    assert at("AAAA", "ABCA") == 2 * 5
    assert at("ABCD", "ABCD") == 4 * 5


def test_counting_bound_by_hand() -> None:
    # b = 2: one secret found by the first guess, two by the second, four by the third
    assert counting(7, 2).tolist() == [0, 1, 3, 5, 8, 11, 14, 17]
    assert counting(4, 13)[4] == 1 + 2 * 3


def test_one_deeper_bound_against_a_count_by_hand() -> None:
    """The checker's one-guess-deeper bound of a set (its compiled loop) is the least, over every guess that tells
    something, of |P| plus the counting bounds of the parts it leaves open, counted here with the player's score on
    random sets of Mastermind 3x4."""
    import random

    codes = list(product(range(4), repeat=3))
    checker = Checker(3, 4)
    bound = counting(len(codes), len({oracle.score(g, x) for g in codes for x in codes}) - 1)
    rng = random.Random(7)
    for size in (2, 3, 5, 8, 13, 21, 40):
        part = sorted(rng.sample(range(len(codes)), size))
        least = None
        for g in codes:
            parts = Counter(oracle.score(g, codes[x]) for x in part if codes[x] != g)
            if size in parts.values():
                continue  # tells nothing
            total = size + sum(int(bound[c]) for c in parts.values())
            least = total if least is None else min(least, total)
        assert least is not None
        assert checker._one_deeper(np.array(part, dtype=np.int64), 0) == least


@pytest.mark.parametrize(("pegs", "colours"), [(2, 2), (2, 3), (3, 2), (2, 4)])
def test_tiny_games_against_brute_force(pegs: int, colours: int) -> None:
    cert = certify(mastermind(pegs, colours))
    assert check(cert._asdict()) >= 1
    every, total, _ = oracle.plain_costs(pegs, colours)
    assert cert.total == total(frozenset(every))


def test_published_games() -> None:
    """Goddard 2004 gives 3x4 3.219 and 4x4 3.535 to three decimals: 206 / 64 and 905 / 256."""
    for pegs, colours, total in ((3, 4, 206), (4, 4, 905)):
        cert = certify(mastermind(pegs, colours))
        assert check(cert._asdict()) > 1
        assert cert.total == total


KEPT_TOTALS = {  # (pegs, colours): the total and its source: a publication, or for a value published nowhere we know
    # of ("new") the independent checker itself (tests/certify/checker.py), which is what proves it here
    (4, 5): (2463, "Goddard 2004: 3.941"),
    (4, 6): (5625, "Koyama and Lai 1993"),
    (5, 4): (3954, "new"),
    (6, 3): (2649, "new"),
    (3, 6): (854, "new"),
    (3, 7): (1474, "new"),
    (3, 8): (2359, "new"),
    (3, 9): (3596, "new"),
    (3, 10): (5242, "new: more colours than the table's sizes"),
}


@pytest.mark.parametrize(("pegs", "colours"), sorted(KEPT_TOTALS))
def test_kept_certificates(pegs: int, colours: int) -> None:
    """The certificates in webapp/data/certificates that check in seconds (the larger ones: tests marked proof)."""
    claims, cert = check_file(KEPT / f"mastermind-{pegs}x{colours}.npz")
    assert claims > 1 and int(cert["total"]) == KEPT_TOTALS[pegs, colours][0]


def same_as_kept(cert: OptimumCertificate, pegs: int, colours: int) -> bool:
    """Whether a certificate is the kept one, array by array (the tree, every claim, every history)."""
    with np.load(KEPT / f"mastermind-{pegs}x{colours}.npz") as f:
        kept = dict(f)
    made = cert._asdict()
    return set(made) == set(kept) and all(np.array_equal(np.asarray(made[k]), kept[k]) for k in kept)


@pytest.mark.parametrize(("pegs", "colours"), [(4, 6), (3, 8), (5, 4)])
def test_a_certificate_made_now_is_the_kept_one(pegs: int, colours: int) -> None:
    """The search as it is now makes exactly the kept certificate: the same optimal tree and the same claims (so
    a change to how the search is driven, its loops or where it runs, has not changed what it proves). The larger
    ones: `make proofs`."""
    cert = certify(build(game_spec("mastermind"), {"length": pegs, "colours": colours}, colours_up_to=colours))
    assert same_as_kept(cert, pegs, colours)


# ---------------------------------------------------------------------- certificates that prove nothing


@pytest.fixture(scope="module")
def cert45() -> OptimumCertificate:
    return certify(mastermind(4, 5))


def claims_of(cert: OptimumCertificate, **changed: Any) -> tuple[Any, ...]:
    c = cert._replace(**changed)
    return c.sizes, c.values, c.members, c.made, c.history, c.total


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_unaltered_certificate_checks(cert45: OptimumCertificate, jobs: int) -> None:
    assert check(cert45._asdict(), jobs) == len(cert45.sizes)


def test_a_check_on_two_processes_does_not_halt_a_process_that_handles_stops(
    cert45: OptimumCertificate, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Checked in a process where a stop halts proofs (`webapp.jobs.halting`, as the command line's tests leave
    theirs), the check's forked processes end without a stop: a pool's terminate sent each a SIGTERM, which the
    handler they inherited took for a stop of the whole process, its halt flag (shared with them) set, when the
    signal came in time (a race: so terminate itself fails the test)."""
    import multiprocessing.pool

    from solvers.halt import halted
    from webapp.jobs.halting import halt_on_signals

    def terminate(pool: multiprocessing.pool.Pool) -> None:
        raise AssertionError("the check's processes were stopped by a signal (Pool.terminate)")

    monkeypatch.setattr(multiprocessing.pool.Pool, "terminate", terminate)
    halt_on_signals()
    assert check(cert45._asdict(), 2) == len(cert45.sizes)
    assert not halted()


@pytest.mark.parametrize("jobs", [1, 2])
def test_claims_raised_by_one_are_refused(cert45: OptimumCertificate, jobs: int) -> None:
    """Refused on one process, and on two: a share's Rejected reaches the caller."""
    checker = Checker(4, 5)
    with pytest.raises(Rejected):
        checker.check_claims(*claims_of(cert45, values=cert45.values + 1, total=cert45.total + 1), jobs=jobs)


def test_the_claims_are_shared_out_by_first_guess(cert45: OptimumCertificate) -> None:
    """Every claim is in exactly one share, the claims below one first guess in the same share (claims without
    history spread one by one), and the shares hold about as many secrets each."""
    sizes = [5, 9, 2, 7, 3, 8, 1, 4, 6, 9, 20, 20, 20]
    firsts = [-1, 0, 1, 2, 3, 4, 5, 6, 0, 1, -1, -1, -1]  # -1: a claim without history
    work = [(np.arange(n, dtype=np.int64), 0, None if f < 0 else (f, 9)) for n, f in zip(sizes, firsts, strict=True)]
    out = shares(work, 3)
    assert sorted(i for share in out for i in share) == list(range(len(work)))
    first_of = [{work[i][2][0] for i in share if work[i][2]} for share in out]
    assert all(not (a & b) for k, a in enumerate(first_of) for b in first_of[k + 1 :])  # a first guess: one share
    assert sum(1 for share in out if any(work[i][2] is None for i in share)) > 1  # the claims alone, spread
    loads = [sum(len(work[i][0]) for i in share) for share in out]
    assert max(loads) - min(loads) <= max(sizes)


def test_the_whole_games_claim_alone_is_refused(cert45: OptimumCertificate) -> None:
    whole = int(np.flatnonzero(cert45.sizes == 625)[0])
    start = int(cert45.sizes[:whole].sum())
    h = int(np.maximum(cert45.made[:whole], 0).sum())
    alone = {
        "sizes": cert45.sizes[whole : whole + 1],
        "values": cert45.values[whole : whole + 1],
        "members": cert45.members[start : start + 625],
        "made": cert45.made[whole : whole + 1],
        "history": cert45.history[h : h + max(int(cert45.made[whole]), 0)],
    }
    with pytest.raises(Rejected, match="not shown to need"):
        Checker(4, 5).check_claims(*claims_of(cert45, **alone))


def test_a_missing_claim_for_the_total_is_refused(cert45: OptimumCertificate) -> None:
    with pytest.raises(Rejected, match="whole game"):
        Checker(4, 5).check_claims(*claims_of(cert45, total=cert45.total + 1))


def test_a_history_whose_symmetries_move_the_set_is_refused(cert45: OptimumCertificate) -> None:
    """A claim may only use the symmetries of guesses that fix its set: AAAB is fixed by swapping the first two
    places, which moves a set such as {ABCD}."""
    aaab = 0 * 125 + 0 * 25 + 0 * 5 + 1
    abcd = 0 * 125 + 1 * 25 + 2 * 5 + 3
    sizes = np.array([*cert45.sizes, 2])
    values = np.array([*cert45.values, 4])  # above the counting bound of two secrets (3): checked
    members = np.array([*cert45.members, abcd, abcd + 1])
    made = np.array([*cert45.made, 1])
    history = np.array([*cert45.history, aaab])
    with pytest.raises(Rejected, match="does not map"):
        Checker(4, 5).check_claims(sizes, values, members, made, history, cert45.total)


def test_strategies_that_are_not_one_are_refused(cert45: OptimumCertificate) -> None:
    checker = Checker(4, 5)
    lengths, guesses = cert45.lengths, cert45.guesses
    checker.check_strategy(lengths, guesses, cert45.total)
    with pytest.raises(Rejected, match="totals"):
        checker.check_strategy(lengths, guesses, cert45.total - 1)
    second = int(lengths[0])  # secret 1's first guess: another first guess than secret 0's
    other = guesses.copy()
    other[second] = (other[0] + 1) % 625
    with pytest.raises(Rejected, match="same answers"):
        checker.check_strategy(lengths, other, cert45.total)
    wrong_end = guesses.copy()
    wrong_end[int(lengths[0]) - 1] = 7  # secret 0 "found" by guessing code 7
    with pytest.raises(Rejected, match="end on it"):
        checker.check_strategy(lengths, wrong_end, cert45.total)


def test_a_checker_used_again_keeps_no_claim_from_the_last_certificate(cert45: OptimumCertificate) -> None:
    """The one-guess-deeper bound of a part is the game's alone: a claim's value passed with it for one certificate
    is not what the next call gets (a reused checker once carried claim values from one certificate into the next);
    the checker that saw a raised certificate still checks the true one."""
    checker = Checker(4, 5)
    part = np.arange(0, 40, dtype=np.int64)
    least = checker._one_deeper(part, 0)
    assert checker._one_deeper(part, 10**6) == 10**6 and checker._one_deeper(part, 0) == least
    with pytest.raises(Rejected):
        checker.check_claims(*claims_of(cert45, values=cert45.values + 1, total=cert45.total + 1))
    assert checker.check_claims(*claims_of(cert45)) == len(cert45.sizes)


@pytest.mark.parametrize("value", [-1, 625, 10**6])
def test_a_history_guess_that_is_no_code_is_refused(cert45: OptimumCertificate, value: int) -> None:
    """A history naming a code out of range is REJECTED (it raised an IndexError, and a negative one was read as
    a code counted from the end)."""
    at = int(np.flatnonzero(cert45.made > 0)[0])
    h = int(np.maximum(cert45.made[:at], 0).sum())
    history = cert45.history.copy()
    history[h] = value
    values = cert45.values.copy()
    values[at] = max(int(values[at]), int(counting(625, 13)[int(cert45.sizes[at])]) + 1)  # checked, not skipped
    with pytest.raises(Rejected, match="not a code"):
        check({**cert45._asdict(), "history": history, "values": values})


@pytest.mark.parametrize("name", ["lengths", "guesses", "values", "history", "total"])
def test_arrays_that_are_not_integers_are_refused(cert45: OptimumCertificate, name: str) -> None:
    """A certificate whose arrays hold floats (numpy would truncate 2.9 to 2 without a word) is REJECTED, and so is
    one that lacks an array."""
    cert = cert45._asdict()
    with pytest.raises(Rejected, match="not integers"):
        check({**cert, name: np.asarray(cert[name], dtype=np.float64) + 0.5})
    with pytest.raises(Rejected, match=f"has no {name}"):
        check({k: v for k, v in cert.items() if k != name})


def test_a_generator_that_is_no_symmetry_is_caught(cert45: OptimumCertificate, monkeypatch: pytest.MonkeyPatch) -> None:
    """The symmetries the checker builds are checked before use: one that swaps two codes (not a relabelling of
    places and colours) changes answers, and the checker stops on it instead of trusting its construction."""
    checker = Checker(4, 5)
    bad = np.arange(625, dtype=np.int64)
    bad[[1, 2]] = bad[[2, 1]]
    monkeypatch.setattr(checker, "_generators", lambda hist: [bad])
    with pytest.raises(AssertionError, match="changes an answer"):
        checker._representatives(np.arange(625, dtype=np.int64), (0,))

"""Instant start: a command imports only what its subcommand needs, and a second process loads the compiled
kernels from Numba's disk cache instead of compiling them (`make test` and `make run` warm the cache first)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from solvers.codebreak.optimal.plain import PLAIN_MAX
from solvers.jit import CACHE, kernel_sources, source_stamp
from solvers.parallel import Execution
from tests.conftest import TEST_KEY

SETTINGS = {"TESTING": True, "SECRET_KEY": TEST_KEY}

MODULES = (
    "import sys\n"
    "from webapp.commands.cli import main\n"
    "try:\n"
    "    main(sys.argv[1:])\n"
    "except SystemExit:\n"
    "    pass\n"
    "print(' '.join(sorted(m for m in sys.modules if m.split('.')[0] in ('numba', 'flask', 'numpy', 'solvers'))))\n"
)


def loaded_modules(*argv: str) -> set[str]:
    """The modules of Numba, Flask, NumPy and the solvers that a command line call imported."""
    done = subprocess.run([sys.executable, "-c", MODULES, *argv], capture_output=True, text=True, check=True)
    return set(done.stdout.split("\n")[-2].split())


def test_help_imports_no_solver_flask_or_numba() -> None:
    """`coin-puzzles --help` lists every subcommand without importing a solver, Flask, NumPy or Numba."""
    modules = loaded_modules("--help")
    assert not {m for m in modules if m.split(".")[0] in ("numba", "flask", "numpy")}
    assert modules <= {"solvers", "solvers.errors", "solvers.numbers"}  # numbers: the whole-number reader, no imports


def test_a_subcommand_imports_its_own_solver_only() -> None:
    """`devil 8` imports the Devil's solver and nothing compiled; `pegs` on a small board no Numba either."""
    devil = loaded_modules("devil", "4", "--json")
    assert "solvers.devil" in devil and not {m for m in devil if m.startswith(("numba", "flask", "solvers.pegs"))}
    pegs = loaded_modules("pegs", "--board", "triangle-5", "--hole", "1")
    assert "solvers.pegs" in pegs and not {m for m in pegs if m.startswith(("numba", "flask", "solvers.codebreak"))}


def test_heuristics_on_tabled_games_import_no_compiler() -> None:
    """A heuristic's tree on a game with an outcome table needs no compiled code, nor does an optimal search of a
    small game (plain Python, `optimal.plain`): Numba is imported only by the optimal searches of larger games and
    by games scored on demand (no table)."""
    knuth = loaded_modules("codebreak", "mastermind", "--pegs", "3", "--colours", "4", "--json")
    assert "solvers.codebreak.strategy" in knuth and not {m for m in knuth if m.startswith("numba")}
    for strategy in ("optimal-worst", "optimal-average"):
        small = loaded_modules("codebreak", "mastermind", "--pegs", "3", "--colours", "4", "--strategy", strategy)
        assert "solvers.codebreak.optimal.plain" in small and not {m for m in small if m.startswith("numba")}
    assert PLAIN_MAX < 125
    optimal = loaded_modules("codebreak", "mastermind", "--pegs", "3", "--colours", "5", "--strategy", "optimal-worst")
    assert "numba" in optimal and "solvers.codebreak.optimal.worst_search" in optimal


def compile_report(*argv: str) -> tuple[int, int]:
    """(kernels loaded from the disk cache, kernels compiled) by one whole `coin-puzzles` process."""
    env = dict(os.environ, COIN_PUZZLES_COMPILE_REPORT="1")
    done = subprocess.run(
        [str(Path(sys.executable).parent / "coin-puzzles"), *argv], env=env, capture_output=True, text=True, check=True
    )
    words = done.stderr.strip().splitlines()[-1].split()  # "kernels: 8 loaded, 0 compiled"
    return int(words[1]), int(words[3])


def test_a_second_process_loads_the_compiled_kernels() -> None:
    """After one process has run the optimal search (the warm-up did, in `make test`), another loads every
    kernel it needs from the cache folder named after the kernel sources, and compiles none."""
    argv = ("codebreak", "mastermind", "--pegs", "3", "--colours", "5", "--strategy", "optimal-worst", "--json")
    compile_report(*argv)
    loaded, compiled = compile_report(*argv)
    assert loaded > 0 and compiled == 0
    assert CACHE.name.endswith(source_stamp()) and list(CACHE.rglob("*.nbi"))


def test_the_cache_folder_changes_with_any_kernel_source(tmp_path: Path) -> None:
    """A kernel calling a kernel of another file is cached with it: changing any file of a package holding
    kernels names a new cache folder, a package without kernels does not count."""
    for package, text in (("fast", "from solvers.jit import kernel\n"), ("plain", "X = 1\n")):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
        (tmp_path / package / "a.py").write_text(text)
        (tmp_path / package / "b.py").write_text("Y = 2\n")
    (tmp_path / "jit.py").write_text("")
    assert {p.relative_to(tmp_path).as_posix() for p in kernel_sources(tmp_path)} == {
        "jit.py",
        "fast/__init__.py",
        "fast/a.py",
        "fast/b.py",
    }
    before = source_stamp(tmp_path)
    (tmp_path / "plain" / "b.py").write_text("Y = 3\n")
    assert source_stamp(tmp_path) == before
    os.utime(tmp_path / "fast" / "b.py", (1, 1))  # the same contents at another time (a fresh clone's files)
    assert source_stamp(tmp_path) == before
    (tmp_path / "fast" / "b.py").write_text("Y = 30\n")
    assert source_stamp(tmp_path) != before


PEG_KERNELS = (
    "import sys\n"
    "from solvers.jit import CACHE, compile_counts\n"
    "from solvers.pegs import analyse, board\n"
    "b = board('english')\n"
    "analyse(b, b.start('d4'), thorough=True, budget=1000)\n"
    "print(sys.modules['solvers'].__file__, CACHE, *compile_counts())\n"
)


def test_another_clone_loads_the_kernels_this_one_compiled(tmp_path: Path) -> None:
    """A copy of the solvers in another folder, its files written now (as a fresh clone's are), finds the same
    cache folder and loads the peg search's kernels that this copy compiled, compiling none."""
    root = Path(__file__).resolve().parents[2]
    shutil.copytree(root / "solvers", tmp_path / "solvers", ignore=shutil.ignore_patterns("__pycache__"))

    def run(where: Path) -> list[str]:
        env = dict(os.environ, PYTHONPATH=str(where))
        done = subprocess.run(
            [sys.executable, "-c", PEG_KERNELS], cwd=where, env=env, capture_output=True, text=True, check=True
        )
        return done.stdout.split()

    here = run(root)
    there = run(tmp_path)
    assert there[0] == str(tmp_path / "solvers" / "__init__.py") and there[1] == here[1] == str(CACHE)
    assert int(there[2]) > 0 and int(there[3]) == 0


@pytest.mark.parametrize(("game", "pegs", "colours"), [("mastermind", 3, 4), ("mastermind-black", 3, 4)])
def test_several_processes_prove_what_one_does(
    monkeypatch: pytest.MonkeyPatch, game: str, pegs: int, colours: int
) -> None:
    """The first experiments of the optimal-average proof searched on two processes give the one-process search's
    optimum and first experiment, and the tree read back from the winner's proof is optimal and verified on every
    secret."""
    from solvers.codebreak import Proving, build_tree, verify
    from solvers.codebreak.optimal import average_search
    from solvers.codebreak.optimal.average_search import AverageSearch
    from webapp.results.games import load

    g = load(game, pegs, colours)
    alone = AverageSearch(g)
    expected = alone.solve()
    monkeypatch.setattr(average_search, "PARALLEL_FROM", 1)
    shared = AverageSearch(g, run=Execution(2))
    found = shared.solve()
    assert (found.cost, shared.root_choice) == (expected.cost, alone.root_choice)
    stats = verify(g, build_tree(g, "optimal-average", proving=Proving(run=Execution(2))))
    assert stats.verified and stats.total == expected.cost


def test_older_cache_folders_go_only_once_stale(tmp_path: Path) -> None:
    """A new version's folder prunes older ones nothing has written to for a week, and keeps one a process
    still running (a long proof) wrote to recently, so that its late compiles still have a folder."""
    import os

    from solvers.jit import CACHE_STALE_SECONDS, PREFIX, prune

    now = 10 * CACHE_STALE_SECONDS
    stale, busy, current = (tmp_path / f"{PREFIX}{n}" for n in ("stale", "busy", "current"))
    for folder in (stale, busy, current):
        (folder / "pegs_x").mkdir(parents=True)
        (folder / "pegs_x" / "k.nbi").write_text("")
        for path in (folder, folder / "pegs_x", folder / "pegs_x" / "k.nbi"):
            os.utime(path, (now - 2 * CACHE_STALE_SECONDS, now - 2 * CACHE_STALE_SECONDS))
    os.utime(busy / "pegs_x" / "k.nbi", (now - 60, now - 60))  # a kernel saved a minute ago
    prune(tmp_path, current, now)
    assert not stale.exists() and busy.exists() and current.exists()


def test_the_cache_goes_where_it_can_be_written(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """NUMBA_CACHE_DIR first; else the account's cache folder (XDG_CACHE_HOME, then ~/.cache), coin-puzzles/numba;
    beside the sources when that folder cannot be made (no home folder, or one this account cannot write)."""
    from solvers.jit import cache_base

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "chosen"))
    assert cache_base(tmp_path) == tmp_path / "chosen"
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert cache_base(tmp_path) == tmp_path / "cache" / "coin-puzzles" / "numba"
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file"))  # a file where a folder should be: cannot be made
    assert cache_base(tmp_path) == tmp_path / "__pycache__"


def test_a_template_is_compiled_once_not_in_every_app(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The site's templates are compiled once a version of each, into the account's cache folder (0700, its files
    0600): another app (another test, another gunicorn worker) loads them from there and compiles none."""
    from webapp import create_app

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    first = create_app(SETTINGS)
    assert first.test_client().get("/devil/play?n=4").status_code == 200
    (folder,) = (tmp_path / "coin-puzzles").glob("templates-*")
    assert folder.stat().st_mode & 0o777 == 0o700
    assert {f.stat().st_mode & 0o777 for f in folder.iterdir()} == {0o600}
    again = create_app(SETTINGS)

    def compiled(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"compiled again: {args[1:2]}")

    monkeypatch.setattr(again.jinja_env, "compile", compiled)
    assert "Moves so far" in again.test_client().get("/devil/play?n=4").get_data(as_text=True)


def test_a_damaged_or_unwritable_template_cache_fails_no_page(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A cached template that cannot be read back (damaged after its header) is compiled again, and one that
    cannot be written (a full disk) is not kept: the page is served either way."""
    import jinja2.bccache

    from webapp import create_app

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert create_app(SETTINGS).test_client().get("/devil/play?n=4").status_code == 200
    (folder,) = (tmp_path / "coin-puzzles").glob("templates-*")
    for f in folder.iterdir():
        f.write_bytes(jinja2.bccache.bc_magic + b"not a pickle")
    assert create_app(SETTINGS).test_client().get("/devil/play?n=4").status_code == 200
    for f in folder.iterdir():
        f.unlink()

    def full(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(jinja2.bccache.FileSystemBytecodeCache, "dump_bytecode", full)
    assert create_app(SETTINGS).test_client().get("/devil/play?n=4").status_code == 200
    assert not list(folder.iterdir())


def test_a_cache_folder_is_used_only_where_this_account_alone_writes(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """What the cache folders hold is loaded as code: a folder of ours left open to others is made 0700, a link
    or (as root) another account's folder is not used, and a relative XDG_CACHE_HOME is ignored (~/.cache)."""
    from solvers.cachedir import account_cache

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    ours = tmp_path / "coin-puzzles"
    (ours / "open").mkdir(parents=True)
    ours.chmod(0o777)
    (ours / "open").chmod(0o777)
    assert account_cache("open") == ours / "open"
    assert ours.stat().st_mode & 0o777 == (ours / "open").stat().st_mode & 0o777 == 0o700
    (tmp_path / "elsewhere").mkdir()
    (ours / "linked").symlink_to(tmp_path / "elsewhere")
    assert account_cache("linked") is None
    if os.geteuid() == 0:  # root may write anywhere: a folder another account owns is still refused
        (ours / "theirs").mkdir()
        os.chown(ours / "theirs", 65534, 65534)
        assert account_cache("theirs") is None
    monkeypatch.setenv("XDG_CACHE_HOME", "relative")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert account_cache("k") == tmp_path / "home" / ".cache" / "coin-puzzles" / "k"

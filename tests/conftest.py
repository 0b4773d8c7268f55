import subprocess
import sys
from pathlib import Path

import pytest

# Make `tests.reference...` importable however pytest is started.
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# The kernels every test worker would otherwise compile side by side on a cold cache: compiled
# once, before the workers start, in one process per group (about as long as each other), and
# stored in Numba's cache next to the sources, from which the workers then load them.
WARM_UP_GROUPS = (("chinese",), ("nineball", "addario", "impossible"))
WARM_UP = """
import sys
from winnable import get_game
from winnable.session import replay_line
for name in sys.argv[1:]:
    game = get_game(name)
    for solver in game.solvers:
        game.warm_up(None, solver)
        game.solve(1, None, solver)  # a single game (Impossible records its moves then)
    if name == "chinese":
        # The thoughtful warm-up runs the steps after the searches too; the beam only when on.
        game.warm_up(None, "thoughtful", {"beam": 5})
    # A line played move by move (winnable.session) calls the rules' kernels from Python.
    session, _ = replay_line(game, game.deal(3), game.solve(3).moves[:4])
    session.best(1000)
    if name != "chinese":  # (the Chinese hint player is not tested: compiled on first use)
        session.hint()
"""


# The example plugin game (examples/golf, docs/adding-a-game.md), installed into the test
# environment as a user installs a game of their own, so that the tests see it as one: listed by
# `winnable games`, found by workers and held to the contract (tests/test_plugin_game.py).
PLUGIN = ROOT / "examples" / "golf"


def install_plugin() -> None:
    """``pip install -e examples/golf`` unless this environment has it from here already."""
    from importlib.metadata import PackageNotFoundError, distribution
    try:
        where = distribution("winnable-golf").read_text("direct_url.json") or ""
        if PLUGIN.as_uri() in where:
            return
    except PackageNotFoundError:
        pass
    done = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "-e",
                           str(PLUGIN)], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"installing {PLUGIN} failed:\n{done.stdout}{done.stderr}")
    # This process read its .pth files before the install: the package's folder, as they say.
    if str(PLUGIN) not in sys.path:
        sys.path.append(str(PLUGIN))


def pytest_sessionstart(session):
    """Before pytest-xdist starts its workers (its own hook runs last): install the example
    plugin game and warm the cache."""
    config = session.config
    if not hasattr(config, "workerinput"):
        install_plugin()
    if hasattr(config, "workerinput") or not config.getoption("numprocesses", None):
        return  # a worker, or tests in one process: nothing would be compiled twice
    procs = [subprocess.Popen([sys.executable, "-c", WARM_UP, *group], cwd=ROOT)
             for group in WARM_UP_GROUPS]
    for proc in procs:
        if proc.wait() != 0:
            raise RuntimeError(f"warming the Numba cache failed ({proc.args[3:]})")


# pytest-xdist hands the tests out in the order they are collected, so a long test collected
# near the end (test_signals.py is) can keep one worker busy while the other has nothing left.
# The longest tests (15-60 s each on a shared 2-core machine; the rest take a few seconds at
# most) are collected first, and the short ones fill in the end: longest first balances the two
# workers.  A name here that no longer matches only loses its place at the front.
LONG_TESTS = (
    "test_signals.py::test_every_signal_stops_resolve",
    "test_chinese.py::test_a_class_larger_than_the_buffers",
    "test_signals.py::test_every_signal_stops_an_experiment_script",
    "test_signals.py::test_every_signal_stops_a_sweep",
    "test_nineball_nopeek.py::test_values_agree_with_reference_expectimax",
    "test_chinese.py::test_each_reduction_agrees_with_the_search_without_it",
    "test_chinese.py::test_each_reduction_agrees_on_whole_lost_deals",
    "test_chinese_critical.py::test_the_triples_test_never_fires_on_a_winning_line",
    "test_signals.py::test_every_signal_stops_solve_batch",
    "test_batch.py::test_per_deal_seconds",
    "test_chinese.py::test_occupation_dead_end_proves",
    "test_signals.py::test_killed_batch",
    "test_impossible.py::test_random_player_agrees_with_reference",
    "test_chinese_critical.py::test_the_engine_computes_the_reference_h2",
    "test_chinese.py::test_strategy_fallback_wins_replay",
    "test_notebooks.py::test_notebook_runs",
)


def pytest_collection_modifyitems(items):
    def rank(item):
        name = item.nodeid.rsplit("/", 1)[-1]
        return next((i for i, long in enumerate(LONG_TESTS) if name.startswith(long)),
                    len(LONG_TESTS))

    items.sort(key=rank)  # stable: the order within each rank, and of the rest, is kept


@pytest.fixture
def run_cli(monkeypatch, capsys):
    """The installed entry points in this process: ``run_cli("solve", ...)`` runs ``winnable
    solve ...`` (``program="solve-batch"``: that command) and returns (exit code, stdout,
    stderr).  What the user sees, without starting an interpreter per call."""
    from winnable.cli import _run, cli, solve_batch_command

    def run(*args, program="winnable"):
        monkeypatch.setattr(sys, "argv", [program, *map(str, args)])
        with pytest.raises(SystemExit) as stop:
            _run(cli if program == "winnable" else solve_batch_command, program)
        captured = capsys.readouterr()
        return stop.value.code, captured.out, captured.err

    return run


SMALL_CHINESE = {"budget": 60, "strategy": 0}  # a budget small enough to leave deals unknown


@pytest.fixture(scope="session")
def unknowns_run(tmp_path_factory):
    """``unknowns_run(n, out)``: Chinese deals 180..180+n-1 solved at ``SMALL_CHINESE`` into
    ``out`` (most stay unknown: the input of the resolve tests).  Built once per test process
    and copied, since the triples test spends about 0.16 s on each unknown deal."""
    import shutil

    from winnable import solve_batch
    built = {}

    def copy(n: int, out: Path) -> Path:
        if n not in built:
            built[n] = tmp_path_factory.mktemp("unknowns") / f"chinese_{n}.parquet"
            solve_batch("chinese", n=n, start=180, options=SMALL_CHINESE, workers=1,
                        out=built[n], progress=False)
        shutil.copy(built[n], out)
        return out

    return copy

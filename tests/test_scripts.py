"""A batch called from a plain script (issue 59): with the `if __name__ == "__main__":` guard
or without it, `solve_batch(..., workers=2)` completes, and its workers never run the script's
top level again; where the workers must import the script (a game registered from it) and it
starts the run unguarded, the script stops at once with one line naming the fix."""

import subprocess
import sys
import textwrap
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parent.parent

BATCH = """
from winnable import solve_batch
rows = solve_batch("nineball", n=40, workers=2, chunk_size=10, out=OUT, progress=False)
print("solved", len(rows), rows.attrs["solved"])
"""
# The top level of the script, which a worker would run again if it imported the script.
MARK = "open(OUT + '.ran', 'a').write('x')\n"


def run_script(tmp_path, body: str, name: str = "script.py"):
    out = tmp_path / "run.parquet"
    script = tmp_path / name
    script.write_text(f"OUT = {str(out)!r}\n{MARK}{textwrap.dedent(body)}")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          cwd=tmp_path, timeout=600, env=None)
    ran = Path(str(out) + ".ran")
    return done, out, (ran.read_text() if ran.exists() else "")


def test_a_script_without_the_guard_runs_a_batch(tmp_path):
    done, out, ran = run_script(tmp_path, BATCH)
    assert done.returncode == 0, done.stderr
    assert "solved 40 40" in done.stdout
    assert ran == "x"  # the top level ran once: in the script, not again in each worker
    assert list(pd.read_parquet(out).seed) == list(range(1, 41))


def test_a_script_with_the_guard_runs_the_same_batch(tmp_path):
    guarded = "def main():\n" + textwrap.indent(textwrap.dedent(BATCH), "    ") + \
        "\n\nif __name__ == '__main__':\n    main()\n"
    done, out, ran = run_script(tmp_path, guarded)
    assert done.returncode == 0, done.stderr
    assert "solved 40 40" in done.stdout and ran == "x"
    assert list(pd.read_parquet(out).seed) == list(range(1, 41))


def test_an_unguarded_script_whose_workers_need_it_stops_with_one_line(tmp_path):
    """A game registered from the script itself: each worker must import the script, which
    then starts a run from its top level; the script ends at once, one line, exit code 1."""
    body = f"""
    import sys
    sys.path.insert(0, {str(ROOT)!r})
    from tests.test_toy_game import Toy
    from winnable.games import GAMES

    class Mine(Toy):
        name = "mine"

    GAMES["mine"] = "__main__:Mine"
    from winnable import solve_batch
    solve_batch("mine", n=40, workers=2, chunk_size=10, out=OUT, progress=False)
    print("finished")
    """
    done, _, _ = run_script(tmp_path, body)
    assert done.returncode == 1 and "finished" not in done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in done.stderr
    assert 'if __name__ == "__main__":' in lines[0] and "rerun" not in lines[0]


def test_a_worker_that_fails_to_start_does_not_advise_a_rerun(tmp_path):
    """The script's top level fails in the worker that imports it (here on purpose): the run
    stops with one line that points at what failed, not at a rerun that would fail the same."""
    body = f"""
    import sys
    sys.path.insert(0, {str(ROOT)!r})
    if __name__ == "__mp_main__":
        raise SystemExit(3)
    from tests.test_toy_game import Toy
    from winnable.games import GAMES
    from winnable.errors import UserError

    class Mine(Toy):
        name = "mine"

    if __name__ == "__main__":
        GAMES["mine"] = "__main__:Mine"
        from winnable import solve_batch
        try:
            solve_batch("mine", n=40, workers=2, chunk_size=10, out=OUT, progress=False)
        except UserError as exc:
            print(exc)
    """
    done, _, _ = run_script(tmp_path, body)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("a worker process died while starting (exit code 3)")
    assert "rerun" not in done.stdout

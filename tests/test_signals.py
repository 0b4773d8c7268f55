"""Stopping a run: Ctrl-C, SIGTERM and SIGHUP end every long-running command within seconds,
keep every finished chunk and leave no process behind (each command is stopped by each signal
in turn, then resumed to what an uninterrupted run gives); a batch killed with -9 loses nothing,
and workers exit by themselves when the batch's process is killed.  The stress loop (many
interrupts at random moments under load) is marked long, run on its own:
`python -m pytest -m long tests/test_signals.py`."""

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from winnable import get_game

SOLVE_BATCH = [sys.executable, "-c", "from winnable.cli import solve_batch_main; solve_batch_main()"]
STOP_WITHIN = 10  # seconds from the signal to the end of every process of the batch


def batch(out: Path, n: int = 400_000, chunk: int = 500) -> list[str]:
    """A Nineball batch of ``n`` deals into ``out``, two workers."""
    return SOLVE_BATCH + ["--game", "nineball", "--n", str(n), "--out", str(out), "--workers",
                          "2", "--chunk", str(chunk), "--quiet"]


def _default_signals() -> None:
    # Ctrl-C as a terminal delivers it: to a batch whose SIGINT is not ignored.  A program
    # started in the background by a non-interactive shell (as CI may start the tests)
    # inherits SIGINT ignored, and then rightly ignores it.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start(cmd) -> subprocess.Popen:
    """The batch as its own session (so its processes can be found, and signalled as a
    terminal signals a job)."""
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=_default_signals)


def session_processes(session: int) -> list[int]:
    """Live (not zombie) processes of a session, from /proc."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[0] != "Z" and int(fields[3]) == session:
            found.append(int(stat.parent.name))
    return found


def wait_for_parts(parts: Path, count: int, proc, timeout=120) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        if parts.exists() and len(list(parts.glob("part-*.parquet"))) >= count:
            return
        if proc.poll() is not None:
            raise AssertionError(f"batch ended early: {proc.stderr.read()}")
        time.sleep(0.05)
    raise AssertionError("no parts appeared")


def wait_until_running(proc, timeout=60) -> None:
    """Until the batch's own code runs: it catches SIGTERM from then on (/proc's SigCgt).
    Before that, Python itself is starting, and answers Ctrl-C with its own traceback."""
    deadline = time.time() + timeout
    while time.time() < deadline and proc.poll() is None:
        try:
            status = Path(f"/proc/{proc.pid}/status").read_text()
        except OSError:
            return
        caught = int(next(l for l in status.splitlines() if l.startswith("SigCgt")).split()[1], 16)
        if caught >> (signal.SIGTERM - 1) & 1:
            return
        time.sleep(0.005)


def wait_until_gone(session: int, seconds: float) -> list[int]:
    deadline = time.time() + seconds
    while (left := session_processes(session)) and time.time() < deadline:
        time.sleep(0.05)
    return left


pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


def test_killed_batch_loses_nothing(tmp_path):
    """kill -9 of the whole job mid-run: every finished chunk is kept, and rerunning the same
    command ends with exactly N rows, those of a fresh solve.  (Ctrl-C, SIGTERM and SIGHUP
    mid-run: test_every_signal_stops_solve_batch_and_it_resumes_exactly.)"""
    out = tmp_path / "nb.parquet"
    n = 30_000  # 120 chunks: the interruption after the 4th lands mid-run
    cmd = batch(out, n, chunk=250)
    proc = start(cmd)
    wait_for_parts(Path(f"{out}.parts"), 4, proc)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert wait_until_gone(proc.pid, STOP_WITHIN) == []
    kept = len(list(Path(f"{out}.parts").glob("part-*.parquet")))
    assert kept >= 4 and not out.exists()
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    df = pd.read_parquet(out)
    assert len(df) == n and df.seed.is_unique and list(df.seed) == list(range(1, n + 1))
    # Rows solved before and after the interruption agree with a fresh solve.
    sample = [1, 249, 250, 251, 2000, n]
    cols = get_game("nineball").solve_seeds(np.array(sample))
    assert list(df.set_index("seed").loc[sample, "score"]) == list(cols["score"])
    assert "deals 30,000" in done.stdout


def test_workers_exit_when_the_batch_is_killed(tmp_path):
    out = tmp_path / "nb.parquet"
    proc = start(batch(out))
    wait_for_parts(Path(f"{out}.parts"), 2, proc)
    os.kill(proc.pid, signal.SIGKILL)  # the batch's process only: its workers are orphaned
    proc.wait()
    assert wait_until_gone(proc.pid, STOP_WITHIN) == []
    assert list(Path(f"{out}.parts").glob("part-*.parquet"))


@pytest.mark.long
def test_ctrl_c_at_random_moments_under_load_always_ends_the_batch(tmp_path):
    """25 interrupts at random moments from when the program runs (compiling or loading the
    kernels, checking stored parts, starting workers, solving), with every core busy with other
    work; each run file is interrupted twice, the second time while resuming.  Then the last one
    resumes to exactly N rows."""
    n = 200_000
    # Busy loops, as nice as can be: they take the cores from the batch, not from other users.
    load = [subprocess.Popen([sys.executable, "-c", "while True: pass"],
                             preexec_fn=lambda: os.nice(19)) for _ in range(os.cpu_count() or 1)]
    rng = random.Random(16)
    interrupted = 0
    try:
        for attempt in range(25):
            out = tmp_path / f"nb{attempt // 2}.parquet"
            proc = start(batch(out, n))
            wait_until_running(proc)
            time.sleep(rng.uniform(0, 6))
            sent = time.time()
            os.killpg(proc.pid, signal.SIGINT)
            try:
                out_text, err = proc.communicate(timeout=STOP_WITHIN)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                raise AssertionError(f"attempt {attempt}: still running {STOP_WITHIN} s after "
                                     "Ctrl-C")
            assert wait_until_gone(proc.pid, STOP_WITHIN - (time.time() - sent)) == [], attempt
            assert "Traceback" not in err, (attempt, err[-2000:])
            # Interrupted (130); or it had finished just before: exit 0, or, when Ctrl-C came
            # while Python was shutting down (its handler gone), death by SIGINT.
            finished = "deals stored in" in out_text
            allowed = (130,) + ((0, -signal.SIGINT) if finished else ())
            assert proc.returncode in allowed, (attempt, proc.returncode, err[-2000:])
            interrupted += proc.returncode == 130
    finally:
        for p in load:
            p.kill()
            p.wait()
    assert interrupted >= 20, interrupted  # the interrupts landed while the batches ran
    done = subprocess.run(batch(out, n), capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    df = pd.read_parquet(out)
    assert list(df.seed) == list(range(1, n + 1))


# --- every long-running command, every stopping signal ------------------------------------------
# Each command is stopped by Ctrl-C, then (resumed) by SIGTERM, then by SIGHUP, each time after
# it stored more: every process must be gone within STOP_FAST seconds of the signal, the one line
# said, and the command run once more must end with what an uninterrupted run gives.

STOP_FAST = 2  # seconds from the signal to the end of every process of the command
CHAIN = [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "stopped by SIGTERM"),
         (signal.SIGHUP, 129, "stopped by SIGHUP")]
EXPERIMENTS = Path(__file__).resolve().parent.parent / "experiments"


def stored(paths) -> int:
    """Deals stored so far in run files (their parts included) and escalation parts."""
    from winnable.runs.store import stored_seeds
    count = 0
    for path in paths:
        if path.name.endswith(".resolve"):
            count += len(list(path.glob("part-*.parquet")))
        else:
            count += len(stored_seeds(path))
    return count


def run_files(folder: Path) -> list[Path]:
    """The run files in ``folder``, finished or still in parts."""
    return sorted({folder / p.name.removesuffix(".parts") for p in folder.glob("*.parquet*")
                   if p.name.endswith((".parquet", ".parquet.parts"))})


def stop_three_times_and_finish(cmd, files, tmp_path, quiet=True, unfinished=()) -> str:
    """Run ``cmd`` and stop it with each signal of ``CHAIN`` once ``files()`` (the run files it
    writes) hold more than before; then run it to the end and return its stdout.  ``quiet``: the
    command shows no progress, so the stopping line must be all it writes to stderr;
    ``unfinished``: files that must not exist until the command ends."""
    for signum, code, said in CHAIN:
        before = stored(files())
        proc = start(cmd)
        deadline = time.time() + 300
        while stored(files()) <= before:
            assert proc.poll() is None, f"{said}: it ended first: {proc.stderr.read()[-2000:]}"
            assert time.time() < deadline, f"{said}: nothing stored in time"
            time.sleep(0.05)
        sent = time.time()
        # A terminal's Ctrl-C and a hang-up reach the whole job; `kill` the command alone.
        if signum == signal.SIGTERM:
            os.kill(proc.pid, signum)
        else:
            os.killpg(proc.pid, signum)
        try:
            _, err = proc.communicate(timeout=STOP_FAST)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            raise AssertionError(f"still running {STOP_FAST} s after {said}")
        assert wait_until_gone(proc.pid, STOP_FAST - (time.time() - sent)) == [], said
        assert time.time() - sent < STOP_FAST + 0.5
        assert proc.returncode == code, (said, err[-2000:])
        lines = err.strip().splitlines()
        assert lines[-1] == f"{said}: every finished chunk is kept; rerun the same command to " \
                            "resume", err[-2000:]
        assert len(lines) == 1 or not quiet, err[-2000:]  # a quiet command says that alone
        assert not [path for path in unfinished if path.exists()], said
        assert "Traceback" not in err
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def same_rows(path, reference, columns=("seed", "deal", "outcome", "score", "moves", "nodes")):
    got = pd.read_parquet(path).reset_index(drop=True)
    pd.testing.assert_frame_equal(got[list(columns)], reference[list(columns)])


def test_every_signal_stops_solve_batch_and_it_resumes_exactly(tmp_path):
    from winnable import solve_batch
    out = tmp_path / "nb.parquet"
    n = 20_000
    printed = stop_three_times_and_finish(batch(out, n, chunk=250), lambda: [out], tmp_path,
                                          unfinished=[out])
    assert "deals 20,000" in printed
    fresh = solve_batch("nineball", n=n, workers=1, out=tmp_path / "fresh.parquet",
                        progress=False)
    same_rows(out, fresh)


def test_every_signal_stops_resolve_and_it_resumes_exactly(tmp_path, unknowns_run):
    """`winnable resolve RUN --sample K` (a sampled escalation) stops on each signal as a batch
    does: finished chunks kept, the one line said, every process gone; the same command then
    finishes the same sample, row for row what an uninterrupted resolve stores."""
    import shutil

    from winnable.runs.resolve import resolve_file
    out, fresh = unknowns_run(24, tmp_path / "strict.parquet"), tmp_path / "fresh.parquet"
    shutil.copy(out, fresh)
    cmd = [sys.executable, "-m", "winnable", "resolve", str(out), "--sample", "10", "--seed",
           "2", "--option", "budget=400000", "--workers", "2", "--chunk", "1", "--quiet"]
    printed = stop_three_times_and_finish(cmd, lambda: [Path(f"{out}.resolve")], tmp_path)
    assert "10 sampled deals (a sample of 10 of the" in printed, printed
    resolve_file(fresh, {"budget": 400_000}, workers=1, chunk=1, progress=False, sample=10,
                 seed=2)
    same_rows(out, pd.read_parquet(fresh), ("seed", "outcome", "score", "moves", "nodes",
                                            "step", "step_options", "stratum"))


def test_every_signal_stops_a_sweep_and_it_resumes_exactly(tmp_path):
    from winnable.runs.sweep import sweep
    n, grid = 30_000, ["kitchen_per_group=1,3"]  # 3 chunks a rule set
    cmd = [sys.executable, "-m", "winnable", "sweep", "--game", "nineball", "--n", str(n),
           "--grid", grid[0], "--workers", "2", "--out-dir", str(tmp_path / "sweep"), "--quiet"]
    stop_three_times_and_finish(cmd, lambda: run_files(tmp_path / "sweep" / "runs"), tmp_path)
    fresh = sweep("nineball", n, grid, workers=1, out_dir=tmp_path / "fresh", progress=False)
    for path in fresh.runs:
        same_rows(tmp_path / "sweep" / "runs" / path.name, pd.read_parquet(path))
    assert (tmp_path / "sweep" / "summary.md").read_text().split("\n\n", 2)[2] == \
        (tmp_path / "fresh" / "summary.md").read_text().split("\n\n", 2)[2]


def test_every_signal_stops_an_experiment_script_and_it_resumes_exactly(tmp_path):
    """experiments/nineball.py: its runs through ``common.run_all``, the project's pool."""
    runs = tmp_path / "runs"
    cmd = [sys.executable, str(EXPERIMENTS / "nineball.py"), "--n", "30000", "--n-nopeek", "50",
           "--workers", "2", "--runs-dir", str(runs), "--results-dir", str(tmp_path / "results")]
    printed = stop_three_times_and_finish(cmd, lambda: run_files(runs), tmp_path, quiet=False)
    assert "deals 30,000" in printed
    files = sorted(runs.glob("nineball_thoughtful*_n30000.parquet"))
    assert len(files) == 2
    game = get_game("nineball")
    for path in files:
        rows = pd.read_parquet(path)
        assert list(rows.seed) == list(range(1, 30_001))
        variant = rows.variant.iloc[0]
        sample = [1, 9_999, 10_000, 10_001, 25_000, 30_000]
        cols = game.solve_seeds(np.array(sample), variant)
        picked = rows.set_index("seed").loc[sample]
        assert list(picked.score) == list(cols["score"])
        assert list(picked.deal) == list(cols["deal"])

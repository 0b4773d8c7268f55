"""Batches on a Dask distributed cluster (--scheduler): the same rows as a local run, nothing
lost when a worker or the client dies, rerun resumes, and one-line errors for bad addresses."""

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pytest

distributed = pytest.importorskip("distributed")

from winnable.runs import batch  # noqa: E402
from winnable.runs import cluster as dask_runs  # noqa: E402
from winnable.runs.batch import solve_batch  # noqa: E402
from winnable.cli import solve_batch_main  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT),
                                                               os.environ.get("PYTHONPATH")]))}
DASK = [sys.executable, "-m", "dask"]  # the `dask` command of this interpreter
SOLVE_BATCH = [sys.executable, "-c", "from winnable.cli import solve_batch_main; solve_batch_main()"]
COLUMNS = ["seed", "deal", "outcome", "score", "moves", "nodes"]
N = 40_000  # deals for the runs that are interrupted: long enough to interrupt mid-run
CHUNK = 250


def _start(args, log: Path) -> subprocess.Popen:
    with log.open("w") as err:
        return subprocess.Popen(args, env=ENV, stdout=subprocess.DEVNULL, stderr=err,
                                start_new_session=True)


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.kill()
    proc.wait()


def _wait_for_workers(address: str, count: int) -> None:
    with distributed.Client(address, timeout=30, set_as_default=False) as client:
        client.wait_for_workers(count, timeout=60)


class Cluster:
    """A `dask scheduler` and `dask worker` processes on 127.0.0.1, as a user would start them
    (workers without a nanny, so a killed worker stays dead)."""

    def __init__(self, tmp: Path):
        self.tmp = tmp
        self.procs: list[subprocess.Popen] = []
        file = tmp / "scheduler.json"
        self.procs.append(_start(DASK + ["scheduler", "--host", "127.0.0.1", "--port", "0",
                                         "--no-dashboard", "--scheduler-file", str(file)],
                                 tmp / "scheduler.log"))
        deadline = time.time() + 60
        while True:  # the scheduler may still be writing the file
            try:
                self.address = json.loads(file.read_text())["address"]
                break
            except (OSError, ValueError, KeyError):
                if time.time() > deadline:
                    self.close()  # leave no scheduler behind
                    raise
                time.sleep(0.05)

    def add_worker(self) -> subprocess.Popen:
        i = len(self.procs)
        proc = _start(DASK + ["worker", self.address, "--nthreads", "1", "--no-nanny",
                              "--no-dashboard", "--host", "127.0.0.1",
                              "--local-directory", str(self.tmp / f"worker{i}")],
                      self.tmp / f"worker{i}.log")
        self.procs.append(proc)
        return proc

    def close(self) -> None:
        for proc in reversed(self.procs):
            _stop(proc)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """Deals 1..N solved locally (this also fills Numba's cache before the workers start)."""
    out = tmp_path_factory.mktemp("local") / "local.parquet"
    return solve_batch("nineball", n=N, out=out, workers=1, chunk_size=5000,
                       progress=False)[COLUMNS]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    c = Cluster(tmp_path_factory.mktemp("cluster"))
    try:
        c.add_worker()
        c.add_worker()
        _wait_for_workers(c.address, 2)
        yield c
    finally:
        c.close()


def _check_rows(out: Path, n: int, reference: pd.DataFrame) -> None:
    stored = pd.read_parquet(out)
    assert len(stored) == n and stored.seed.is_unique
    pd.testing.assert_frame_equal(stored[COLUMNS], reference[COLUMNS].iloc[:n])
    assert not Path(str(out) + ".parts").exists()


def _wait_for_parts(out: Path, count: int, alive, timeout=60) -> int:
    parts = Path(str(out) + ".parts")
    deadline = time.time() + timeout
    while time.time() < deadline:
        found = len(list(parts.glob("part-*.parquet"))) if parts.exists() else 0
        if found >= count:
            return found
        assert alive(), "the batch ended before it could be interrupted"
        time.sleep(0.02)
    raise AssertionError("no parts appeared")


def test_cluster_run_equals_local_run(cluster, reference, tmp_path):
    out = tmp_path / "nb.parquet"
    df = solve_batch("nineball", n=3000, out=out, chunk_size=CHUNK, progress=False,
                     scheduler=cluster.address)
    pd.testing.assert_frame_equal(df[COLUMNS], reference.iloc[:3000])
    _check_rows(out, 3000, reference)


def test_killed_client_resumes(cluster, reference, tmp_path, monkeypatch):
    out = tmp_path / "nb.parquet"
    proc = subprocess.Popen(SOLVE_BATCH + ["--game", "nineball", "--n", str(N), "--out", str(out),
                                           "--chunk", str(CHUNK), "--quiet",
                                           "--scheduler", cluster.address],
                            env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _wait_for_parts(out, 3, lambda: proc.poll() is None)
    proc.kill()
    proc.wait()
    kept = sorted(Path(str(out) + ".parts").glob("part-*.parquet"))
    assert len(kept) >= 3 and not out.exists()
    seen = []

    def write_part(parts, table):
        seen.append(table["seed"][0].as_py())
        return real_write_part(parts, table)

    real_write_part = batch.write_part
    monkeypatch.setattr(batch, "write_part", write_part)
    solve_batch("nineball", n=N, out=out, chunk_size=CHUNK, progress=False,
                scheduler=cluster.address)
    # The rerun solved only the seeds not kept: no kept part was solved again.
    kept_firsts = {int(p.name.split("-")[1]) for p in kept}
    assert seen and not kept_firsts & set(seen)
    _check_rows(out, N, reference)


def test_killed_worker_loses_no_deal(cluster, reference, tmp_path):
    out = tmp_path / "nb.parquet"
    errors = []

    def run():
        try:
            solve_batch("nineball", n=N, out=out, chunk_size=CHUNK, progress=False,
                        scheduler=cluster.address)
        except BaseException as exc:  # reported below
            errors.append(exc)

    with distributed.Client(cluster.address, timeout=30, set_as_default=False) as watch:
        before = set(watch.nthreads())
        victim = cluster.add_worker()
        watch.wait_for_workers(3, timeout=60)
        (address,) = set(watch.nthreads()) - before
        thread = threading.Thread(target=run)
        thread.start()
        _wait_for_parts(out, 3, thread.is_alive)
        # Kill the extra worker while it is solving a chunk: Dask must solve that chunk again.
        deadline = time.time() + 30
        while not watch.processing(workers=[address])[address]:
            assert time.time() < deadline and thread.is_alive()
            time.sleep(0.01)
        os.kill(victim.pid, signal.SIGKILL)
        victim.wait()
    assert not out.exists()  # killed mid-run
    thread.join(timeout=120)
    assert not thread.is_alive() and not errors, errors
    _check_rows(out, N, reference)


def _cli(monkeypatch, capsys, *args):
    monkeypatch.setattr(sys, "argv", ["solve-batch", "--game", "nineball", "--n", "5", *args])
    with pytest.raises(SystemExit) as exit_:
        solve_batch_main()
    err = capsys.readouterr().err
    assert exit_.value.code != 0 and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
    return err


def test_cli_errors_are_one_line(monkeypatch, capsys, tmp_path):
    out = str(tmp_path / "nb.parquet")
    monkeypatch.setattr(dask_runs, "CONNECT_TIMEOUT", 1)
    err = _cli(monkeypatch, capsys, "--out", out, "--scheduler", "tcp://127.0.0.1:1")
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:1" in err
    for bad in ("127.0.0.1", "tcp://127.0.0.1", "http://h:8786", "tcp://h:99999", "tcp://h:x"):
        err = _cli(monkeypatch, capsys, "--out", out, "--scheduler", bad)
        assert "--scheduler must look like tcp://HOST:PORT" in err
    err = _cli(monkeypatch, capsys, "--out", out, "--scheduler", "tcp://h:8786", "--workers", "2")
    assert "drop --workers" in err
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if it were not installed
    err = _cli(monkeypatch, capsys, "--out", out, "--scheduler", "tcp://h:8786")
    assert "pip install 'winnable[cluster]'" in err
    assert not Path(out).exists()


class _Versions:
    def __init__(self, scheduler, *workers):
        self.versions = {"client": {"packages": {"winnable": "0.1.0"}},
                         "scheduler": {"packages": {"winnable": scheduler}},
                         "workers": {f"tcp://w{i}:1": {"packages": {"winnable": v}}
                                     for i, v in enumerate(workers)}}

    def get_versions(self, packages):
        return self.versions


def test_cluster_without_winnable_is_refused():
    dask_runs.check_cluster(_Versions("0.1.0", "0.1.0", "0.1.0"))
    with pytest.raises(dask_runs.BatchError, match="the scheduler has no winnable; worker tcp://w1:1 "
                                               "has winnable 0.0.9; there run pip install"):
        dask_runs.check_cluster(_Versions(None, "0.1.0", "0.0.9"))


def test_cluster_resolve_equals_local_resolve(cluster, tmp_path, unknowns_run):
    """`winnable resolve --scheduler`: the unknown rows of a run solved again on the cluster
    give the same file as a local escalation."""
    from winnable.runs.resolve import resolve_file
    frames = []
    for name in ("local", "cluster"):
        out = unknowns_run(12, tmp_path / f"{name}.parquet")
        report = resolve_file(out, {"budget": 50_000}, progress=False,
                              **({"scheduler": cluster.address} if name == "cluster"
                                 else {"workers": 1}))
        assert report.tried >= 3
        frames.append(pd.read_parquet(out)[COLUMNS + ["step", "step_options"]])
    pd.testing.assert_frame_equal(frames[0], frames[1])

"""Batches of seeded deals, solved in parallel, stored in Parquet, resumable.

Storage: ``OUT.parquet`` holds every finished deal of a run, one row per seed.  While a batch
runs, each finished chunk of seeds is written atomically (temporary file, then rename) as its
own file under ``OUT.parquet.parts/``.  When every chunk is in, the parts and any earlier
``OUT.parquet`` are merged into a new ``OUT.parquet`` (again written aside and renamed), and the
parts are deleted.  An interrupted batch (Ctrl-C, kill -9, power cut) therefore loses at most
the chunks being solved at that moment; rerunning the same command skips every seed already
stored.  Each file carries the run's identity (game, solver, rules, solver options, rules
version) in its metadata, and a run with another identity is refused rather than mixed in.

The chunks are solved by local worker processes, or with ``scheduler`` by the workers of a Dask
distributed cluster; either way each chunk is solved by :func:`solve_table` and stored by
:func:`write_part` (on a cluster the rows travel back and this machine writes them).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import sys
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, CancelledError, ProcessPoolExecutor, wait
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from .games import get_game

META_KEY = b"winnable"


class BatchError(ValueError):
    """A batch cannot run as asked (the message is one line for the user)."""


@dataclass(frozen=True)
class RunSpec:
    """What makes two rows comparable: the same game, solver, rules and solver options."""

    game: str
    solver: str
    variant: str
    options: tuple[tuple[str, Any], ...]
    engine_version: int  # stored under its first name, "rules_version"

    @classmethod
    def make(cls, game: str, variant=None, solver: str | None = None,
             options: Mapping[str, Any] | None = None) -> "RunSpec":
        g = get_game(game)
        solver = g.check_solver(solver)
        rules = g.rules(variant)
        opts = g.solver_options(solver, options)
        return cls(g.name, solver, rules.label, tuple(sorted(opts.items())),
                   g.engine_version(solver))

    def to_json(self) -> str:
        return json.dumps({"game": self.game, "solver": self.solver, "variant": self.variant,
                           "options": dict(self.options), "rules_version": self.engine_version},
                          sort_keys=True)

    @classmethod
    def from_json(cls, text: str | bytes) -> "RunSpec":
        d = json.loads(text)
        return cls(d["game"], d["solver"], d["variant"], tuple(sorted(d["options"].items())),
                   d["rules_version"])

    def describe(self) -> str:
        opts = " ".join(f"{k}={v}" for k, v in self.options)
        return (f"game {self.game}, solver {self.solver}, rules '{self.variant}'"
                + (f", options {opts}" if opts else "") + f", engine version {self.engine_version}")

    def slug(self) -> str:
        parts = [self.game, self.solver]
        if self.variant != "default":
            parts.append(self.variant.replace(" ", "_").replace("=", "-").replace(",", "+"))
        parts += [f"{k}-{v}" for k, v in self.options]
        return "_".join(parts)


def default_out(spec: RunSpec) -> Path:
    return Path("runs") / f"{spec.slug()}.parquet"


def run_file(spec: RunSpec, n: int, runs_dir: str | os.PathLike = "runs") -> Path:
    """Where the experiment scripts (``experiments/``) and the notebooks keep deals 1..n of a
    run: ``<runs_dir>/<slug>_n<n>.parquet``, so a notebook run with an experiment's N reuses
    its per-deal rows."""
    return Path(runs_dir) / f"{spec.slug()}_n{n}.parquet"


def parts_dir(out: Path) -> Path:
    return out.with_name(out.name + ".parts")


# --- one chunk: what a worker (local process or Dask task) does ---------------------------------

def solve_table(spec_json: str, first: int, last: int) -> pa.Table:
    """Solve seeds first..last and return their rows.  This is all a worker does, locally or on
    a Dask cluster; the part file is written by :func:`write_part`."""
    spec = RunSpec.from_json(spec_json)
    game = get_game(spec.game)
    seeds = np.arange(first, last + 1, dtype=np.int64)
    columns = game.solve_seeds(seeds, spec.variant, spec.solver, dict(spec.options))
    return to_table(spec, columns, game.extra_columns)


def write_part(parts: Path, table: pa.Table) -> int:
    """Store one solved chunk atomically as ``parts/part-FIRST-LAST.parquet``; returns its deals."""
    seeds = table["seed"]
    first, last = seeds[0].as_py(), seeds[-1].as_py()
    write_atomic(table, Path(parts) / f"part-{first:012d}-{last:012d}.parquet")
    return table.num_rows


def solve_chunk(spec_json: str, first: int, last: int, parts: str) -> int:
    """A local worker process solves a chunk and writes its part on the shared disk itself."""
    return write_part(Path(parts), solve_table(spec_json, first, last))


def to_table(spec: RunSpec, columns: Mapping[str, Any], extra: Sequence[str]) -> pa.Table:
    n = len(columns["seed"])
    data = {
        "seed": pa.array(columns["seed"], pa.int64()),
        "game": pa.array([spec.game] * n, pa.string()),
        "solver": pa.array([spec.solver] * n, pa.string()),
        "variant": pa.array([spec.variant] * n, pa.string()),
        "deal": pa.array(columns["deal"], pa.string()),
        "outcome": pa.array(list(columns["outcome"]), pa.string()),
        "score": pa.array(np.asarray(columns["score"], dtype=np.int32), pa.int32()),
        "moves": pa.array([" ".join(m) for m in columns["moves"]], pa.string()),
        "nodes": pa.array(np.asarray(columns["nodes"], dtype=np.int64), pa.int64()),
        "seconds": pa.array(np.asarray(columns["seconds"], dtype=np.float64), pa.float64()),
    }
    for name in extra:
        data[name] = pa.array(columns[name])
    table = pa.table(data)
    return table.replace_schema_metadata({META_KEY: spec.to_json().encode()})


def write_atomic(table: pa.Table, path: Path) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    pq.write_table(table, tmp)
    os.replace(tmp, path)


# --- the stored state of a run -----------------------------------------------------------------

def read_spec(path: Path) -> RunSpec | None:
    meta = pq.read_schema(path).metadata or {}
    raw = meta.get(META_KEY)
    return RunSpec.from_json(raw) if raw else None


def check_compatible(spec: RunSpec, out: Path) -> None:
    """Refuse to mix rows of another game, solver, rules or options into ``out``."""
    found: list[tuple[Path, RunSpec | None]] = []
    if out.exists():
        found.append((out, _readable_spec(out)))
    parts = parts_dir(out)
    if (parts / "run.json").exists():
        found.append((parts, RunSpec.from_json((parts / "run.json").read_text())))
    for path, other in found:
        if other is None:
            raise BatchError(f"{path} is not a winnable run file; choose another --out")
        if other != spec:
            raise BatchError(
                f"{path} holds a run with {other.describe()}; this run asks for "
                f"{spec.describe()}: choose another --out (rows of different rules or solvers "
                "are never mixed)")


def _readable_spec(path: Path) -> RunSpec | None:
    try:
        return read_spec(path)
    except (OSError, pa.ArrowException, KeyError, ValueError) as exc:
        raise BatchError(f"cannot read {path} as Parquet ({exc.__class__.__name__}); choose "
                         "another --out") from None


def stored_seeds(out: Path) -> np.ndarray:
    seeds = []
    if out.exists():
        seeds.append(pq.read_table(out, columns=["seed"])["seed"].to_numpy())
    parts = parts_dir(out)
    if parts.exists():
        for part in sorted(parts.glob("part-*.parquet")):
            first, last = (int(x) for x in part.stem.split("-")[1:3])
            seeds.append(np.arange(first, last + 1, dtype=np.int64))
    return np.unique(np.concatenate(seeds)) if seeds else np.empty(0, dtype=np.int64)


def merge_parts(out: Path) -> None:
    """Fold the finished parts into ``out`` (each seed once, sorted) and delete the parts."""
    parts = parts_dir(out)
    files = sorted(parts.glob("part-*.parquet")) if parts.exists() else []
    if not files:
        if parts.exists():
            shutil.rmtree(parts)
        return
    tables = ([pq.read_table(out)] if out.exists() else []) + [pq.read_table(f) for f in files]
    table = pa.concat_tables(tables, promote_options="default")
    seeds = table["seed"].to_numpy()
    _, first_index = np.unique(seeds, return_index=True)
    table = table.take(pa.array(np.sort(first_index)))
    table = table.sort_by("seed")
    write_atomic(table, out)
    shutil.rmtree(parts)


def missing_chunks(wanted_first: int, wanted_last: int, done: np.ndarray,
                   chunk: int) -> list[tuple[int, int]]:
    """Runs of consecutive wanted seeds not yet done, cut into pieces of at most ``chunk``."""
    wanted = np.arange(wanted_first, wanted_last + 1, dtype=np.int64)
    todo = wanted[~np.isin(wanted, done)]
    chunks = []
    if len(todo) == 0:
        return chunks
    breaks = np.nonzero(np.diff(todo) != 1)[0] + 1
    for run in np.split(todo, breaks):
        for i in range(0, len(run), chunk):
            piece = run[i:i + chunk]
            chunks.append((int(piece[0]), int(piece[-1])))
    return chunks


# --- running a batch ---------------------------------------------------------------------------

def solve_batch(game: str, n: int, start: int = 1, variant=None, solver: str | None = None,
                workers: int | None = None, out: str | os.PathLike | None = None,
                options: Mapping[str, Any] | None = None, chunk_size: int | None = None,
                progress: bool = True, scheduler: str | None = None) -> pd.DataFrame:
    """Solve deals start..start+n-1 and return their rows (a DataFrame).  Rows are stored in
    ``out`` (default ``runs/<game>_<solver>[_<rules>].parquet``); seeds already stored there
    are not solved again.  ``workers`` local processes solve the chunks (default: all cores),
    or with ``scheduler="tcp://HOST:PORT"`` the workers of that Dask cluster (then ``workers``
    must stay None: the cluster's workers are started with `dask worker`)."""
    if n <= 0:
        raise BatchError(f"--n must be at least 1, got {n}")
    if start <= 0:
        raise BatchError(f"--start must be at least 1 (deal numbers start at 1), got {start}")
    if scheduler is not None:
        check_scheduler_address(scheduler)
        if workers is not None:
            raise BatchError("--workers sets this machine's processes; with --scheduler the "
                             "cluster's workers do the work (start them with `dask worker "
                             "--nworkers N`): drop --workers")
        _import_distributed()
    if workers is not None and workers < 1:
        raise BatchError(f"--workers must be at least 1, got {workers}")
    spec = RunSpec.make(game, variant, solver, options)
    g = get_game(spec.game)
    out_path = Path(out) if out is not None else default_out(spec)
    if out_path.suffix != ".parquet":
        raise BatchError(f"--out must name a .parquet file, got {out_path}")
    out_path.parent.mkdir(parents=True, exist_ok=True)
    check_compatible(spec, out_path)
    last = start + n - 1
    done = stored_seeds(out_path)
    chunk = chunk_size or g.chunk_size(spec.solver)
    if chunk < 1:
        raise BatchError(f"--chunk must be at least 1, got {chunk}")
    chunks = missing_chunks(start, last, done, chunk)
    if chunks:
        client = connect(scheduler) if scheduler is not None else None
        parts = parts_dir(out_path)
        parts.mkdir(exist_ok=True)
        (parts / "run.json").write_text(spec.to_json())
        todo = sum(b - a + 1 for a, b in chunks)
        already = n - todo
        bar = _progress(n, already, f"{spec.game} {spec.solver}", progress)
        try:
            if client is not None:
                run_chunks_dask(client, spec, chunks, parts, bar)
            else:
                run_chunks_local(spec, chunks, parts, workers, bar)
        finally:
            bar.close()
            if client is not None:
                client.close()  # the scheduler forgets whatever this run still had in flight
    merge_parts(out_path)
    return load_rows(out_path, start, last)


def solve_run(game: str, n: int, variant=None, solver: str | None = None,
              options: Mapping[str, Any] | None = None, runs_dir: str | os.PathLike = "runs",
              workers: int | None = None, progress: bool = True) -> pd.DataFrame:
    """``solve_batch`` of deals 1..n stored in ``run_file(spec, n, runs_dir)``: solved once,
    then read back (an experiment's run of the same N, rules, solver and options included)."""
    spec = RunSpec.make(game, variant, solver, options)
    return solve_batch(game, n=n, variant=variant, solver=solver, options=options,
                       workers=workers, out=run_file(spec, n, runs_dir), progress=progress)


def run_chunks_local(spec: RunSpec, chunks: list[tuple[int, int]], parts: Path,
                     workers: int | None, bar) -> None:
    workers = workers or os.cpu_count() or 1
    spec_json = spec.to_json()
    if workers == 1 or len(chunks) == 1:
        for first, last in chunks:
            bar.update(solve_chunk(spec_json, first, last, str(parts)))
        return
    # Spawned (not forked) workers: a clean interpreter each, whatever threads the caller has.
    # Workers ignore Ctrl-C: the parent alone stops the batch, so a chunk being solved finishes
    # and is kept instead of dying half-way.
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn"),
                             initializer=_ignore_interrupts) as pool:
        pending = set()
        queue = list(chunks)
        queue.reverse()
        try:
            while queue or pending:
                while queue and len(pending) < 2 * workers:
                    first, last = queue.pop()
                    pending.add(pool.submit(solve_chunk, spec_json, first, last, str(parts)))
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    bar.update(future.result())
        except BaseException:
            for future in pending:
                future.cancel()
            raise


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


# --- running on a Dask distributed cluster -----------------------------------------------------
# Workers solve chunks and send the rows back; the client alone writes the parts, so workers on
# other machines need no shared disk, only `winnable` installed.  Resuming, merging and the
# progress bar are the local run's own.

CONNECT_TIMEOUT = 15  # seconds to reach the scheduler before giving up

_ADDRESS = re.compile(r"tcp://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(\d{1,5})")


def check_scheduler_address(address: str) -> None:
    match = _ADDRESS.fullmatch(address)
    if not match or not 1 <= int(match.group(2)) <= 65535:
        raise BatchError(f"--scheduler must look like tcp://HOST:PORT (e.g. tcp://10.0.0.5:8786), "
                         f"got {address!r}")


def _import_distributed():
    try:
        import distributed
    except ImportError:
        raise BatchError("--scheduler needs Dask distributed, which is not installed: "
                         "pip install 'winnable[cluster]' (on this machine and every worker)"
                         ) from None
    return distributed


def connect(scheduler: str):
    """A Dask client of the scheduler at ``scheduler``, after checking that the scheduler and
    the workers have winnable installed (a BatchError otherwise)."""
    distributed = _import_distributed()
    try:
        client = distributed.Client(scheduler, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, ValueError) as exc:
        raise BatchError(f"cannot reach the Dask scheduler at {scheduler} (--scheduler) within "
                         f"{CONNECT_TIMEOUT} s: is `dask scheduler` running there and the port "
                         f"open? ({exc.__class__.__name__})") from None
    try:
        check_cluster(client)
    except BaseException:
        client.close()
        raise
    return client


def check_cluster(client) -> None:
    """The scheduler reads the tasks and the workers run them: both need winnable (the same
    version as here).  Workers that join later are not checked."""
    versions = client.get_versions(packages=["winnable"])
    mine = versions["client"]["packages"]["winnable"]
    others = {"the scheduler": versions["scheduler"],
              **{f"worker {address}": info for address, info in versions["workers"].items()}}
    wrong = []
    for name, info in others.items():
        theirs = (info or {}).get("packages", {}).get("winnable")
        if theirs is None or (mine is not None and theirs != mine):
            wrong.append(f"{name} has {'winnable ' + theirs if theirs else 'no winnable'}")
    if wrong:
        more = f" (and {len(wrong) - 2} more)" if len(wrong) > 2 else ""
        raise BatchError(f"the Dask cluster needs winnable {mine or ''} on the scheduler and "
                         f"every worker: {'; '.join(wrong[:2])}{more}; there run "
                         "pip install 'winnable[cluster]'")


def run_chunks_dask(client, spec: RunSpec, chunks: list[tuple[int, int]], parts: Path,
                    bar) -> None:
    from distributed import as_completed
    spec_json = spec.to_json()
    queue = list(reversed(chunks))
    running = as_completed(loop=client.loop)

    def submit_more() -> None:
        # About two chunks per worker thread in flight: every thread stays busy, and a run of
        # a million deals does not flood the scheduler with tasks.
        limit = 2 * max(1, sum(client.nthreads().values()))
        while queue and running.count() < limit:
            first, last = queue.pop()
            running.add(client.submit(solve_table, spec_json, first, last, pure=False))

    submit_more()
    for future in running:
        # The next turn drops this future, and with it the worker's copy of the rows.
        bar.update(write_part(parts, _cluster_result(future)))
        submit_more()


def _cluster_result(future) -> pa.Table:
    from distributed import KilledWorker
    try:
        return future.result()
    except KilledWorker:
        raise BatchError("workers died again and again on one chunk, so Dask gave up on it (do "
                         "the workers run this same winnable?); every finished chunk is kept: "
                         "rerun the same command to resume") from None
    except (ImportError, RuntimeError) as exc:
        if "winnable" not in str(exc) and "deserialization" not in str(exc):
            raise
        raise BatchError("the Dask scheduler or a worker cannot load this run's task: install "
                         "this same winnable on the scheduler and every worker (pip install "
                         "'winnable[cluster]')") from None
    except CancelledError as exc:
        raise BatchError(f"lost the Dask cluster ({exc.__class__.__name__}); every finished "
                         "chunk is kept: rerun the same command to resume") from None


def load_rows(out: Path, first: int | None = None, last: int | None = None) -> pd.DataFrame:
    filters = None
    if first is not None and last is not None:
        filters = [("seed", ">=", first), ("seed", "<=", last)]
    return pq.read_table(out, filters=filters).to_pandas()


def read_runs(paths: Iterable[str | os.PathLike]) -> pd.DataFrame:
    frames = []
    for path in paths:
        path = Path(path)
        if not path.exists():
            raise BatchError(f"no such file: {path}")
        try:
            frames.append(pq.read_table(path).to_pandas())
        except (OSError, pa.ArrowException) as exc:
            raise BatchError(f"cannot read {path} as Parquet ({exc.__class__.__name__})") from None
    if not frames:
        raise BatchError("give at least one Parquet file")
    return pd.concat(frames, ignore_index=True)


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def _progress(total: int, initial: int, label: str, enabled: bool):
    if not enabled:
        return _NoBar()
    from tqdm import tqdm
    return tqdm(total=total, initial=initial, desc=label, unit="deal", unit_scale=True,
                file=sys.stderr, smoothing=0.1, dynamic_ncols=True)

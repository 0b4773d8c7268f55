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

A part that cannot be read, or does not hold exactly the deals its name says, is set aside into
``OUT.parquet.bad/`` (with a one-line warning) and its deals are solved again.  Local workers
stop as soon as the batch stops (Ctrl-C, an error): they are terminated, and each also exits by
itself within a second if the batch's process dies (``kill -9``).
"""

from __future__ import annotations

import ctypes
import json
import os
import re
import shutil
import signal
import sys
import threading
import time
import traceback
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import CancelledError
from dataclasses import dataclass
from multiprocessing import connection, get_context, resource_tracker
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from .errors import UserError
from .games import LAST_DEAL, get_game
from .numbering import WINNABLE, check_numbering

META_KEY = b"winnable"
# Run-level start-up (README, *Batch output*): {"seconds": s, "processes": p}, the time the p
# processes that solved the file's deals spent getting ready (compiling or loading the
# kernels, their first calls, the solver's buffers), kept out of every deal's ``seconds``.
STARTUP_KEY = b"winnable.startup"
# The columns every run file has (games add their own after them).
RUN_COLUMNS = ("seed", "game", "solver", "variant", "deal", "outcome", "score", "moves", "nodes",
               "seconds")


class BatchError(UserError):
    """A batch cannot run as asked (the message is one line for the user)."""


@dataclass(frozen=True)
class RunSpec:
    """What makes two rows comparable: the same game, solver, rules and solver options, and
    the numbering that says which deal each seed is (``winnable.numbering``)."""

    game: str
    solver: str
    variant: str
    options: tuple[tuple[str, Any], ...]
    engine_version: int  # stored under its first name, "rules_version"
    numbering: str = WINNABLE  # stored only when it is another (runs of earlier versions)

    @classmethod
    def make(cls, game: str, variant=None, solver: str | None = None,
             options: Mapping[str, Any] | None = None,
             numbering: str | None = None) -> "RunSpec":
        g = get_game(game)
        solver = g.check_solver(solver)
        rules = g.rules(variant)
        opts = g.solver_options(solver, options)
        return cls(g.name, solver, rules.label, tuple(sorted(opts.items())),
                   g.engine_version(solver), check_numbering(numbering, g.name))

    def to_json(self) -> str:
        d = {"game": self.game, "solver": self.solver, "variant": self.variant,
             "options": dict(self.options), "rules_version": self.engine_version}
        if self.numbering != WINNABLE:
            d["numbering"] = self.numbering
        return json.dumps(d, sort_keys=True)

    @classmethod
    def from_json(cls, text: str | bytes) -> "RunSpec":
        """The stored identity; an option the solver gained after the run was stored counts
        with its default, which is the behaviour the run had (a solver option that changes
        what a run gives at its default comes with a new solver version)."""
        d = json.loads(text)
        options = dict(d["options"])
        try:
            for key, value in get_game(d["game"]).solvers[d["solver"]].defaults.items():
                options.setdefault(key, value)
        except (KeyError, ValueError):
            pass  # a game or solver this version does not know: compared as stored
        return cls(d["game"], d["solver"], d["variant"], tuple(sorted(options.items())),
                   d["rules_version"], d.get("numbering", WINNABLE))

    def describe(self, version: bool = True) -> str:
        opts = " ".join(f"{k}={v}" for k, v in self.options)
        return (f"game {self.game}, solver {self.solver}, rules '{self.variant}'"
                + (f", options {opts}" if opts else "")
                + f", numbering {self.numbering}"
                + (f", engine version {self.engine_version}" if version else ""))

    def changed_options(self) -> tuple[tuple[str, Any], ...]:
        """The solver options that differ from the solver's defaults."""
        defaults = get_game(self.game).solvers[self.solver].defaults
        return tuple((k, v) for k, v in self.options if defaults.get(k) != v)

    def slug(self, every_option: bool = False) -> str:
        """``<game>_<solver>[_<rules>][_<options changed>][_<numbering>]``, e.g.
        ``nineball_thoughtful_kitchen_per_group-1``, ``chinese_thoughtful_pysol``
        (``every_option``: the names of earlier versions, which listed every option)."""
        parts = [self.game, self.solver]
        if self.variant != "default":
            parts.append(self.variant.replace(" ", "_").replace("=", "-").replace(",", "+"))
        options = self.options if every_option else self.changed_options()
        parts += [f"{k}-{v}" for k, v in options]
        if self.numbering != WINNABLE:
            parts.append(self.numbering)
        return "_".join(parts)


def run_path(directory: str | os.PathLike, spec: RunSpec, suffix: str = "") -> Path:
    """``<directory>/<slug><suffix>.parquet``; a run stored under the name earlier versions gave
    it (every option in the name) keeps its name, so it resumes."""
    path = Path(directory) / f"{spec.slug()}{suffix}.parquet"
    legacy = Path(directory) / f"{spec.slug(every_option=True)}{suffix}.parquet"
    if legacy != path and not _has_rows(path) and _has_rows(legacy):
        return legacy
    return path


def _has_rows(out: Path) -> bool:
    return out.exists() or parts_dir(out).exists()


def default_out(spec: RunSpec) -> Path:
    return run_path("runs", spec)


def run_file(spec: RunSpec, n: int, runs_dir: str | os.PathLike = "runs") -> Path:
    """Where the experiment scripts (``experiments/``) and the notebooks keep deals 1..n of a
    run: ``<runs_dir>/<slug>_n<n>.parquet``, so a notebook run with an experiment's N reuses
    its per-deal rows."""
    return run_path(runs_dir, spec, f"_n{n}")


def parts_dir(out: Path) -> Path:
    return out.with_name(out.name + ".parts")


def set_aside_dir(out: Path) -> Path:
    """Where parts that cannot be used are moved (kept for a look, never read again)."""
    return out.with_name(out.name + ".bad")


# --- one chunk: what a worker (local process or Dask task) does ---------------------------------

def solve_table(spec_json: str, first: int, last: int) -> pa.Table:
    """Solve seeds first..last and return their rows.  This is all a worker does, locally or on
    a Dask cluster; the part file is written by :func:`write_part`."""
    return solve_seeds_table(spec_json, np.arange(first, last + 1, dtype=np.int64))


def solve_seeds_table(spec_json: str, seeds: Sequence[int]) -> pa.Table:
    """Solve the given seeds (any set) and return their rows, the process's start-up (if this
    is its first task of the run) recorded apart in the table's metadata (``STARTUP_KEY``)."""
    spec = RunSpec.from_json(spec_json)
    game = get_game(spec.game)
    startup = start_up(spec)
    columns = game.solve_seeds(np.asarray(seeds, dtype=np.int64), spec.variant, spec.solver,
                               dict(spec.options), spec.numbering)
    table = to_table(spec, columns, game.extra_columns)
    return with_startup(table, startup, 1 if startup else 0)


# Seconds this process spent getting ready for a run (by RunSpec JSON), and the runs whose
# start-up it has already recorded in a part: each process records its start-up once.
_STARTUP: dict[str, float] = {}
_STARTUP_RECORDED: set[str] = set()


def get_ready(spec: RunSpec) -> None:
    """Get this process ready to solve the run's deals (``Game.warm_up``: compile or load the
    kernels and run each once, so that no deal pays for it), counting the seconds it takes."""
    game = get_game(spec.game)
    if not game.is_warm(spec.variant, spec.solver, dict(spec.options)):
        started = time.perf_counter()
        game.warm_up(spec.variant, spec.solver, dict(spec.options))
        key = spec.to_json()
        _STARTUP[key] = _STARTUP.get(key, 0.0) + time.perf_counter() - started


def start_up(spec: RunSpec) -> float:
    """``get_ready`` and return this process's start-up for the run if no part recorded it yet
    (else 0).  Without it the first deal of each worker carried the worker's start-up: 50-200
    ms on deals that take well under one."""
    get_ready(spec)
    key = spec.to_json()
    if key in _STARTUP_RECORDED:
        return 0.0
    _STARTUP_RECORDED.add(key)
    return _STARTUP.get(key, 0.0)


def startup(table_or_path: pa.Table | str | os.PathLike) -> dict:
    """The start-up a run file (or a table) records: ``{"seconds": s, "processes": p}``."""
    meta = (table_or_path.schema.metadata if isinstance(table_or_path, pa.Table)
            else pq.read_schema(table_or_path).metadata) or {}
    raw = meta.get(STARTUP_KEY)
    return json.loads(raw) if raw else {"seconds": 0.0, "processes": 0}


def with_startup(table: pa.Table, seconds: float, processes: int) -> pa.Table:
    """The table with ``STARTUP_KEY`` set (the rest of its metadata kept)."""
    meta = dict(table.schema.metadata or {})
    meta[STARTUP_KEY] = json.dumps({"seconds": round(seconds, 6),
                                    "processes": processes}).encode()
    return table.replace_schema_metadata(meta)


def total_startup(tables: Iterable[pa.Table]) -> tuple[float, int]:
    """The start-up of several tables together (seconds, processes)."""
    found = [startup(t) for t in tables]
    return sum(s["seconds"] for s in found), sum(s["processes"] for s in found)


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
    if spec.numbering != WINNABLE:  # the rows say which deals their seeds are
        data["numbering"] = pa.array([spec.numbering] * n, pa.string())
    table = pa.table(data)
    return table.replace_schema_metadata({META_KEY: spec.to_json().encode()})


def write_atomic(table: pa.Table, path: Path) -> None:
    tmp = _temporary(path)
    pq.write_table(table, tmp)
    os.replace(tmp, path)


def write_text_atomic(path: Path, text: str) -> None:
    tmp = _temporary(path)
    tmp.write_text(text)
    os.replace(tmp, path)


def _temporary(path: Path) -> Path:
    """Where a file is written before it is renamed into place (never read as a part)."""
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


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
        try:
            found.append((parts, RunSpec.from_json((parts / "run.json").read_text())))
        except (OSError, ValueError, KeyError, TypeError):
            # Each part carries the run's identity too and is checked on its own; the file is
            # written again before solving.
            warn(f"warning: {parts / 'run.json'} cannot be read; the parts are checked one by "
                 "one")
    for path, other in found:
        if other is None:
            raise BatchError(f"{path} is not a winnable run file; choose another --out")
        if other != spec:
            raise BatchError(
                f"{path} holds a run with {other.describe()}; this run asks for "
                f"{spec.describe()}: choose another --out (rows of different rules, solvers or "
                "numberings are never mixed)")


def _readable_spec(path: Path) -> RunSpec | None:
    try:
        return read_spec(path)
    except (OSError, pa.ArrowException, KeyError, ValueError) as exc:
        raise BatchError(f"cannot read {path} as Parquet ({exc.__class__.__name__}); choose "
                         "another --out") from None


PART_NAME = re.compile(r"part-(\d{12})-(\d{12})\.parquet")


def part_range(part: Path) -> tuple[int, int] | None:
    """The deals a part's name says it holds (None for a name that is not a part's)."""
    match = PART_NAME.fullmatch(part.name)
    return (int(match.group(1)), int(match.group(2))) if match else None


def part_problem(spec: RunSpec, part: Path) -> str | None:
    """Why the part cannot be used (None if it holds exactly the deals its name says, of this
    run, each once)."""
    seeds = part_range(part)
    if seeds is None:
        return "not a part's name"
    try:
        table = pq.read_table(part)
        other = read_spec(part)
    except (OSError, pa.ArrowException, KeyError, ValueError) as exc:
        return f"unreadable: {exc.__class__.__name__}"
    if other != spec:
        return "not of this run"
    if "seed" not in table.column_names or not np.array_equal(
            table["seed"].to_numpy(), np.arange(seeds[0], seeds[1] + 1)):
        return f"does not hold deals {seeds[0]}-{seeds[1]} once each"
    return None


def set_aside_bad_parts(spec: RunSpec, out: Path) -> None:
    """Move every part of ``out`` that cannot be used to ``set_aside_dir(out)`` with a one-line
    warning; its deals are then missing, so they are solved again."""
    parts = parts_dir(out)
    for part in sorted(parts.glob("part-*.parquet")) if parts.exists() else []:
        problem = part_problem(spec, part)
        if problem is None:
            continue
        target = set_aside_dir(out) / part.name
        target.parent.mkdir(exist_ok=True)
        os.replace(part, target)
        seeds = part_range(part)
        again = f"deals {seeds[0]}-{seeds[1]} are solved again" if seeds else "nothing lost"
        warn(f"warning: set aside {part} ({problem}) as {target}; {again}")


def warn(message: str) -> None:
    """A one-line message for the user on stderr (beside a progress bar, which it leaves
    intact)."""
    from tqdm import tqdm
    tqdm.write(message, file=sys.stderr)


def stored_seeds(out: Path) -> np.ndarray:
    seeds = []
    if out.exists():
        seeds.append(pq.read_table(out, columns=["seed"])["seed"].to_numpy())
    parts = parts_dir(out)
    if parts.exists():
        for part in sorted(parts.glob("part-*.parquet")):
            first, last = part_range(part) or (1, 0)
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
    write_atomic(with_startup(table, *total_startup(tables)), out)
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
                progress: bool = True, scheduler: str | None = None,
                numbering: str | None = None) -> pd.DataFrame:
    """Solve deals start..start+n-1 and return their rows (a DataFrame); ``numbering``
    (``winnable.numbering``) says which deal each number is (default: the project's own;
    ``"pysol"``: PySolFC's game numbers, Chinese Solitaire only).  Rows are stored in
    ``out`` (default ``runs/<game>_<solver>[_<rules>][_<options changed>].parquet``); seeds
    already stored there are not solved again.  ``workers`` local processes solve the chunks
    (default: all cores), or with ``scheduler="tcp://HOST:PORT"`` the workers of that Dask
    cluster (then ``workers`` must stay None: the cluster's workers are started with `dask
    worker`).  ``progress``: a progress bar and what the run is doing, on stderr.  The frame's
    ``attrs`` say where the rows are stored (``path``) and how many were solved now
    (``solved``)."""
    if n <= 0:
        raise BatchError(f"--n must be at least 1, got {n}")
    if start <= 0:
        raise BatchError(f"--start must be at least 1 (deal numbers start at 1), got {start}")
    if start > LAST_DEAL - n + 1:
        raise BatchError(f"the last deal, --start + --n - 1 = {start + n - 1}, is past the last "
                         f"deal number, {LAST_DEAL}")
    if chunk_size is not None and chunk_size < 1:
        raise BatchError(f"--chunk must be at least 1, got {chunk_size}")
    if scheduler is not None:
        check_scheduler_address(scheduler)
        if workers is not None:
            raise BatchError("--workers sets this machine's processes; with --scheduler the "
                             "cluster's workers do the work (start them with `dask worker "
                             "--nworkers N`): drop --workers")
        _import_distributed()
    if workers is not None and workers < 1:
        raise BatchError(f"--workers must be at least 1, got {workers}")
    spec = RunSpec.make(game, variant, solver, options, numbering)
    g = get_game(spec.game)
    out_path = Path(out) if out is not None else default_out(spec)
    if out_path.suffix != ".parquet":
        raise BatchError(f"--out must name a .parquet file, got {out_path}")
    with _writing(out_path):
        out_path.parent.mkdir(parents=True, exist_ok=True)
    check_compatible(spec, out_path)
    last = start + n - 1
    with _writing(out_path):
        set_aside_bad_parts(spec, out_path)
    done = stored_seeds(out_path)
    chunks = missing_chunks(start, last, done, chunk_size or g.chunk_size(spec.solver))
    todo = sum(b - a + 1 for a, b in chunks)
    if chunks:
        parts = parts_dir(out_path)
        with _writing(out_path):
            parts.mkdir(exist_ok=True)
            write_text_atomic(parts / "run.json", spec.to_json())
        if progress:
            advise(spec)
        client = connect(scheduler) if scheduler is not None else None
        if client is None:
            warm_up(spec, progress)
        bar = _progress(n, n - todo, f"{spec.game} {spec.solver}", progress)
        try:
            if client is not None:
                run_chunks_dask(client, spec, chunks, parts, bar)
            else:
                run_chunks_local(spec, chunks, parts, workers, bar)
        finally:
            bar.close()
            if client is not None:
                client.close()  # the scheduler forgets whatever this run still had in flight
    with _writing(out_path):
        merge_parts(out_path)
    rows = load_rows(out_path, start, last)
    rows.attrs.update(path=str(out_path), solved=todo)
    return rows


class _writing:
    """Turns an OSError while writing a run's files into a one-line BatchError naming ``out``."""

    def __init__(self, out: Path):
        self.out = out

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        if isinstance(exc, (FileExistsError, NotADirectoryError)) and exc.filename:
            raise BatchError(f"cannot write --out {self.out}: {exc.filename} is not a "
                             "folder") from None
        if isinstance(exc, OSError):
            reason = exc.strerror or exc.__class__.__name__
            where = f" ({exc.filename})" if exc.filename else ""
            raise BatchError(f"cannot write --out {self.out}: {reason}{where}") from None
        return False


def advise(spec: RunSpec) -> None:
    """Print the game's advice on the run's options (``Game.option_notes``)."""
    for note in get_game(spec.game).option_notes(spec.solver, dict(spec.options)):
        warn(note)


def warm_up(spec: RunSpec, progress: bool) -> None:
    """Compile the run's kernels (or load them from Numba's cache) here, before the workers
    start: they then load them from the cache instead of compiling them side by side, and the
    progress bar and its ETA start after it."""
    g = get_game(spec.game)
    if g.is_warm(spec.variant, spec.solver, dict(spec.options)):
        return
    if progress:
        warn(f"{spec.game} {spec.solver}: compiling (or loading from the cache) ...")
    started = time.perf_counter()
    get_ready(spec)
    if progress:
        warn(f"{spec.game} {spec.solver}: ready in {time.perf_counter() - started:.1f} s")


def solve_run(game: str, n: int, variant=None, solver: str | None = None,
              options: Mapping[str, Any] | None = None, runs_dir: str | os.PathLike = "runs",
              workers: int | None = None, progress: bool = True,
              numbering: str | None = None) -> pd.DataFrame:
    """``solve_batch`` of deals 1..n stored in ``run_file(spec, n, runs_dir)``: solved once,
    then read back (an experiment's run of the same N, rules, solver and options included)."""
    spec = RunSpec.make(game, variant, solver, options, numbering)
    return solve_batch(game, n=n, variant=variant, solver=solver, options=options,
                       workers=workers, out=run_file(spec, n, runs_dir), progress=progress,
                       numbering=numbering)


def run_chunks_local(spec: RunSpec, chunks: list[tuple[int, int]], parts: Path,
                     workers: int | None, bar) -> None:
    spec_json = spec.to_json()
    run_tasks_local([Task(solve_chunk, (spec_json, first, last, str(parts)),
                          f"deals {first}-{last}") for first, last in chunks], workers, bar)


@dataclass(frozen=True)
class Task:
    """One piece of a run for a worker: ``function(*args)`` writes its part and returns its
    deals; ``label`` names it in errors."""
    function: Any
    args: tuple
    label: str


def run_tasks_local(tasks: Sequence[Task], workers: int | None, bar) -> None:
    """Run the tasks in ``workers`` local processes (default: all cores), or here if one."""
    workers = min(workers or os.cpu_count() or 1, len(tasks))
    if workers <= 1:
        for task in tasks:
            bar.update(task.function(*task.args))
        return
    queue = deque(tasks)
    with LocalWorkers(workers) as pool:
        while queue or pool.busy():
            while queue and pool.idle():
                pool.submit(queue.popleft())
            for solved in pool.finished():
                bar.update(solved)


# --- local worker processes --------------------------------------------------------------------
# Spawned (not forked) workers: a clean interpreter each, whatever threads the caller has.  The
# parent alone decides when a batch stops: workers ignore Ctrl-C (a terminal sends it to every
# process of the job), and the parent terminates them when it stops, whatever the reason.  A
# worker whose parent died (kill -9) exits by itself: Linux kills it at once
# (PR_SET_PDEATHSIG), and everywhere a watchdog thread sees the parent gone within a second.

WATCH_SECONDS = 0.5
STOP_SECONDS = 3  # how long a worker may take to exit before it is killed
PR_SET_PDEATHSIG = 1


class WorkerDied(BatchError):
    """A worker process ended while solving a chunk."""


@dataclass
class _Worker:
    process: Any
    conn: Any
    task: tuple | None = None


class LocalWorkers:
    """Worker processes, each running one ``Task`` at a time (solving a chunk and writing its
    part itself).  Leaving the ``with`` block ends them: after the last chunk they exit, on an error or
    an interruption they are terminated."""

    def __init__(self, count: int):
        self.count = count
        self.workers: list[_Worker] = []

    def __enter__(self) -> "LocalWorkers":
        context = get_context("spawn")
        # Signals are held back while the workers start: here they arrive right after, and a
        # worker starts with them blocked (the mask survives exec) until it ignores Ctrl-C, so
        # one pressed while its interpreter starts prints nothing there.  The resource tracker
        # (which spawned processes share) is started first: starting it unblocks Ctrl-C.
        resource_tracker.ensure_running()
        with _signals_blocked():
            try:
                for _ in range(self.count):
                    mine, theirs = context.Pipe()
                    process = context.Process(target=_worker_main, args=(theirs, os.getpid()),
                                              daemon=True)
                    process.start()
                    theirs.close()
                    self.workers.append(_Worker(process, mine))
            except BaseException:
                self._terminate()
                raise
        return self

    def __exit__(self, kind, exc, tb) -> bool:
        if exc is None:
            for worker in self.workers:
                try:
                    worker.conn.send(None)
                except OSError:
                    pass  # already gone
            self._join(STOP_SECONDS)
        with _signals_blocked():  # a second Ctrl-C does not leave workers half stopped
            self._terminate()
        return False

    def idle(self) -> list[_Worker]:
        return [w for w in self.workers if w.task is None]

    def busy(self) -> bool:
        return any(w.task is not None for w in self.workers)

    def submit(self, task: Task) -> None:
        worker = self.idle()[0]
        worker.conn.send((task.function, task.args))
        worker.task = task

    def finished(self) -> list[int]:
        """Wait until at least one chunk is done; the deals of each chunk done."""
        busy = [w for w in self.workers if w.task is not None]
        ready = set(connection.wait([w.conn for w in busy] + [w.process.sentinel for w in busy]))
        done = []
        for worker in busy:
            if worker.conn in ready or worker.process.sentinel in ready:
                done.append(self._result(worker))
        return done

    def _result(self, worker: _Worker) -> int:
        label = worker.task.label
        try:
            status, value, detail = worker.conn.recv()
        except (EOFError, OSError):
            worker.process.join(STOP_SECONDS)
            raise WorkerDied(f"a worker process died (exit code {worker.process.exitcode}) while "
                             f"solving {label}; every finished chunk is kept: rerun the same "
                             "command to resume") from None
        worker.task = None
        if status == "error":
            if isinstance(value, OSError):
                raise BatchError(f"cannot write the part of {label}: "
                                 f"{value.strerror or value}") from None
            value.add_note(f"in the worker solving {label}:\n{detail}")
            raise value
        return value

    def _join(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        for worker in self.workers:
            worker.process.join(max(0.0, deadline - time.monotonic()))

    def _terminate(self) -> None:
        for worker in self.workers:
            if worker.process.is_alive():
                worker.process.terminate()
        self._join(STOP_SECONDS)
        for worker in self.workers:
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
            worker.conn.close()
        self.workers = []


def _worker_main(conn, parent: int) -> None:
    """A worker: solve the chunks the parent sends until it sends None (or is gone)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _signals_blocked.SIGNALS)
    _exit_with_parent(parent)
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        function, args = task
        try:
            conn.send(("done", function(*args), ""))
        except Exception as exc:  # sent to the parent, which raises it
            detail = traceback.format_exc()
            try:
                conn.send(("error", exc, detail))
            except Exception:  # an exception that does not pickle
                conn.send(("error", RuntimeError(f"{exc.__class__.__name__}: {exc}"), detail))


def _exit_with_parent(parent: int) -> None:
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass  # not Linux: the watchdog alone
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(WATCH_SECONDS)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="parent-watchdog", daemon=True).start()


class _signals_blocked:
    """Hold back Ctrl-C, SIGTERM and SIGHUP in the block; they arrive when it ends."""

    SIGNALS = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}

    def __enter__(self):
        self.saved = signal.pthread_sigmask(signal.SIG_BLOCK, self.SIGNALS)

    def __exit__(self, *exc):
        signal.pthread_sigmask(signal.SIG_SETMASK, self.saved)
        return False


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
    spec_json = spec.to_json()
    run_tasks_dask(client, [(solve_table, (spec_json, first, last)) for first, last in chunks],
                   lambda table: write_part(parts, table), bar)


def run_tasks_dask(client, tasks: Sequence[tuple[Any, tuple]], store, bar) -> None:
    """Run ``function(*args)`` of each task on the cluster; ``store(result)`` (here, on this
    machine) writes each result as it comes back and returns its deals."""
    from distributed import as_completed
    queue = list(reversed(tasks))
    running = as_completed(loop=client.loop)

    def submit_more() -> None:
        # About two tasks per worker thread in flight: every thread stays busy, and a run of
        # a million deals does not flood the scheduler with tasks.
        limit = 2 * max(1, sum(client.nthreads().values()))
        while queue and running.count() < limit:
            function, args = queue.pop()
            running.add(client.submit(function, *args, pure=False))

    submit_more()
    for future in running:
        # The next turn drops this future, and with it the worker's copy of the rows.
        bar.update(store(_cluster_result(future)))
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


def read_run_file(path: str | os.PathLike,
                  columns: Sequence[str] | None = None) -> tuple[RunSpec, pd.DataFrame]:
    """The run a file holds and its rows (``columns``: only these, where the file has them); a
    one-line BatchError for a file that is missing, unreadable or not a winnable run."""
    path = Path(path)
    if not path.exists():
        raise BatchError(f"no such file: {path}")
    try:
        spec = read_spec(path)
        names = pq.read_schema(path).names
        wanted = None if columns is None else [c for c in names if c in columns]
        rows = pq.read_table(path, columns=wanted).to_pandas()
    except (OSError, pa.ArrowException, KeyError, ValueError) as exc:
        raise BatchError(f"cannot read {path} as Parquet ({exc.__class__.__name__})") from None
    missing = [c for c in RUN_COLUMNS if c not in names]
    if spec is None or missing:
        why = f"no column(s) {', '.join(missing)}" if missing else "no run description"
        raise BatchError(f"{path} is not a winnable run file ({why})")
    if rows.empty:
        raise BatchError(f"{path} holds no deals")
    return spec, rows


def read_runs(paths: Iterable[str | os.PathLike],
              columns: Sequence[str] | None = None) -> pd.DataFrame:
    """The rows of run files, each deal of a run once, with an ``options`` column (each run's
    solver options as ``key=value`` words) and a ``numbering`` column (which deals the seeds
    are: ``winnable.numbering``); ``columns``: read only these (with the columns that tell runs
    and deals apart), e.g. to draw figures of million-deal runs.  A deal stored in several files
    of the same run counts once; files that disagree about a deal, or that hold runs differing only in the
    engine version, are refused with a one-line BatchError."""
    paths = [Path(p) for p in paths]
    if not paths:
        raise BatchError("give at least one run file (.parquet)")
    runs: dict[tuple, tuple[Path, RunSpec]] = {}
    frames = []
    if columns is not None:
        columns = list(dict.fromkeys(["seed", "game", "solver", "variant", "outcome", "score",
                                      *columns]))
    for path in paths:
        spec, rows = read_run_file(path, columns)
        key = (spec.game, spec.solver, spec.variant, spec.options, spec.numbering)
        if key in runs and runs[key][1] != spec:
            first, other = runs[key]
            raise BatchError(f"{first} and {path} hold runs of different engine versions "
                             f"({other.engine_version} and {spec.engine_version}) of "
                             f"{spec.describe(version=False)}: their results may "
                             "differ, so they are not counted together")
        runs.setdefault(key, (path, spec))
        frames.append(rows.assign(options=options_text(spec.options), numbering=spec.numbering,
                                  file=str(path)))
    rows = pd.concat(frames, ignore_index=True)
    keys = ["game", "solver", "variant", "options", "numbering", "seed"]
    repeated = rows[rows.duplicated(keys, keep=False)]
    if len(repeated):
        answers = repeated.groupby(keys)[["outcome", "score"]].nunique().max(axis=1)
        if (answers > 1).any():
            key = answers[answers > 1].index[0]
            told = "; ".join(f"{r.file}: {r.outcome}, score {r.score}"
                             for r in repeated.set_index(keys).loc[[key]].itertuples())
            raise BatchError(f"deal {key[5]} of {key[0]} solver {key[1]} rules '{key[2]}' has "
                             f"different results in the files given ({told})")
        rows = rows.drop_duplicates(keys, ignore_index=True)
    return rows.drop(columns="file")


def options_text(options: Sequence[tuple[str, object]]) -> str:
    """Solver options as ``key=value`` words (a run's ``RunSpec.options``)."""
    return " ".join(f"{k}={v}" for k, v in options)


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

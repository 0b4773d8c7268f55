"""``solve_batch``: deals start..start+n-1 of one run solved in parallel, stored in Parquet,
resumable (``store``); and ``solve_chunks``, what a batch and an escalation (``resolve``) share:
chunks of seeds solved by local worker processes (``pool``) or by the workers of a Dask cluster
(``cluster``), each stored as a part file as it finishes.

Each chunk is solved by ``chunk.solve_seeds_table`` and stored by ``store.write_part``: a local
worker writes its part itself, on a cluster the rows travel back and this machine writes them.
An interrupted batch loses at most the chunks being solved at that moment (``winnable.stopping``);
rerunning the same command skips every seed already stored.  Each file carries the run's
identity (game, solver, rules, solver options, rules version) in its metadata, and a run with
another identity is refused rather than mixed in.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from ..games import GAMES, get_game
from ..numbering import LAST_DEAL
from .chunk import get_ready, solve_and_store, solve_seeds_table, use_games
from .cluster import check_where_to_run, connect, run_tasks_dask
from .pool import Task, exit_if_spawning, run_tasks
from .progress import progress_bar, warn
from .read import load_rows
from .spec import BatchError, RunSpec, default_out, parts_dir, run_file
from .store import (check_compatible, merge_parts, missing_chunks, set_aside_bad_parts,
                    stored_seeds, write_part, write_text_atomic)


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
    (``solved``).

    A script may call it at its top level, without an ``if __name__ == "__main__":`` guard:
    the workers do not import the script again (``winnable.runs.pool``).

    Examples:
        >>> from winnable import solve_batch
        >>> rows = solve_batch("nineball", n=300, workers=2, progress=False,
        ...                    out="runs/nineball_300.parquet")
        >>> len(rows), rows.attrs["solved"], int((rows.outcome == "win").sum())
        (300, 300, 298)
        >>> solve_batch("nineball", n=300, workers=2, progress=False,
        ...             out="runs/nineball_300.parquet").attrs["solved"]   # stored already
        0
    """
    exit_if_spawning()
    if n <= 0:
        raise BatchError(f"--n must be at least 1, got {n}")
    if start <= 0:
        raise BatchError(f"--start must be at least 1 (deal numbers start at 1), got {start}")
    if start > LAST_DEAL - n + 1:
        raise BatchError(f"the last deal, --start + --n - 1 = {start + n - 1}, is past the last "
                         f"deal number, {LAST_DEAL}")
    if chunk_size is not None and chunk_size < 1:
        raise BatchError(f"--chunk must be at least 1, got {chunk_size}")
    check_where_to_run(workers, scheduler)
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
        solve_chunks(spec, [range(a, b + 1) for a, b in chunks], parts, workers, scheduler,
                     progress, f"{spec.game} {spec.solver}", n, n - todo)
    with _writing(out_path):
        merge_parts(out_path)
    rows = load_rows(out_path, start, last)
    rows.attrs.update(path=str(out_path), solved=todo)
    return rows


def solve_run(game: str, n: int, variant=None, solver: str | None = None,
              options: Mapping[str, Any] | None = None, runs_dir: str | os.PathLike = "runs",
              workers: int | None = None, progress: bool = True,
              numbering: str | None = None) -> pd.DataFrame:
    """``solve_batch`` of deals 1..n stored in ``run_file(spec, n, runs_dir)``: solved once,
    then read back (an experiment's run of the same N, rules, solver and options included)."""
    exit_if_spawning()
    spec = RunSpec.make(game, variant, solver, options, numbering)
    return solve_batch(game, n=n, variant=variant, solver=solver, options=options,
                       workers=workers, out=run_file(spec, n, runs_dir), progress=progress,
                       numbering=numbering)


def solve_chunks(spec: RunSpec, chunks: Sequence[Sequence[int]], parts: Path,
                 workers: int | None, scheduler: str | None, progress: bool, label: str,
                 total: int, done: int) -> None:
    """Solve each chunk of seeds of the run ``spec`` and store it in ``parts`` as it finishes:
    in ``workers`` local processes, or on the Dask cluster of ``scheduler``.  ``progress``: the
    game's advice on the options, then a progress bar ``label`` of ``total`` deals, ``done``
    of them stored already."""
    if progress:
        advise(spec)
    client = connect(scheduler) if scheduler is not None else None
    if client is None:
        warm_up(spec, progress)
    bar = progress_bar(total, done, label, progress)
    spec_json = spec.to_json()
    try:
        if client is not None:
            run_tasks_dask(client, [(solve_seeds_table, (spec_json, seeds)) for seeds in chunks],
                           lambda table: write_part(parts, table), bar)
        else:
            run_tasks([Task(solve_and_store, (spec_json, seeds, str(parts)), _deals(seeds))
                       for seeds in chunks], workers, bar.update,
                      setup=(use_games, (dict(GAMES),)),
                      needs_main=any(where.startswith("__main__:") for where in GAMES.values()))
    finally:
        bar.close()
        if client is not None:
            client.close()  # the scheduler forgets whatever this run still had in flight


def _deals(seeds: Sequence[int]) -> str:
    """A chunk's deals, as errors name them."""
    if isinstance(seeds, range):
        return f"deals {seeds[0]}-{seeds[-1]}"
    return f"deals {seeds[0]}..{seeds[-1]} ({len(seeds)})"


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

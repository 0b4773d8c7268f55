"""Runs read back for reports (``winnable summary``, figures, catalogues, notebooks): the rows
of run files, each deal of a run once, files that disagree refused in one line."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from .spec import BatchError, RunSpec, options_text
from .store import read_spec

# The columns every run file has (games add their own after them).
RUN_COLUMNS = ("seed", "game", "solver", "variant", "deal", "outcome", "score", "moves", "nodes",
               "seconds")


def load_rows(out: Path, first: int | None = None, last: int | None = None) -> pd.DataFrame:
    """The rows of one run file (of seeds first..last, if given)."""
    filters = None
    if first is not None and last is not None:
        filters = [("seed", ">=", first), ("seed", "<=", last)]
    return pq.read_table(out, filters=filters).to_pandas()


def read_run_file(path: str | os.PathLike,
                  columns: Sequence[str] | None = None) -> tuple[RunSpec, pd.DataFrame]:
    """The run a file holds and its rows (``columns``: only these, where the file has them); a
    one-line BatchError for a file that is missing, unreadable or not a winnable run.

    Examples:
        >>> from winnable import read_run_file, solve_batch
        >>> _ = solve_batch("nineball", n=50, workers=1, progress=False,
        ...                 out="runs/nineball_50.parquet")
        >>> spec, rows = read_run_file("runs/nineball_50.parquet", columns=["seed", "outcome"])
        >>> spec.game, spec.solver, spec.variant, list(rows.columns), len(rows)
        ('nineball', 'thoughtful', 'default', ['seed', 'outcome'], 50)
    """
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
    of the same run counts once; files that disagree about a deal, or that hold runs differing
    only in the engine version, are refused with a one-line BatchError.

    Examples:
        >>> from winnable import read_runs, solve_batch
        >>> for k in (1, 3):
        ...     _ = solve_batch("nineball", n=100, variant={"kitchen_per_group": k},
        ...                     workers=1, progress=False, out=f"runs/nineball_k{k}.parquet")
        >>> rows = read_runs(["runs/nineball_k1.parquet", "runs/nineball_k3.parquet"])
        >>> rows.groupby("variant").size()
        variant
        default                100
        kitchen_per_group=1    100
        dtype: int64
    """
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

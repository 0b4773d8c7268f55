"""A run's files on disk while it is built: rows as Parquet tables with the run's identity in
their metadata, written atomically (a temporary file, then a rename), one part file per
finished chunk, the checks that keep other runs' rows out, and the merge of the parts into the
run's file.

``OUT.parquet`` holds every finished deal of a run, one row per seed.  While a batch runs, each
finished chunk is written as its own file under ``OUT.parquet.parts/`` (``spec.parts_dir``);
when every chunk is in, the parts and any earlier ``OUT.parquet`` are merged into a new
``OUT.parquet`` and the parts are deleted.  An interrupted batch (Ctrl-C, kill -9, power cut)
therefore loses at most the chunks being solved at that moment.  A part that cannot be read, or
does not hold exactly the deals its name says, is set aside into ``OUT.parquet.bad/`` (with a
one-line warning) and its deals are solved again.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from ..numbering import WINNABLE
from .progress import warn
from .spec import BatchError, RunSpec, parts_dir, set_aside_dir

META_KEY = b"winnable"
# Run-level start-up (docs/batch.md): {"seconds": s, "processes": p}, the time the p
# processes that solved the file's deals spent getting ready (compiling or loading the
# kernels, their first calls, the solver's buffers), kept out of every deal's ``seconds``.
STARTUP_KEY = b"winnable.startup"
PART_NAME = re.compile(r"part-(\d{12})-(\d{12})\.parquet")


def to_table(spec: RunSpec, columns: Mapping[str, Any], extra: Sequence[str]) -> pa.Table:
    """A chunk's columns (``Game.solve_seeds``) as the rows of the run ``spec``."""
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


# --- start-up, recorded apart from the deals ------------------------------------------------------

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


# --- writing ----------------------------------------------------------------------------------------

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


def write_part(parts: Path, table: pa.Table) -> int:
    """Store one solved chunk atomically as ``parts/part-FIRST-LAST.parquet`` (its first and
    last seed); returns its deals."""
    seeds = table["seed"]
    first, last = seeds[0].as_py(), seeds[-1].as_py()
    write_atomic(table, Path(parts) / f"part-{first:012d}-{last:012d}.parquet")
    return table.num_rows


# --- the stored state of a run ----------------------------------------------------------------------

def read_spec(path: Path) -> RunSpec | None:
    """The run a Parquet file holds (None: it holds no run description)."""
    meta = pq.read_schema(path).metadata or {}
    raw = meta.get(META_KEY)
    return RunSpec.from_json(raw) if raw else None


def readable_spec(path: Path) -> RunSpec | None:
    """``read_spec``, a file that is not Parquet refused in one line."""
    try:
        return read_spec(path)
    except (OSError, pa.ArrowException, KeyError, ValueError) as exc:
        raise BatchError(f"cannot read {path} as Parquet ({exc.__class__.__name__}); choose "
                         "another --out") from None


def check_compatible(spec: RunSpec, out: Path) -> None:
    """Refuse to mix rows of another game, solver, rules or options into ``out``."""
    found: list[tuple[Path, RunSpec | None]] = []
    if out.exists():
        found.append((out, readable_spec(out)))
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


def stored_seeds(out: Path) -> np.ndarray:
    """Every seed stored for the run of ``out``: in the file and in its finished parts."""
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

"""`winnable resolve`: the undecided deals of stored runs solved again with other solver options
(typically a larger node budget), locally or on a Dask cluster, resumable like a batch.

A run file (``solve-batch``'s Parquet) keeps its identity (game, solver, rules, options, engine
version: the batch's ``RunSpec``); an escalation re-solves only its ``unknown`` rows, with the
run's options changed as asked, and writes the answers back into the same file:

* a decided row is never changed;
* a re-solved row replaces the unknown one, decided or not, and records in the columns ``step``
  (1 for the first escalation of the file, 2 for the next, ...; 0 for the batch's own rows) and
  ``step_options`` (the options that differ from the run's, e.g. ``budget=10000000``; empty for
  the batch's rows) what produced it; ``nodes`` and ``seconds`` are those of the new search;
* the file's metadata lists the escalations (step, options, deals tried, settled, wins, losses),
  and ``winnable summary`` reports how many unknowns each settled.

While an escalation runs, finished chunks are written to ``<file>.resolve/`` (with a
``run.json`` naming the options); rerunning the same command resumes, and a different
escalation of the same file is refused until that one is finished.  Rows still unknown after
an escalation have the new step and options, so asking for the same options again finds nothing
to do, and a larger budget tries them again.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from . import batch as B
from .games import get_game

ESCALATIONS_KEY = b"winnable.escalations"
DEFAULT_CHUNK = 4  # undecided deals are the expensive ones: few per task


@dataclass(frozen=True)
class Escalation:
    """What one escalation of one file did."""
    file: str
    step: int
    options: dict
    tried: int
    settled: int
    wins: int
    losses: int
    unknown_left: int
    deals: int

    def text(self) -> str:
        opts = option_text(self.options)
        if not self.tried:
            return (f"{self.file}: nothing to solve again with {opts}: "
                    f"{self.unknown_left:,} of {self.deals:,} deals unknown, each already "
                    "tried with these options")
        return (f"{self.file}: step {self.step} ({opts}): {self.tried:,} unknown deals tried, "
                f"{self.settled:,} settled ({self.wins:,} wins, {self.losses:,} losses); "
                f"{self.unknown_left:,} of {self.deals:,} deals still unknown")


def resolve_dir(path: Path) -> Path:
    return path.with_name(path.name + ".resolve")


def option_text(options: Mapping[str, Any]) -> str:
    return " ".join(f"{k}={v}" for k, v in sorted(options.items()))


def escalations(path: Path) -> list[dict]:
    """The escalations a run file records (oldest first)."""
    meta = pq.read_schema(path).metadata or {}
    raw = meta.get(ESCALATIONS_KEY)
    return json.loads(raw) if raw else []


def solve_seed_table(spec_json: str, seeds: Sequence[int]) -> pa.Table:
    """Solve the given seeds (any set) and return their rows: what an escalation's task does."""
    spec = B.RunSpec.from_json(spec_json)
    game = get_game(spec.game)
    columns = game.solve_seeds(np.asarray(seeds, dtype=np.int64), spec.variant, spec.solver,
                               dict(spec.options), spec.numbering)
    return B.to_table(spec, columns, game.extra_columns)


def _store(table: pa.Table, work: Path) -> int:
    seeds = table["seed"].to_pylist()
    B.write_atomic(table, work / f"part-{seeds[0]:012d}-{seeds[-1]:012d}.parquet")
    return table.num_rows


def _solve_and_store(spec_json: str, seeds: Sequence[int], parts: str) -> int:
    """What a local worker does with a task of an escalation."""
    return _store(solve_seed_table(spec_json, seeds), Path(parts))


def _done_seeds(parts: Path) -> set[int]:
    done: set[int] = set()
    for part in sorted(parts.glob("part-*.parquet")):
        done.update(pq.read_table(part, columns=["seed"])["seed"].to_pylist())
    return done


def resolve_file(path: str | os.PathLike, options: Mapping[str, Any],
                 workers: int | None = None, scheduler: str | None = None,
                 chunk: int | None = None, progress: bool = True) -> Escalation:
    """Re-solve the unknown rows of one run file with its options changed by ``options``."""
    path = Path(path)
    if not path.exists():
        raise B.BatchError(f"no such file: {path}")
    if not options:
        raise B.BatchError("give the options to change with --option KEY=VALUE, e.g. "
                           "--option budget=10000000")
    if scheduler is not None:
        B.check_scheduler_address(scheduler)
        if workers is not None:
            raise B.BatchError("--workers sets this machine's processes; with --scheduler the "
                               "cluster's workers do the work: drop --workers")
        B._import_distributed()
    if workers is not None and workers < 1:
        raise B.BatchError(f"--workers must be at least 1, got {workers}")
    if chunk is not None and chunk < 1:
        raise B.BatchError(f"--chunk must be at least 1, got {chunk}")
    spec = B._readable_spec(path)
    if spec is None:
        raise B.BatchError(f"{path} is not a winnable run file (made by solve-batch)")
    game = get_game(spec.game)
    current = game.engine_version(spec.solver)
    if spec.engine_version != current:
        raise B.BatchError(
            f"{path} was made by engine version {spec.engine_version} of {spec.game} "
            f"{spec.solver}, this winnable has version {current}: solve its deals again with "
            "solve-batch (a new --out) instead")
    B.merge_parts(path)  # finished chunks of an interrupted batch of this file
    base = dict(spec.options)
    unknown_options = sorted(set(options) - set(base))
    if unknown_options:
        raise B.BatchError(f"solver {spec.solver} of {spec.game} has no option "
                           f"{', '.join(unknown_options)}; its options: {', '.join(base)}")
    wanted = B.RunSpec.make(spec.game, spec.variant, spec.solver, {**base, **options},
                            spec.numbering)
    changed = {k: v for k, v in wanted.options if base.get(k) != v}
    if not changed:
        raise B.BatchError(f"those are the run's own options ({option_text(base)}): give "
                           "other values, e.g. a larger budget")
    table = pq.read_table(path)
    history = escalations(path)
    step = len(history) + 1
    text = option_text(changed)
    outcome = table["outcome"].to_pylist()
    previous = (table["step_options"].to_pylist() if "step_options" in table.column_names
                else [""] * table.num_rows)
    seeds = table["seed"].to_pylist()
    todo = sorted(s for s, o, p in zip(seeds, outcome, previous)
                  if o == "unknown" and (p or "") != text)
    work = resolve_dir(path)
    job = {"options": changed, "spec": json.loads(wanted.to_json())}
    if (work / "run.json").exists():
        pending = json.loads((work / "run.json").read_text())
        if pending != job:
            raise B.BatchError(
                f"{work} holds an unfinished escalation with "
                f"{option_text(pending['options'])}: rerun that one to finish it (or delete the "
                "directory to drop it)")
    if todo:
        work.mkdir(exist_ok=True)
        (work / "run.json").write_text(json.dumps(job))
        done = _done_seeds(work)
        left = [s for s in todo if s not in done]
        size = chunk or DEFAULT_CHUNK
        chunks = [left[i:i + size] for i in range(0, len(left), size)]
        spec_json = wanted.to_json()
        if progress:
            B.advise(wanted)
        client = B.connect(scheduler) if scheduler is not None else None
        if client is None:
            B.warm_up(wanted, progress)
        bar = B._progress(len(todo), len(todo) - len(left),
                          f"resolve {spec.game} {spec.solver}", progress)
        try:
            if client is not None:
                B.run_tasks_dask(client, [(solve_seed_table, (spec_json, seeds))
                                          for seeds in chunks],
                                 lambda table: _store(table, work), bar)
            else:
                B.run_tasks_local([B.Task(_solve_and_store, (spec_json, seeds, str(work)),
                                          f"deals {seeds[0]}..{seeds[-1]} ({len(seeds)})")
                                   for seeds in chunks], workers, bar)
        finally:
            bar.close()
            if client is not None:
                client.close()
    return _merge(path, spec, table, history, step, changed, text, work)


def _merge(path: Path, spec: B.RunSpec, table: pa.Table, history: list[dict], step: int,
           changed: dict, text: str, work: Path) -> Escalation:
    parts = sorted(work.glob("part-*.parquet")) if work.exists() else []
    n = table.num_rows
    if "step" not in table.column_names:
        table = table.append_column("step", pa.array(np.zeros(n, dtype=np.int32)))
    if "step_options" not in table.column_names:
        table = table.append_column("step_options", pa.array([""] * n, pa.string()))
    table = table.set_column(table.column_names.index("step"), "step",
                             pc.fill_null(table["step"], 0).cast(pa.int32()))
    table = table.set_column(table.column_names.index("step_options"), "step_options",
                             pc.fill_null(table["step_options"], ""))
    wins = losses = tried = 0
    if parts:
        new = pa.concat_tables([pq.read_table(p) for p in parts], promote_options="default")
        new = new.append_column("step", pa.array(np.full(new.num_rows, step, dtype=np.int32)))
        new = new.append_column("step_options", pa.array([text] * new.num_rows, pa.string()))
        new_seeds = set(new["seed"].to_pylist())
        outcome = table["outcome"].to_pylist()
        keep = [i for i, s in enumerate(table["seed"].to_pylist())
                if s not in new_seeds or outcome[i] != "unknown"]
        replaced = set(table["seed"].to_pylist()) - {table["seed"][i].as_py() for i in keep}
        new = new.filter(pc.is_in(new["seed"], pa.array(sorted(replaced), pa.int64())))
        tried = new.num_rows
        results = new["outcome"].to_pylist()
        wins, losses = results.count("win"), results.count("loss")
        merged = pa.concat_tables([table.take(pa.array(keep, pa.int64())),
                                   new.select(table.column_names).cast(table.schema)])
        table = merged.sort_by("seed")
    if tried:
        history = history + [{"step": step, "options": changed, "tried": tried,
                              "settled": wins + losses, "wins": wins, "losses": losses}]
    meta = dict(table.schema.metadata or {})
    meta[B.META_KEY] = spec.to_json().encode()
    meta[ESCALATIONS_KEY] = json.dumps(history).encode()
    if parts or tried:
        B.write_atomic(table.replace_schema_metadata(meta), path)
    if work.exists():
        shutil.rmtree(work)
    left = table["outcome"].to_pylist().count("unknown")
    return Escalation(str(path), step if tried else len(history), changed, tried,
                      wins + losses, wins, losses, left, table.num_rows)


def escalation_lines(frame) -> list[str]:
    """The summary's account of escalations: per step and options, deals re-solved and how many
    of them are now decided (from a run's ``step`` and ``step_options`` columns)."""
    if "step" not in frame.columns:
        return []
    again = frame[frame["step"].fillna(0) > 0]
    lines = []
    for (step, options), rows in again.groupby(["step", "step_options"], sort=True):
        wins = int((rows["outcome"] == "win").sum())
        losses = int((rows["outcome"] == "loss").sum())
        lines.append(f"  escalation {int(step)} ({options}): {len(rows):,} unknown deals tried "
                     f"again, {wins + losses:,} settled ({wins:,} wins, {losses:,} losses), "
                     f"{len(rows) - wins - losses:,} still unknown")
    return lines


def report_dict(e: Escalation) -> dict:
    return asdict(e)

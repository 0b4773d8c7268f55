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

With ``sample=K`` (``winnable resolve RUN --sample K [--seed S]``) only a seeded uniform random
sample of K of the unknown rows is escalated (``shuffle.sample_indices``: the same run and seed
give the same sample), for the stratified estimate of the win rate (``stats.stratified_estimate``):
the rows get a column ``stratum`` saying how the run stood when the sample was drawn
(``decided``, ``unknown``, ``sampled``: an unknown row drawn), and the metadata records the
sample (``SAMPLE_KEY``).  The same command again, with other options (e.g. a larger budget),
escalates the same sample's deals still unknown; another size or seed draws a new sample from
the deals unknown then.

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
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from ..games import get_game
from ..shuffle import sample_indices
from .batch import solve_chunks
from .cluster import check_where_to_run
from .pool import exit_if_spawning
from .progress import warn
from .spec import BatchError, RunSpec, options_text, resolve_dir
from .store import (META_KEY, merge_parts, readable_spec, startup, total_startup, with_startup,
                    write_atomic)

ESCALATIONS_KEY = b"winnable.escalations"
SAMPLE_KEY = b"winnable.sample"  # {"seed", "size", "drawn", "stratum", "deals"} of the sample
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
    sample: dict | None = None  # the sample escalated (SAMPLE_KEY's record), if one

    def text(self) -> str:
        opts = option_text(self.options)
        which = "unknown deals"
        if self.sample is not None:
            s = self.sample
            which = (f"sampled deals (a sample of {s['drawn']:,} of the {s['stratum']:,} deals "
                     f"unknown when it was drawn, seed {s['seed']})")
        if not self.tried:
            return (f"{self.file}: nothing to solve again with {opts}: the {which} still "
                    "unknown were each already tried with these options "
                    f"({self.unknown_left:,} of {self.deals:,} deals unknown)")
        return (f"{self.file}: step {self.step} ({opts}): {self.tried:,} {which} tried, "
                f"{self.settled:,} settled ({self.wins:,} wins, {self.losses:,} losses); "
                f"{self.unknown_left:,} of {self.deals:,} deals still unknown")




def option_text(options: Mapping[str, Any]) -> str:
    """Options as ``key=value`` words, sorted by key."""
    return options_text(sorted(options.items()))


def escalations(path: Path) -> list[dict]:
    """The escalations a run file records (oldest first)."""
    meta = pq.read_schema(path).metadata or {}
    raw = meta.get(ESCALATIONS_KEY)
    return json.loads(raw) if raw else []


def _done_seeds(parts: Path) -> set[int]:
    done: set[int] = set()
    for part in sorted(parts.glob("part-*.parquet")):
        done.update(pq.read_table(part, columns=["seed"])["seed"].to_pylist())
    return done


def resolve_file(path: str | os.PathLike, options: Mapping[str, Any],
                 workers: int | None = None, scheduler: str | None = None,
                 chunk: int | None = None, progress: bool = True, sample: int | None = None,
                 seed: int = 1) -> Escalation:
    """Re-solve the unknown rows of one run file with its options changed by ``options``; with
    ``sample``, only a seeded uniform sample of that many of them (module docstring), from
    which ``summarize`` then gives the stratified estimate of the win rate.  Returns what the
    escalation did (``Escalation``; ``text()`` says it in one line).

    Examples:
        >>> from winnable import read_runs, resolve_file, solve_batch, summarize
        >>> rows = solve_batch("addario", n=200, solver="thoughtful", options={"budget": 20},
        ...                    workers=1, progress=False, out="runs/addario_small.parquet")
        >>> int((rows.outcome == "unknown").sum())
        21
        >>> step = resolve_file("runs/addario_small.parquet", {"budget": 100_000},
        ...                     sample=10, workers=1, progress=False)
        >>> step.tried, step.wins, step.losses
        (10, 3, 7)
        >>> rate = summarize(read_runs(["runs/addario_small.parquet"]))[0].rate
        >>> rate.kind, round(rate.point, 4)
        ('estimate', 0.0965)
    """
    exit_if_spawning()
    path = Path(path)
    if sample is not None and sample < 1:
        raise BatchError(f"--sample must be at least 1 (the number of unknown deals to draw "
                         f"and escalate), got {sample}")
    if not 0 <= seed < 2**64:
        raise BatchError(f"--seed must be a whole number from 0 to 2^64 - 1, got {seed}")
    if not path.exists():
        raise BatchError(f"no such file: {path}")
    if not options:
        raise BatchError("give the options to change with --option KEY=VALUE, e.g. "
                         "--option budget=10000000")
    check_where_to_run(workers, scheduler)
    if chunk is not None and chunk < 1:
        raise BatchError(f"--chunk must be at least 1, got {chunk}")
    spec = readable_spec(path)
    if spec is None:
        raise BatchError(f"{path} is not a winnable run file (made by solve-batch)")
    game = get_game(spec.game)
    if spec.solver in game.solvers and not game.solvers[spec.solver].undecided:
        raise BatchError(f"{path} is a run of {spec.game} solver {spec.solver}, which has no "
                         "budget past which it leaves a deal unknown: there is nothing to "
                         "escalate")
    current = game.engine_version(spec.solver)
    if spec.engine_version != current:
        raise BatchError(
            f"{path} was made by engine version {spec.engine_version} of {spec.game} "
            f"{spec.solver}, this winnable has version {current}: solve its deals again with "
            "solve-batch (a new --out) instead")
    merge_parts(path)  # finished chunks of an interrupted batch of this file
    base = dict(spec.options)
    unknown_options = sorted(set(options) - set(base))
    if unknown_options:
        raise BatchError(f"solver {spec.solver} of {spec.game} has no option "
                         f"{', '.join(unknown_options)}; its options: {', '.join(base)}")
    wanted = RunSpec.make(spec.game, spec.variant, spec.solver, {**base, **options},
                          spec.numbering)
    changed = {k: v for k, v in wanted.options if base.get(k) != v}
    if not changed:
        raise BatchError(f"those are the run's own options ({option_text(base)}): give "
                         "other values, e.g. a larger budget")
    table = pq.read_table(path)
    history = escalations(path)
    step = len(history) + 1
    text = option_text(changed)
    outcome = table["outcome"].to_pylist()
    previous = (table["step_options"].to_pylist() if "step_options" in table.column_names
                else [""] * table.num_rows)
    seeds = table["seed"].to_pylist()
    drawn = _draw(path, table, sample, seed) if sample is not None else None
    wanted_seeds = set(drawn.seeds) if drawn is not None else set(seeds)
    todo = sorted(s for s, o, p in zip(seeds, outcome, previous)
                  if o == "unknown" and (p or "") != text and s in wanted_seeds)
    work = resolve_dir(path)
    job = {"options": changed, "spec": json.loads(wanted.to_json())}
    if drawn is not None:
        job["sample"] = {**drawn.record, "seeds": drawn.seeds}
    if (work / "run.json").exists():
        pending = json.loads((work / "run.json").read_text())
        if pending != job:
            what = option_text(pending["options"])
            if "sample" in pending:
                what += (f" on a sample of {pending['sample']['drawn']:,} unknown deals (--sample "
                         f"{pending['sample']['size']} --seed {pending['sample']['seed']})")
            raise BatchError(
                f"{work} holds an unfinished escalation with {what}: rerun that one to finish "
                "it (or delete the directory to drop it)")
    if todo:
        work.mkdir(exist_ok=True)
        (work / "run.json").write_text(json.dumps(job))
        done = _done_seeds(work)
        left = [s for s in todo if s not in done]
        size = chunk or DEFAULT_CHUNK
        chunks = [left[i:i + size] for i in range(0, len(left), size)]
        solve_chunks(wanted, chunks, work, workers, scheduler, progress,
                     f"resolve {spec.game} {spec.solver}", len(todo), len(todo) - len(left))
    return _merge(path, spec, table, history, step, changed, text, work, drawn)


@dataclass(frozen=True)
class _Drawn:
    """The sample an escalation works on: its record (``SAMPLE_KEY``), its deals, and whether
    it is drawn now (else it is the file's own, continued)."""
    record: dict
    seeds: list[int]
    new: bool


def sample_record(path: Path) -> dict | None:
    """The sample a run file records (``SAMPLE_KEY``), if any."""
    raw = (pq.read_schema(path).metadata or {}).get(SAMPLE_KEY)
    return json.loads(raw) if raw else None


def _draw(path: Path, table: pa.Table, size: int, seed: int) -> _Drawn:
    """The file's sample if it was drawn with this size and seed (so the same command, with a
    larger budget, escalates the same deals), else a new one from the deals unknown now."""
    seeds = table["seed"].to_pylist()
    record = sample_record(path)
    if (record is not None and (record["size"], record["seed"]) == (size, seed)
            and "stratum" in table.column_names):
        return _Drawn(record, [s for s, k in zip(seeds, table["stratum"].to_pylist())
                               if k == "sampled"], False)
    unknown = [s for s, o in zip(seeds, table["outcome"].to_pylist()) if o == "unknown"]
    if not unknown:
        raise BatchError(f"{path} has no unknown deals: its win rate is exact, there is "
                         "nothing to sample")
    if size > len(unknown):
        warn(f"--sample {size:,} is more than the {len(unknown):,} unknown deals of {path}: "
               f"all {len(unknown):,} are taken")
    picked = sample_indices(len(unknown), min(size, len(unknown)), seed)
    return _Drawn({"seed": seed, "size": size, "drawn": len(picked), "stratum": len(unknown),
                   "deals": len(seeds)}, [unknown[i] for i in picked], True)


def _strata(table: pa.Table, drawn: _Drawn) -> pa.Array:
    """The ``stratum`` column of a sample drawn now: how each row stands before it is
    escalated."""
    sampled = set(drawn.seeds)
    return pa.array(["sampled" if s in sampled else "unknown" if o == "unknown" else "decided"
                     for s, o in zip(table["seed"].to_pylist(), table["outcome"].to_pylist())],
                    pa.string())


def _merge(path: Path, spec: RunSpec, table: pa.Table, history: list[dict], step: int,
           changed: dict, text: str, work: Path, drawn: _Drawn | None = None) -> Escalation:
    parts = sorted(work.glob("part-*.parquet")) if work.exists() else []
    n = table.num_rows
    meta = dict(table.schema.metadata or {})  # the file's, whatever the steps below keep
    ready = startup(table)  # the file's start-up, to which the escalation's adds
    if drawn is not None and drawn.new:
        strata = _strata(table, drawn)
        table = (table.set_column(table.column_names.index("stratum"), "stratum", strata)
                 if "stratum" in table.column_names else table.append_column("stratum", strata))
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
        found = [pq.read_table(p) for p in parts]
        seconds, processes = total_startup(found)
        ready = {"seconds": ready["seconds"] + seconds,
                 "processes": ready["processes"] + processes}
        new = pa.concat_tables(found, promote_options="default")
        new = new.append_column("step", pa.array(np.full(new.num_rows, step, dtype=np.int32)))
        new = new.append_column("step_options", pa.array([text] * new.num_rows, pa.string()))
        if "stratum" in table.column_names:  # a re-solved row keeps its stratum
            stratum = dict(zip(table["seed"].to_pylist(), table["stratum"].to_pylist()))
            new = new.append_column("stratum", pa.array(
                [stratum[s] for s in new["seed"].to_pylist()], pa.string()))
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
        entry = {"step": step, "options": changed, "tried": tried, "settled": wins + losses,
                 "wins": wins, "losses": losses}
        if drawn is not None:
            entry["sample"] = {k: drawn.record[k] for k in ("size", "seed")}
        history = history + [entry]
    meta[META_KEY] = spec.to_json().encode()
    meta[ESCALATIONS_KEY] = json.dumps(history).encode()
    if drawn is not None:
        meta[SAMPLE_KEY] = json.dumps(drawn.record).encode()
    if parts or tried or (drawn is not None and drawn.new):
        table = with_startup(table.replace_schema_metadata(meta), ready["seconds"],
                             ready["processes"])
        write_atomic(table, path)
    if work.exists():
        shutil.rmtree(work)
    left = table["outcome"].to_pylist().count("unknown")
    return Escalation(str(path), step if tried else len(history), changed, tried,
                      wins + losses, wins, losses, left, table.num_rows,
                      drawn.record if drawn is not None else None)


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

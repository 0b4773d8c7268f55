"""Variant sweeps: one game and solver under every combination of some rule flags, on the same
deals, with one table, one table of paired differences and one figure.

    from winnable.runs.sweep import sweep
    result = sweep("nineball", n=10_000, grid={"kitchen_per_group": [1, 2, 3]}, workers=2)
    print(result.summary)            # one row per rule set
    print(result.paired)             # for each pair of rule sets, the deals whose outcome moves

Each rule set is an ordinary batch (``solve_batch``) stored as its own Parquet file under
``<out_dir>/runs/``, so a sweep resumes like a batch: rerunning solves only the deals not stored
yet.  As ``winnable summary`` does, an unknown deal is settled by rule-set implication where
another rule set of the sweep decides it (``winnable.implication``).
"""

from __future__ import annotations

import itertools
import os
import shlex
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from .. import plot
from ..games import get_game
from ..implication import apply_implications
from ..report import markdown
from ..stats import Summary, mean_text, paired_outcomes, rate_of_row, rate_text, summarize
from ..variants import VariantError
from .batch import solve_batch
from .pool import exit_if_spawning
from .spec import RunSpec, options_text, run_path
from .store import stored_seeds

PAIRED_COLUMNS = {
    "rules_a": "rules A", "rules_b": "rules B", "deals": "common deals",
    "both_won": "won under both", "won_a_not_b": "won under A, not under B",
    "won_b_not_a": "won under B, not under A", "neither_won": "won under neither",
    "changed": "outcome changed",
}


def parse_grid(items: Iterable[str]) -> dict[str, list[str]]:
    """``key=v1,v2`` items (CLI) as {key: [v1, v2]}; values split on ``|`` if there is one,
    else on ``,``."""
    grid: dict[str, list[str]] = {}
    for item in items:
        key, sep, values = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise VariantError(f"grid {item!r} is not key=v1,v2 (e.g. kitchen_per_group=1,3)")
        parts = [v.strip() for v in values.split("|" if "|" in values else ",")]
        if not all(parts):
            raise VariantError(f"grid {item!r} has an empty value (values are separated by "
                               "commas, or by | when a value holds commas)")
        if key in grid:
            raise VariantError(f"grid key {key!r} is given twice: list all its values in one "
                               "--grid")
        grid[key] = parts
    if not grid:
        raise VariantError("give at least one --grid key=v1,v2")
    return grid


def format_grid(grid: Mapping[str, Sequence[Any]]) -> list[str]:
    """The ``--grid`` arguments that ``parse_grid`` reads back as ``grid``."""
    out = []
    for key, values in grid.items():
        values = [str(v) for v in values]
        sep = "|" if any("," in v for v in values) else ","
        out.append(f"{key}={sep.join(values)}")
    return out


@dataclass
class Combination:
    """One rule set of a sweep: the grid values it takes, its run identity and its file."""

    values: dict[str, str]
    spec: RunSpec
    path: Path


def combinations(game: str, grid: Mapping[str, Sequence[Any]], variant=None,
                 solver: str | None = None, options: Mapping[str, Any] | None = None,
                 runs_dir: str | os.PathLike = "runs") -> list[Combination]:
    """Every combination of the grid values (the first key varies slowest), each checked to be
    valid rules for the game before anything is solved."""
    g = get_game(game)
    fixed = g.rules(variant).changed()
    both = sorted(set(fixed) & set(grid))
    if both:
        raise VariantError(f"{', '.join(both)} is both a fixed --variant and a --grid key")
    out: list[Combination] = []
    seen: dict[str, dict[str, str]] = {}
    for picked in itertools.product(*grid.values()):
        values = {k: str(v) for k, v in zip(grid, picked)}
        spec = RunSpec.make(game, {**fixed, **values}, solver, options)
        if spec.variant in seen:
            raise VariantError(f"the grid gives the same rules ({spec.variant}) twice: "
                               f"{options_text(seen[spec.variant].items())} and "
                               f"{options_text(values.items())}; drop one value")
        seen[spec.variant] = values
        out.append(Combination(values, spec, run_path(runs_dir, spec)))
    return out


def default_out_dir(game: str, grid: Mapping[str, Any], variant=None, solver: str | None = None,
                    options: Mapping[str, Any] | None = None) -> Path:
    """``runs/sweeps/<game>_<solver>[_<fixed rules>][_<options changed>]_by_<grid keys>``
    (under ``runs/``, which git ignores: a user's runs are not the project's results)."""
    spec = RunSpec.make(game, variant, solver, options)
    return Path("runs") / "sweeps" / f"{spec.slug()}_by_{'+'.join(grid)}"


@dataclass
class SweepResult:
    out_dir: Path
    summary: pd.DataFrame          # one row per rule set (numbers; summary.csv)
    paired: pd.DataFrame           # one row per pair of rule sets (paired.csv)
    rows: pd.DataFrame             # every deal of every rule set (after implication)
    files: list[Path] = field(default_factory=list)      # tables and figures written
    runs: list[Path] = field(default_factory=list)       # the Parquet file of each rule set
    solved: dict[str, int] = field(default_factory=dict)  # rules -> deals solved by this call
    settled: int = 0               # unknown deals settled by rule-set implication


def sweep(game: str, n: int, grid: Mapping[str, Sequence[Any]] | Sequence[str], start: int = 1,
          variant=None, solver: str | None = None, options: Mapping[str, Any] | None = None,
          workers: int | None = None, out_dir: str | os.PathLike | None = None,
          progress: bool = True, chunk_size: int | None = None) -> SweepResult:
    """Solve deals start..start+n-1 under every combination of the ``grid`` values (on top of
    the fixed ``variant``) and write ``summary``, ``paired`` (CSV and Markdown) and ``winrate``
    (PNG and SVG) into ``out_dir``; the tables come back as DataFrames (``SweepResult``).

    Examples:
        >>> from winnable import sweep
        >>> result = sweep("nineball", n=200, grid={"kitchen_per_group": [1, 3]}, workers=1,
        ...                progress=False, out_dir="sweeps/nineball")
        >>> result.summary[["rules", "wins", "losses"]]
                         rules  wins  losses
        0  kitchen_per_group=1   194       6
        1              default   198       2
        >>> [path.name for path in result.files][:2]
        ['summary.csv', 'summary.md']
    """
    exit_if_spawning()
    if not isinstance(grid, Mapping):
        grid = parse_grid(grid)
    out_dir = Path(out_dir) if out_dir is not None else default_out_dir(game, grid, variant,
                                                                        solver, options)
    combos = combinations(game, grid, variant, solver, options, out_dir / "runs")
    frames, solved = [], {}
    for combo in combos:
        done = stored_seeds(combo.path)
        solved[combo.spec.variant] = n - int(((done >= start) & (done < start + n)).sum())
        rows = solve_batch(game, n=n, start=start, variant=combo.spec.variant, solver=solver,
                           workers=workers, out=combo.path, options=options,
                           chunk_size=chunk_size, progress=progress)
        frames.append(rows.assign(options=options_text(combo.spec.options)))
    rows, settled = apply_implications(pd.concat(frames, ignore_index=True))
    g = get_game(game)
    parts = [rows[rows["variant"] == c.spec.variant] for c in combos]
    summaries = [summarize(part, g.summary_means)[0] for part in parts]
    summary = summary_frame(combos, summaries)
    paired = paired_frame([c.spec.variant for c in combos], parts)
    command = sweep_command(game, n, grid, start, variant, combos[0].spec.solver, options,
                            out_dir)
    title = f"{g.title}: solver {combos[0].spec.solver} under {len(combos)} rule sets"
    figure = plot.winrate(rows, title=f"{g.title}: win rate by {', '.join(grid)}")
    files = write_sweep(out_dir, summary, paired, grid, title, command, settled)
    files += plot.save(figure, out_dir / "winrate")
    return SweepResult(out_dir, summary, paired, rows, files, [c.path for c in combos], solved,
                       settled)


def summary_frame(combos: Sequence[Combination], summaries: Sequence[Summary]) -> pd.DataFrame:
    rows = []
    for combo, s in zip(combos, summaries):
        row = {**combo.values, "rules": s.variant}
        row.update({k: v for k, v in s.as_row().items()
                    if k not in ("game", "solver", "variant")})
        row["file"] = combo.path.name
        rows.append(row)
    return pd.DataFrame(rows)


def paired_frame(labels: Sequence[str], parts: Sequence[pd.DataFrame]) -> pd.DataFrame:
    """For each pair of rule sets (A before B in sweep order), on the deals both hold: how many
    are won under both, under one only (each direction), under neither, and how many have
    another outcome (win, loss, unknown) under B than under A."""
    rows = []
    for (i, a), (j, b) in itertools.combinations(enumerate(labels), 2):
        pairs = paired_outcomes(parts[i], parts[j])
        won_a, won_b = pairs["a"] == "win", pairs["b"] == "win"
        rows.append({"rules_a": a, "rules_b": b, "deals": len(pairs),
                     "both_won": int((won_a & won_b).sum()),
                     "won_a_not_b": int((won_a & ~won_b).sum()),
                     "won_b_not_a": int((won_b & ~won_a).sum()),
                     "neither_won": int((~won_a & ~won_b).sum()),
                     "changed": int((pairs["a"] != pairs["b"]).sum())})
    return pd.DataFrame(rows, columns=list(PAIRED_COLUMNS))


def won_matrix(paired: pd.DataFrame, labels: Sequence[str]) -> pd.DataFrame:
    """Deals won under the row's rules and not under the column's (from ``paired_frame``)."""
    matrix = pd.DataFrame("", index=list(labels), columns=list(labels))
    for row in paired.itertuples():
        matrix.loc[row.rules_a, row.rules_b] = f"{row.won_a_not_b:,}"
        matrix.loc[row.rules_b, row.rules_a] = f"{row.won_b_not_a:,}"
    for label in labels:
        matrix.loc[label, label] = "-"
    return matrix


def sweep_command(game: str, n: int, grid: Mapping[str, Sequence[Any]], start: int, variant,
                  solver: str, options: Mapping[str, Any] | None, out_dir: Path) -> str:
    """The command line that reruns (or resumes) this sweep."""
    args = ["winnable", "sweep", "--game", game, "--n", str(n)]
    if start != 1:
        args += ["--start", str(start)]
    for item in format_grid(grid):
        args += ["--grid", item]
    for key, value in get_game(game).rules(variant).changed().items():
        args += ["--variant", f"{key}={value}"]
    args += ["--solver", solver]
    for key, value in (options or {}).items():
        args += ["--option", f"{key}={value}"]
    args += ["--out-dir", str(out_dir)]
    return shlex.join(args)


def _thousands(df: pd.DataFrame) -> pd.DataFrame:
    """The integer columns as text with thousands separators (for Markdown)."""
    counts = df.select_dtypes("integer").columns.difference(["first_seed", "last_seed"])
    return df.assign(**{c: df[c].map("{:,}".format) for c in counts})


def write_sweep(out_dir: Path, summary: pd.DataFrame, paired: pd.DataFrame,
                grid: Mapping[str, Any], title: str, command: str, settled: int) -> list[Path]:
    """summary.csv/.md and paired.csv/.md in ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    first, last = int(summary["first_seed"].min()), int(summary["last_seed"].max())
    intro = (f"Deals {first}-{last} under each rule set (the same deals; N = {last - first + 1:,} "
             f"each). Reproduce or resume: `{command}`\n")
    if settled:
        intro += (f"\n{settled:,} unknown deals were settled by rule-set implication (a win under "
                  "stricter rules is a win under looser ones; a loss under looser rules is a loss "
                  "under stricter ones).\n")
    table = _thousands(summary).assign(
        **{"win rate (95% CI)": [rate_text(rate_of_row(row)) for _, row in summary.iterrows()],
           "mean score (95% CI)": list(map(mean_text, summary.mean_score, summary.score_low,
                                           summary.score_high, [3] * len(summary),
                                           summary.score_lower_bound))})
    columns = {**{k: k for k in grid}, "rules": "rules", "deals": "N", "wins": "wins",
               "losses": "losses", "unknowns": "unknown", "win rate (95% CI)": "win rate (95% CI)",
               "mean score (95% CI)": "mean score (95% CI)"}
    labels = list(summary["rules"])
    matrix = won_matrix(paired, labels).reset_index(names="won under ↓, not won under →")
    texts = {
        "summary": (f"# {title}\n\n{intro}\n" + markdown(table, columns)
                    + "\nWin rate: wins / all deals, with its 95% Wilson interval. Where a "
                      "rule set has unknown deals (not decided within the budget), the rate lies "
                      "between two bounds, unknowns counted as losses and as wins, and the "
                      "interval runs from Wilson's lower bound of the first to Wilson's upper "
                      "bound of the second (a stratified estimate where a sample of the unknowns "
                      "was escalated: `winnable resolve --sample`). Mean score: mean ± 1.96 "
                      "standard errors; a lower bound where deals are unknown (an unknown deal "
                      "counts the best score found).\n"),
        "paired": (f"# {title}: paired outcomes\n\n{intro}\n" + markdown(_thousands(paired), PAIRED_COLUMNS)
                   + "\nDeals won under the row's rules and not under the column's:\n\n"
                   + markdown(matrix, {c: c for c in matrix.columns})),
    }
    files = []
    for name, frame in (("summary", summary), ("paired", paired)):
        frame.to_csv(out_dir / f"{name}.csv", index=False)
        (out_dir / f"{name}.md").write_text(texts[name])
        files += [out_dir / f"{name}.csv", out_dir / f"{name}.md"]
    return files

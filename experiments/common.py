"""Shared by the experiment scripts: run batches, write their summary tables and draw the
headline figures."""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from pathlib import Path

import pandas as pd

from winnable import get_game, plot, summarize
from winnable.report import summary_table, write_tables
from winnable.runs.batch import solve_run
from winnable.runs.read import read_runs
from winnable.stats import paired_difference, paired_outcomes
from winnable.stopping import scripts_stop_in_one_line

ROOT = Path(__file__).resolve().parent.parent
FIGURE_DPI = 100  # keeps a headline PNG at tens of kB


def arguments(default_n: int, description: str, **counts: int | tuple[str, str]
              ) -> argparse.Namespace:
    """Command-line options of an experiment; ``counts`` adds more deal counts (name ->
    default), e.g. for slower solvers, or other options (name -> (default text, help))."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--n", type=int, default=default_n, help="deals per run")
    for name, default in counts.items():
        flag = f"--{name.replace('_', '-')}"
        if isinstance(default, tuple):
            parser.add_argument(flag, default=default[0], help=default[1])
            continue
        parser.add_argument(flag, type=int, default=default,
                            help=f"deals per run ({name.replace('_', ' ')})")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--runs-dir", default=str(ROOT / "runs"),
                        help="where per-deal Parquet files go (not committed)")
    parser.add_argument("--results-dir", default=str(ROOT / "results"))
    args = parser.parse_args()
    scripts_stop_in_one_line()
    return args


def run_all(runs: list[tuple[str, str, dict]], args: argparse.Namespace, stem: str, title: str,
            notes: str = "", means: tuple[str, ...] = (), n: int | None = None) -> list[Path]:
    """Solve deals 1..n (default ``--n``) for each (game, solver, rules), or 1..count for a
    run given as (game, solver, rules, count), write results/<stem>.csv and .md, and return the
    run files (per-deal rows)."""
    summaries, files = [], []
    for game, solver, variant, *count in runs:
        df = solve_run(game, count[0] if count else (n or args.n), variant, solver,
                       runs_dir=args.runs_dir, workers=args.workers)
        files.append(Path(df.attrs["path"]))
        summaries += summarize(df, get_game(game).summary_means)
        print(summaries[-1].text(), flush=True)
    table = summary_table(summaries)
    write_tables(table, Path(args.results_dir) / stem, title, notes, means)
    return files


def player_table(df: pd.DataFrame, players: Sequence[str]) -> pd.DataFrame:
    """The summary table of the runs in ``df`` (each summary printed), by rules and then by
    player in the order of ``players``."""
    summaries = summarize(df)
    for s in summaries:
        print(s.text(), flush=True)
    table = summary_table(summaries)
    table["order"] = table.solver.map(list(players).index)
    return table.sort_values(["variant", "order"]).drop(columns="order")


def paired_wins(rows: pd.DataFrame, other: pd.DataFrame) -> dict:
    """Two players on the deals both played: the deals won by ``rows``' player only and by the
    other's only, and the paired difference of their win rates (``rows`` minus ``other``) with
    its 95% interval (``stats.paired_difference``)."""
    pairs = paired_outcomes(other, rows)  # a: the other player, b: this one
    only_player = int(((pairs.b == "win") & (pairs.a != "win")).sum())
    only_other = int(((pairs.a == "win") & (pairs.b != "win")).sum())
    d, low, high = paired_difference(only_other, only_player, len(pairs))
    return {"deals": len(pairs), "won_by_player_only": only_player,
            "won_by_other_only": only_other, "difference": d, "low": low, "high": high}


def verdict_changes(both: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Of deals solved by two versions (``outcome_old``, ``outcome_new``, by seed): those won by
    one and lost by the other (a bug in one of them), those the old one decided and the new one
    leaves unknown, and those the new one decides and the old one left unknown."""
    decided_old = both.outcome_old.isin(["win", "loss"])
    decided_new = both.outcome_new.isin(["win", "loss"])
    flips = both[decided_old & decided_new & (both.outcome_old != both.outcome_new)]
    return flips, both[decided_old & ~decided_new], both[~decided_old & decided_new]


def points_text(difference: float, low: float, high: float) -> str:
    """A paired difference of win rates as a table cell, in points: ``+0.40 [-0.56, +1.36]``."""
    return f"{100 * difference:+.2f} [{100 * low:+.2f}, {100 * high:+.2f}]"


def rows_of(files: Sequence[Path], extra: Sequence[str] = ()) -> pd.DataFrame:
    """The per-deal rows a figure needs (not the moves), of every run file."""
    return read_runs(files, columns=[*plot.COLUMNS, *extra])


def pick(rows: pd.DataFrame, solver: str, rules: Mapping | None = None) -> pd.DataFrame:
    """The rows of one run among ``rows``: its solver and rules (a mapping of flags)."""
    game = get_game(rows["game"].iloc[0])
    label = game.rules(rules).label
    return rows[(rows["solver"] == solver) & (rows["variant"] == label)]


def save_figure(fig, folder: Path, name: str) -> list[Path]:
    """A headline figure as results/<game>/<name>.png and .svg."""
    written = plot.save(fig, folder / name, dpi=FIGURE_DPI)
    for path in written:
        print(f"wrote {path} ({path.stat().st_size / 1000:.0f} kB)", flush=True)
    return written


def headline_figures(rows: pd.DataFrame, folder: Path,
                     pairs: Mapping[str, tuple[pd.DataFrame, pd.DataFrame]] | None = None,
                     scores_of: pd.DataFrame | None = None) -> list[Path]:
    """The figures results/README.md shows for one game: ``winrate`` (every run of ``rows``),
    ``scores`` (the runs of ``scores_of``, default every run) and ``paired_<name>`` for each
    pair of runs on the same deals (e.g. strict rules against easy ones, a no-peek player
    against thoughtful)."""
    written = save_figure(plot.winrate(rows), folder, "winrate")
    written += save_figure(plot.scores(rows if scores_of is None else scores_of), folder,
                           "scores")
    for name, (a, b) in (pairs or {}).items():
        written += save_figure(plot.paired(pd.concat([a, b], ignore_index=True)), folder,
                               f"paired_{name}")
    return written

"""Shared by the experiment scripts: run batches, then write their summary tables."""

from __future__ import annotations

import argparse
from pathlib import Path

from winnable import get_game, summarize
from winnable.batch import solve_run
from winnable.report import summary_table, write_tables

ROOT = Path(__file__).resolve().parent.parent


def arguments(default_n: int, description: str, **counts: int) -> argparse.Namespace:
    """Command-line options of an experiment; ``counts`` adds more deal counts (name ->
    default), e.g. for slower solvers."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--n", type=int, default=default_n, help="deals per run")
    for name, default in counts.items():
        parser.add_argument(f"--{name.replace('_', '-')}", type=int, default=default,
                            help=f"deals per run ({name.replace('_', ' ')})")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--runs-dir", default=str(ROOT / "runs"),
                        help="where per-deal Parquet files go (not committed)")
    parser.add_argument("--results-dir", default=str(ROOT / "results"))
    return parser.parse_args()


def run_all(runs: list[tuple[str, str, dict]], args: argparse.Namespace, stem: str, title: str,
            notes: str = "", means: tuple[str, ...] = (), n: int | None = None) -> None:
    """Solve deals 1..n (default ``--n``) for each (game, solver, rules) and write
    results/<stem>.csv and .md."""
    summaries = []
    for game, solver, variant in runs:
        df = solve_run(game, n or args.n, variant, solver, runs_dir=args.runs_dir, workers=args.workers)
        summaries += summarize(df, get_game(game).summary_means)
        print(summaries[-1].text(), flush=True)
    table = summary_table(summaries)
    write_tables(table, Path(args.results_dir) / stem, title, notes, means)

"""Chinese Solitaire solved with every card known (thoughtful), strict and easy, on the same
deals; unknowns settled by rule-set implication where the other run decides them.  Writes
results/chinese/thoughtful.{csv,md}, results/chinese/effort.csv (nodes and seconds) and the
headline figures results/chinese/{winrate,scores,paired_rules}.{png,svg}."""

from pathlib import Path

import numpy as np
import pandas as pd

from common import arguments, headline_figures, pick
from winnable import summarize
from winnable.implication import apply_implications
from winnable.report import summary_table, write_tables
from winnable.runs.batch import solve_run
from winnable.runs.spec import RunSpec, run_file

DEALS = 100_000  # deals per run by default (experiments/chinese_nopeek.py reads its first ones)


def strict_run(runs_dir) -> Path:
    """Where this script keeps its strict thoughtful run (the other Chinese scripts' default
    source)."""
    return run_file(RunSpec.make("chinese", None, "thoughtful"), DEALS, runs_dir)

NOTES = """
`thoughtful` knows every card, face-down ones and the stock included: an upper bound on what any
player can win (the 33% and 50.42% in the text are human, no-peek figures). `unknown` = not
decided within the node budget; with unknowns the rate lies between two bounds (`(bounds)`:
every unknown lost, every unknown won) and the interval counts unknowns as losses (low end) and
as wins (high end); the share of decided deals won is not the rate (the unknowns are the hard
deals). `experiments/stratified.py` estimates the rate from a sample of the unknowns
(`stratified.md`). A mean score with unknowns is a lower bound (an unknown deal counts the best
score found). Unknowns are settled by rule-set implication where the other run decides them (won
in strict => won in easy; lost in easy => lost in strict).
"""

if __name__ == "__main__":
    args = arguments(DEALS, __doc__)
    raw = pd.concat([solve_run("chinese", args.n, variant, "thoughtful", runs_dir=args.runs_dir,
                               workers=args.workers) for variant in ({}, {"easy": True})],
                    ignore_index=True)
    df, settled = apply_implications(raw)
    summaries = summarize(df)
    for s in summaries:
        print(s.text())
    print(f"{settled} unknowns settled by implication")
    write_tables(summary_table(summaries), Path(args.results_dir) / "chinese/thoughtful",
                 f"Chinese Solitaire: thoughtful win rates ({args.n:,} deals each)",
                 NOTES + f"\n{settled} unknown deals were settled by implication.\n")
    effort = []
    for variant, part in raw.groupby("variant"):
        for column in ("nodes", "seconds"):
            values = part[column].to_numpy()
            effort.append({"variant": variant, "measure": column, "median": np.median(values),
                           "p99": np.quantile(values, 0.99), "max": values.max(),
                           "mean": values.mean()})
    pd.DataFrame(effort).to_csv(Path(args.results_dir) / "chinese/effort.csv", index=False)
    print(pd.DataFrame(effort).to_string(index=False))
    # Strict against easy on the same deals, unknowns settled by implication as in the table.
    headline_figures(df, Path(args.results_dir) / "chinese", pairs={
        "rules": (pick(df, "thoughtful"), pick(df, "thoughtful", {"easy": True}))})

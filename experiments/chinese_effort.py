"""What more effort buys the `sampling` no-peek player of Chinese Solitaire: its win rate at 1x,
4x and 16x the default effort (--factors), on the same deals 1..--n (default 1,000) and the same
play streams, strict and easy.  The effort of a decision is the number of samples of the unseen
cards solved (each with the thoughtful search at the player's node budget), so k x effort is
k times the default samples at the default budget.  Each row is paired against 1x on the same
deals (McNemar-style 95% interval, `winnable.stats.paired_difference`), with the mean seconds a
game (one core).  Writes results/chinese/nopeek_effort.{csv,md}; the runs are resumable files
under --runs-dir."""

from pathlib import Path

import pandas as pd

from common import arguments, paired_wins, points_text
from winnable.report import markdown
from winnable.stats import rate_text, win_rate
from winnable.runs.batch import solve_run
from winnable.solvers.chinese import nopeek as NP

RULES = ({}, {"easy": True})


def factor_rows(variant: dict, factor: int, args) -> pd.DataFrame:
    options = {} if factor == 1 else {"samples": NP.DEFAULT_SAMPLES * factor}
    rows = solve_run("chinese", args.n, variant, "sampling", options=options,
                     runs_dir=args.runs_dir, workers=args.workers)
    return rows.assign(factor=factor)


def effort_table(df: pd.DataFrame) -> pd.DataFrame:
    out = []
    for variant, part in df.groupby("variant", sort=False):
        base = part[part.factor == 1]
        for factor, rows in part.groupby("factor"):
            wins = int((rows.outcome == "win").sum())
            rate = win_rate(wins, len(rows) - wins, 0)  # a no-peek game is never unknown
            pair = paired_wins(rows, base)
            out.append({"variant": variant, "factor": factor,
                        "samples": NP.DEFAULT_SAMPLES * factor, "budget": NP.DEFAULT_BUDGET,
                        "deals": len(rows), "wins": wins, "win_rate": rate.point,
                        "win_low": rate.low, "win_high": rate.high,
                        "won_only_here": pair["won_by_player_only"],
                        "won_only_at_1x": pair["won_by_other_only"],
                        "difference": pair["difference"], "diff_low": pair["low"],
                        "diff_high": pair["high"], "seconds_per_game": rows.seconds.mean()})
    return pd.DataFrame(out)


def effort_markdown(table: pd.DataFrame, n: int) -> str:
    shown = pd.DataFrame({
        "rules": table.variant, "effort": table.factor.map(lambda k: f"{k}x"),
        "samples": table.samples, "deals": table.deals.map(lambda k: f"{k:,}"),
        "win rate (95% CI)": [rate_text(win_rate(w, d - w, 0))
                              for w, d in zip(table.wins, table.deals)],
        "won here only / at 1x only": [f"{a} / {b}" for a, b in
                                       zip(table.won_only_here, table.won_only_at_1x)],
        "against 1x, points (95% CI)": list(map(points_text, table.difference, table.diff_low,
                                                table.diff_high)),
        "s per game": table.seconds_per_game.map(lambda s: f"{s:.3f}")})
    return (f"# Chinese Solitaire `sampling`: what more effort buys ({n:,} deals)\n\n"
            + markdown(shown, {c: c for c in shown.columns})
            + "\nEffort: the samples of the unseen cards solved at each decision (default "
            f"{NP.DEFAULT_SAMPLES}, each searched with the thoughtful engine at "
            f"{NP.DEFAULT_BUDGET:,} nodes); the same deals and play streams at every effort. "
            "The difference against 1x is paired deal by deal (only the deals won at one effort "
            "only carry information). Seconds: the mean solver time a game, one core. Made by "
            f"`python experiments/chinese_effort.py --n {n}`.\n")


if __name__ == "__main__":
    args = arguments(1_000, __doc__, factors=("1,4,16", "effort factors, comma-separated; 1 "
                                                "(the default effort) is always run"))
    factors = sorted({1} | {int(k) for k in args.factors.split(",")})
    df = pd.concat([factor_rows(variant, k, args) for variant in RULES for k in factors],
                   ignore_index=True)
    table = effort_table(df)
    out = Path(args.results_dir) / "chinese"
    out.mkdir(parents=True, exist_ok=True)
    table.to_csv(out / "nopeek_effort.csv", index=False)
    text = effort_markdown(table, args.n)
    (out / "nopeek_effort.md").write_text(text)
    print(text)

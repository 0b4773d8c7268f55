"""Impossible: each player under the default rules, and the best player's win rate for every
combination of the fifteen rule and the new-pile penalty.  Writes results/impossible/players.*,
results/impossible/variants.* and the headline figures results/impossible/*.png, .svg."""

from pathlib import Path

import pandas as pd

from common import arguments, headline_figures, rows_of, run_all, save_figure
from winnable import plot
from winnable.report import markdown
from winnable.sweep import combinations

# The variant grid: every combination of the fifteen rule and the new-pile penalty.
GRID = {"fifteen": ("once", "unlimited", "off"), "new_pile_penalty": ("every", "beyond_nine")}
NOTES = """
Every game is seeded (game n replays exactly with `winnable solve --game impossible --seed n`).
`random` picks uniformly among the legal actions; `greedy` holds piles of 11+ cards until every
pile on the table can be picked up, uses a fifteen removal at once on the smallest pile, and
covers the pair that brings piles towards 11 cards; `lookahead` tries each action in rollouts
finished by `greedy` (the unseen deck reshuffled, never read).
"""

if __name__ == "__main__":
    args = arguments(1_000_000, __doc__)
    n_full = args.n
    # Players under the default rules.
    runs = [("impossible", solver, {}) for solver in ("random", "greedy", "lookahead")]
    players = run_all(runs, args, "impossible/players",
                      f"Impossible: players under the default rules ({n_full:,} games each)",
                      NOTES)
    folder = Path(args.results_dir) / "impossible"
    rows = rows_of(players, ("pickups", "new_piles", "steps"))
    headline_figures(rows, folder)
    save_figure(plot.means(rows), folder, "means")
    # The variant table: every player on every combination; the best by win rate is reported.
    rows = []
    cells: dict[str, list[Path]] = {}
    for combo in combinations("impossible", GRID):
        variant = combo.values
        for solver, n in (("random", n_full), ("greedy", n_full),
                          ("lookahead", max(1, n_full // 100))):
            args.n = n
            stem = f"impossible/grid/{solver}_{variant['fifteen']}_{variant['new_pile_penalty']}"
            cells.setdefault(solver, []).extend(
                run_all([("impossible", solver, variant)], args, stem, "Impossible grid cell"))
            summary = pd.read_csv(Path(args.results_dir) / f"{stem}.csv").iloc[0]
            rows.append({**summary, **variant})
    # The win rate of every rule set, one figure per player.
    for solver, files in cells.items():
        save_figure(plot.winrate(rows_of(files), title=f"Impossible: {solver}'s win rate by "
                                 "fifteen rule and new-pile penalty"), folder,
                    f"variants_{solver}")
    table = pd.DataFrame(rows)
    table.to_csv(Path(args.results_dir) / "impossible/variants_all.csv", index=False)
    best = (table.sort_values(["win_rate", "mean_score"], ascending=False)
            .groupby(["fifteen", "new_pile_penalty"], sort=False).head(1)
            .sort_values(["fifteen", "new_pile_penalty"]))
    best = best.assign(**{
        "best player": best.solver,
        "games": best.deals.map(lambda n: f"{n:,}"),
        "win rate (95% CI)": [f"{100 * p:.4f}% [{100 * lo:.4f}, {100 * hi:.4f}]"
                              for p, lo, hi in zip(best.win_rate, best.win_low, best.win_high)],
        "mean score": best.mean_score.map(lambda m: f"{m:.3f}"),
        "command": best.command.map(lambda c: f"`{c}`"),
    })
    columns = ["fifteen", "new_pile_penalty", "best player", "games", "win rate (95% CI)",
               "mean score", "command"]
    best[columns].to_csv(Path(args.results_dir) / "impossible/variants.csv", index=False)
    (Path(args.results_dir) / "impossible/variants.md").write_text(
        "# Impossible: the best player's win rate for each fifteen rule and new-pile penalty\n\n"
        + markdown(best, {c: c for c in columns})
        + "\nAll players' figures: `variants_all.csv`.\n" + NOTES)
    print((Path(args.results_dir) / "impossible/variants.md").read_text())

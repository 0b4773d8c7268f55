"""Impossible: each player under the default rules on the same games (deals 1..n of each run;
the slower players on the first of them), what each idea of the rollout players gains, how
games are lost, and for every combination of the fifteen rule and the new-pile penalty the best
player's win rate beside the thoughtful bound.  Writes results/impossible/players.*,
ideas.*, paired.*, variants.* and the headline figures results/impossible/*.png, .svg."""

from pathlib import Path

import numpy as np
import pandas as pd

from common import arguments, headline_figures, rows_of, run_all, save_figure
from winnable import plot, summarize
from winnable.report import markdown
from winnable.stats import Z95, rate_of_row, rate_text
from winnable.runs.batch import solve_run
from winnable.runs.read import read_runs
from winnable.runs.sweep import combinations

# The variant grid: every combination of the fifteen rule and the new-pile penalty.
GRID = {"fifteen": ("once", "unlimited", "off"), "new_pile_penalty": ("every", "beyond_nine")}
PLAYERS = ("random", "greedy", "lookahead", "halving", "thoughtful")
# The rollout players' ideas, each on the same games: (label, solver, options).
IDEAS = [("lookahead, 1 rollout, objective score", "lookahead", {"objective": "score"}),
         ("lookahead, 1 rollout (default)", "lookahead", {}),
         ("lookahead, 4 rollouts", "lookahead", {"rollouts": 4}),
         ("lookahead, 8 rollouts, objective score", "lookahead",
          {"rollouts": 8, "objective": "score"}),
         ("lookahead, 8 rollouts", "lookahead", {"rollouts": 8}),
         ("halving, budget 64 (default)", "halving", {})]
NOTES = """
Every game is seeded (game n replays exactly with `winnable solve --game impossible --seed n`),
and every run plays deals 1..n, so the runs share their first games.  `random` picks uniformly
among the legal actions; `greedy` holds piles of 11+ cards until every pile on the table can be
picked up, uses a fifteen removal at once on the smallest pile, and covers the pair that brings
piles towards 11 cards; `lookahead` tries each action in rollouts finished by `greedy` (the
unseen deck reshuffled, never read; the same reshuffles for every action) and takes the action
that wins most rollouts (ties: greedy's action, then the total score); `halving` spends a
budget of rollouts per decision by sequential halving; `thoughtful` knows the deck and every
future reshuffle and searches every choice (20,000 nodes a deal): its win rate bounds every
player's, its unknown deals counted as losses for the lower bound and as wins for the upper.
"""


def loss_causes(files):
    """Per run: games lost with the score at 0, and lost with points left (the deck ran out
    with no pile to take back)."""
    rows = read_runs(files, columns=["solver", "variant", "outcome", "score"])
    lost = rows[rows.outcome == "loss"]
    return (lost.assign(score_zero=lost.score <= 0, deck_empty=lost.score > 0)
            .groupby(["solver", "variant"], sort=False)[["score_zero", "deck_empty"]].sum()
            .astype(int).reset_index())


def paired(rows, a, b):
    """Deals won by ``b`` and not ``a`` and the reverse, on the deals both played, and the
    difference of their win rates with its 95% interval (paired, normal approximation)."""
    x = rows[rows.solver == a].set_index("seed").outcome == "win"
    y = rows[rows.solver == b].set_index("seed").outcome == "win"
    x, y = x.align(y, join="inner")
    n = len(x)
    only_b, only_a = int((y & ~x).sum()), int((x & ~y).sum())
    d = (only_b - only_a) / n
    se = np.sqrt(max(only_a + only_b - n * d * d, 0)) / n
    return {"pair": f"{b} vs {a}", "games": f"{n:,}", f"{a} wins": f"{int(x.sum()):,}",
            f"{b} wins": f"{int(y.sum()):,}", f"won by {b} only": f"{only_b:,}",
            f"won by {a} only": f"{only_a:,}",
            "difference (95% CI)": f"{100 * d:+.3f} [{100 * (d - Z95 * se):+.3f}, "
                                   f"{100 * (d + Z95 * se):+.3f}] points"}


if __name__ == "__main__":
    args = arguments(1_000_000, __doc__, lookahead_n=1_000_000, halving_n=20_000,
                     thoughtful_n=100_000, ideas_n=10_000, grid_n=200_000,
                     grid_slow_n=10_000)
    counts = {"random": args.n, "greedy": args.n, "lookahead": args.lookahead_n,
              "halving": args.halving_n, "thoughtful": args.thoughtful_n}
    folder = Path(args.results_dir) / "impossible"
    # The rollout players' ideas on the same games.
    ideas = []
    for label, solver, options in IDEAS:
        df = solve_run("impossible", args.ideas_n, None, solver, options, runs_dir=args.runs_dir,
                       workers=args.workers)
        s = summarize(df)[0]
        seconds = float(df.seconds.sum())
        ideas.append({"player": label, "games": f"{len(df):,}", "wins": s.wins,
                      "win rate (95% CI)": rate_text(s.rate),
                      "mean score": f"{df.score.mean():.3f}",
                      "games/s (one core)": f"{len(df) / seconds:,.0f}",
                      "options": " ".join(f"{k}={v}" for k, v in options.items()) or "-"})
        print(ideas[-1], flush=True)
    ideas = pd.DataFrame(ideas)
    ideas.to_csv(folder / "ideas.csv", index=False)
    (folder / "ideas.md").write_text(
        f"# Impossible: what each idea of the rollout players gains (deals 1-{args.ideas_n:,}, "
        "default rules)\n\n" + markdown(ideas, {c: c for c in ideas.columns})
        + "\nEach row: `solve-batch --game impossible --solver <player> --n "
        f"{args.ideas_n} --option <options>`.  Speeds are search time per game in the run "
        "(the machine's two cores were shared).\n")
    # The variant table: every player on every combination; the best by win rate is reported
    # beside the thoughtful bound.
    rows = []
    cells: dict[str, list[Path]] = {}
    for combo in combinations("impossible", GRID):
        variant = combo.values
        for solver, n in (("random", args.grid_n), ("greedy", args.grid_n),
                          ("lookahead", args.grid_slow_n), ("thoughtful", args.grid_slow_n)):
            args.n = n
            stem = f"impossible/grid/{solver}_{variant['fifteen']}_{variant['new_pile_penalty']}"
            cells.setdefault(solver, []).extend(
                run_all([("impossible", solver, variant)], args, stem, "Impossible grid cell"))
            summary = pd.read_csv(Path(args.results_dir) / f"{stem}.csv").iloc[0]
            rows.append({**summary, **variant})
    for solver, files in cells.items():
        save_figure(plot.winrate(rows_of(files), title=f"Impossible: {solver}'s win rate by "
                                 "fifteen rule and new-pile penalty"), folder,
                    f"variants_{solver}")
    table = pd.DataFrame(rows)
    table.to_csv(folder / "variants_all.csv", index=False)
    players = table[table.solver != "thoughtful"]
    bound = table[table.solver == "thoughtful"].set_index(["fifteen", "new_pile_penalty"])
    # Best by the low end of the interval: a small run's lucky rate does not win the cell.
    best = (players.sort_values(["win_low", "mean_score"], ascending=False)
            .groupby(["fifteen", "new_pile_penalty"], sort=False).head(1)
            .sort_values(["fifteen", "new_pile_penalty"]))

    keys = list(zip(best.fifteen, best.new_pile_penalty))
    best = best.assign(**{
        "best player": best.solver,
        "games": best.deals.map(lambda n: f"{n:,}"),
        "win rate (95% CI)": [rate_text(rate_of_row(row)) for _, row in best.iterrows()],
        "mean score": best.mean_score.map(lambda m: f"{m:.3f}"),
        "thoughtful games": [f"{bound.loc[k].deals:,}" for k in keys],
        "thoughtful won, unknown": [f"{bound.loc[k].wins:,}, {bound.loc[k].unknowns:,}"
                                    for k in keys],
        "thoughtful bound (95% CI, unknowns both ways)": [
            f"[{100 * bound.loc[k].win_low:.2f}%, {100 * bound.loc[k].win_high:.2f}%]"
            for k in keys],
        "command": best.command.map(lambda c: f"`{c}`"),
    })
    columns = ["fifteen", "new_pile_penalty", "best player", "games", "win rate (95% CI)",
               "mean score", "thoughtful games", "thoughtful won, unknown",
               "thoughtful bound (95% CI, unknowns both ways)", "command"]
    best[columns].to_csv(folder / "variants.csv", index=False)
    (folder / "variants.md").write_text(
        "# Impossible: the best player's win rate and the thoughtful bound for each fifteen "
        "rule and new-pile penalty\n\n" + markdown(best, {c: c for c in columns})
        + "\nAll players' figures: `variants_all.csv`.\n" + NOTES)
    print((folder / "variants.md").read_text())
    # Every player under the default rules (last: thoughtful's run is the longest).
    runs = [("impossible", solver, {}, counts[solver]) for solver in PLAYERS]
    files = run_all(runs, args, "impossible/players",
                    "Impossible: players under the default rules (deals 1..n of each)", NOTES)
    causes = loss_causes(files)
    table = pd.read_csv(folder / "players.csv").merge(causes, on=["solver", "variant"],
                                                      how="left")
    table[["score_zero", "deck_empty"]] = table[["score_zero", "deck_empty"]].fillna(0).astype(int)
    table.to_csv(folder / "players.csv", index=False)
    lines = ["", "How the games were lost:", "",
             markdown(table.assign(
                 games=table.deals.map(lambda n: f"{n:,}"),
                 **{"lost, score reached 0": table.score_zero.map(lambda n: f"{n:,}"),
                    "lost, deck empty": table.deck_empty.map(lambda n: f"{n:,}")}),
                 {c: c for c in ("solver", "games", "lost, score reached 0",
                                 "lost, deck empty")})]
    with open(folder / "players.md", "a") as out:
        out.write("\n".join(lines))
    rows = rows_of(files, ("pickups", "new_piles", "steps"))
    headline_figures(rows[rows.solver != "thoughtful"], folder)
    save_figure(plot.means(rows), folder, "means")
    # Paired: each player against greedy on the games both played.
    pairs = pd.DataFrame([paired(rows, "greedy", b) for b in ("lookahead", "halving")]
                         + [paired(rows, "lookahead", "halving")])
    pairs.to_csv(folder / "paired.csv", index=False)
    (folder / "paired.md").write_text(
        "# Impossible: players against each other on the same games (default rules)\n\n"
        + "\n\n".join(markdown(pairs.iloc[[k]].dropna(axis=1),
                               {c: c for c in pairs.iloc[[k]].dropna(axis=1).columns})
                      for k in range(len(pairs))) + "\n")

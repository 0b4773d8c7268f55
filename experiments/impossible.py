"""Impossible: each player under the default rules on the same games (deals 1..n of each run;
the slower players on the first of them), what each idea of the rollout players gains, how
games are lost, and for every combination of the fifteen rule and the new-pile penalty the best
player's win rate beside the thoughtful bound.  Writes results/impossible/players.*,
ideas.*, paired.*, variants.* and the headline figures results/impossible/*.png, .svg.

``--parts`` chooses what is made (ideas, grid, players; all by default).  In the grid, a
player's cell whose interval is wider than ``WIDE`` gets more games (enough for that width at
its rate), and a thoughtful cell with unknown deals gets the stratified estimate: a seeded
sample of ``--thoughtful-sample`` of them escalated in place by ``winnable resolve --sample``
with ``--thoughtful-steps``.  ``--keep`` names players whose rows of players.csv are kept as
they are instead of run again (a solver whose version did not change: halving's 1,000,000
games take hours); the means figure is then drawn from players.csv, and those drawn from the
players' per-deal rows (winrate, scores, paired; thoughtful is in none of them) are left as
they are."""

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

from common import arguments, headline_figures, rows_of, run_all, save_figure
from stratified import commands, escalate
from winnable import plot, summarize
from winnable.report import markdown, write_tables
from winnable.stats import Z95, rate_of_row, rate_text
from winnable.runs.batch import solve_run
from winnable.runs.read import read_runs
from winnable.runs.resolve import escalations
from winnable.runs.sweep import combinations

# The variant grid: every combination of the fifteen rule and the new-pile penalty.
GRID = {"fifteen": ("once", "unlimited", "off"), "new_pile_penalty": ("every", "beyond_nine")}
PLAYERS = ("random", "greedy", "lookahead", "halving", "thoughtful")
PARTS = ("ideas", "grid", "players")
WIDE = 0.03  # a player's interval wider than this (3 points) gets more games
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
future reshuffle and searches its choices (probes, restarts and loss bounds, 60,000 nodes a
deal): its win rate bounds every player's, its unknown deals counted as losses for the lower
bound and as wins for the upper, or estimated from a sample of them solved with a larger
budget.
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


def games_for_width(rate: float, width: float = WIDE) -> int:
    """Games whose 95% interval at ``rate`` is about ``width`` wide, rounded up to thousands
    (a tenth more, since the interval is not quite symmetric)."""
    n = 1.1 * (2 * Z95) ** 2 * rate * (1 - rate) / width ** 2
    return int(-(-n // 1000) * 1000)


def ideas(args, folder: Path) -> None:
    """The rollout players' ideas on the same games."""
    rows = []
    for label, solver, options in IDEAS:
        df = solve_run("impossible", args.ideas_n, None, solver, options, runs_dir=args.runs_dir,
                       workers=args.workers)
        s = summarize(df)[0]
        seconds = float(df.seconds.sum())
        rows.append({"player": label, "games": f"{len(df):,}", "wins": s.wins,
                     "win rate (95% CI)": rate_text(s.rate),
                     "mean score": f"{df.score.mean():.3f}",
                     "games/s (one core)": f"{len(df) / seconds:,.0f}",
                     "options": " ".join(f"{k}={v}" for k, v in options.items()) or "-"})
        print(rows[-1], flush=True)
    table = pd.DataFrame(rows)
    table.to_csv(folder / "ideas.csv", index=False)
    (folder / "ideas.md").write_text(
        f"# Impossible: what each idea of the rollout players gains (deals 1-{args.ideas_n:,}, "
        "default rules)\n\n" + markdown(table, {c: c for c in table.columns})
        + "\nEach row: `solve-batch --game impossible --solver <player> --n "
        f"{args.ideas_n} --option <options>`.  Speeds are search time per game in the run "
        "(the machine's two cores were shared).\n")


def grid_cell(args, solver: str, variant: dict, n: int) -> tuple[dict, list[Path]]:
    """One cell of the variant grid: its summary row and its run file.  A player's interval
    wider than ``WIDE`` is narrowed with more games; a thoughtful run's unknown deals are
    sampled and escalated (the stratified estimate)."""
    stem = f"impossible/grid/{solver}_{variant['fifteen']}_{variant['new_pile_penalty']}"
    title = "Impossible grid cell"
    while True:
        files = run_all([("impossible", solver, variant)], args, stem, title, n=n)
        summary = pd.read_csv(Path(args.results_dir) / f"{stem}.csv").iloc[0]
        wider = summary.win_high - summary.win_low > WIDE
        if solver == "thoughtful" or not wider or games_for_width(summary.win_rate) <= n:
            break
        n = games_for_width(summary.win_rate)
        print(f"{stem}: interval wider than {100 * WIDE:g} points, {n:,} games", flush=True)
    # A run escalated before (in place) may have no unknowns left: its note is kept.
    sampled = summary.unknowns or escalations(files[0])
    if solver == "thoughtful" and sampled and args.thoughtful_sample:
        escalate(files[0], args)
        run_all([("impossible", solver, variant)], args, stem, title, n=n,
                notes="The unknown deals estimated from a sample of them: `"
                      + commands(summary.command, files[0], args) + "`.")
        summary = pd.read_csv(Path(args.results_dir) / f"{stem}.csv").iloc[0]
    return {**summary, **variant}, files


def escalated_text(run: Path) -> str:
    """What the sample's escalation made of a thoughtful run's unknown deals: ``9: 9 / 0 / 0``
    (deals searched again: won / lost / still unknown), ``-`` where it left none."""
    steps = escalations(run)
    if not steps:
        return "-"
    wins, losses = sum(s["wins"] for s in steps), sum(s["losses"] for s in steps)
    return (f"{steps[0]['tried']:,}: {wins:,} / {losses:,} / "
            f"{steps[-1]['tried'] - steps[-1]['settled']:,}")


def grid(args, folder: Path) -> None:
    """The variant table: every player on every combination; the best by win rate is reported
    beside the thoughtful bound."""
    rows = []
    cells: dict[str, list[Path]] = {}
    searched_again: dict[tuple[str, str], str] = {}
    for combo in combinations("impossible", GRID):
        for solver, n in (("random", args.grid_n), ("greedy", args.grid_n),
                          ("lookahead", args.grid_slow_n),
                          ("thoughtful", args.grid_thoughtful_n)):
            row, files = grid_cell(args, solver, combo.values, n)
            rows.append(row)
            cells.setdefault(solver, []).extend(files)
            if solver == "thoughtful":
                key = (combo.values["fifteen"], combo.values["new_pile_penalty"])
                searched_again[key] = escalated_text(files[0])
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
        "thoughtful won, lost, unknown": [
            f"{bound.loc[k].wins:,}, {bound.loc[k].losses:,}, {bound.loc[k].unknowns:,}"
            for k in keys],
        "thoughtful unknowns searched again: won / lost / still unknown": [
            searched_again[k] for k in keys],
        "thoughtful bound (95% CI)": [rate_text(rate_of_row(bound.loc[k])) for k in keys],
        "command": best.command.map(lambda c: f"`{c}`"),
    })
    columns = ["fifteen", "new_pile_penalty", "best player", "games", "win rate (95% CI)",
               "mean score", "thoughtful games", "thoughtful won, lost, unknown",
               "thoughtful unknowns searched again: won / lost / still unknown",
               "thoughtful bound (95% CI)", "command"]
    best[columns].to_csv(folder / "variants.csv", index=False)
    sample = (f" Where the thoughtful run (at its defaults) left deals unknown, a seeded sample "
              f"of {args.thoughtful_sample} of them (all, if fewer) was searched again in the "
              f"run ({args.thoughtful_steps.replace(';', ', then ')}): its won, lost and unknown "
              "counts are the run's after that, and where the sample was not all of them the "
              "bound is the stratified estimate (`grid/thoughtful_*.md` give the commands)."
              if args.thoughtful_sample else "")
    (folder / "variants.md").write_text(
        "# Impossible: the best player's win rate and the thoughtful bound for each fifteen "
        "rule and new-pile penalty\n\n" + markdown(best, {c: c for c in columns})
        + "\nAll players' figures: `variants_all.csv`. A player's cell whose interval was "
        f"wider than {100 * WIDE:g} points was given more games.{sample}\n" + NOTES)
    print((folder / "variants.md").read_text())


def players(args, folder: Path) -> None:
    """Every player under the default rules (last: thoughtful's run is the longest); the
    players of ``--keep`` from their committed rows."""
    counts = {"random": args.n, "greedy": args.n, "lookahead": args.lookahead_n,
              "halving": args.halving_n, "thoughtful": args.thoughtful_n}
    kept = [p for p in args.keep.split(",") if p]
    unknown = [p for p in kept if p not in PLAYERS]
    if unknown:
        raise SystemExit(f"error: --keep {','.join(unknown)}: not a player of this table "
                         f"({', '.join(PLAYERS)})")
    before = pd.read_csv(folder / "players.csv") if kept else None
    runs = [("impossible", solver, {}, counts[solver]) for solver in PLAYERS
            if solver not in kept]
    files = run_all(runs, args, "impossible/players",
                    "Impossible: players under the default rules (deals 1..n of each)", NOTES)
    table = pd.read_csv(folder / "players.csv")
    causes = loss_causes(files)
    table = table.merge(causes, on=["solver", "variant"], how="left")
    if kept:
        table = pd.concat([before[before.solver.isin(kept)], table], ignore_index=True)
        table = table.sort_values("solver", key=lambda s: s.map(PLAYERS.index), kind="stable")
        write_tables(table.drop(columns=["score_zero", "deck_empty"]), folder / "players",
                     "Impossible: players under the default rules (deals 1..n of each)", NOTES)
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
    if kept:
        # The kept players' per-deal rows are not here: the means come from the table.
        save_figure(plot.means(table), folder, "means")
        print(f"kept {', '.join(kept)} as committed: means drawn from players.csv; winrate, "
              "scores and paired are not drawn again (they need every player's per-deal rows; "
              "thoughtful is not in them)", flush=True)
        return
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


if __name__ == "__main__":
    args = arguments(1_000_000, __doc__, lookahead_n=1_000_000, halving_n=20_000,
                     thoughtful_n=100_000, ideas_n=10_000, grid_n=200_000,
                     grid_slow_n=10_000, grid_thoughtful_n=2_000,
                     parts=(",".join(PARTS), "what to make, of " + ", ".join(PARTS)),
                     keep=("", "players whose rows of players.csv are kept, not run again"),
                     thoughtful_sample=300,
                     thoughtful_steps=("budget=2000000,memory_mb=256",
                                       "the escalation steps of a thoughtful cell's sample"))
    args.sample, args.seed, args.steps = args.thoughtful_sample, 1, args.thoughtful_steps
    folder = Path(args.results_dir) / "impossible"
    parts = [p for p in args.parts.split(",") if p]
    if set(parts) - set(PARTS):
        raise SystemExit(f"error: --parts {args.parts}: expected some of {', '.join(PARTS)}")
    for part in PARTS:
        if part in parts:
            {"ideas": ideas, "grid": grid, "players": players}[part](args, folder)

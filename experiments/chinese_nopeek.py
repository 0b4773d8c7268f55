"""Chinese Solitaire without peeking: the no-peek players (sampling, strategy, random) beside the
thoughtful upper bound, strict and easy, on the same deals; and whether the published win rates
(James Jonte's ~33%, the program author's 179 of 355 = 50.42%) lie inside each interval.
Writes results/chinese/nopeek.{csv,md}, results/chinese/nopeek_paired.csv (each no-peek
player's outcomes against thoughtful's, deal by deal), results/chinese/nopeek_pairs.csv (the
no-peek players against each other on the same deals: the paired difference of their win rates
with its 95% interval, McNemar-style) and the headline figures
results/chinese/nopeek_{winrate,scores,paired_sampling}.{png,svg} (the win rates with the
source's 33% and 50.42% as reference lines)."""

from pathlib import Path

import pandas as pd

from chinese import DEALS as THOUGHTFUL_DEALS
from common import arguments, paired_wins, pick, player_table, points_text, save_figure
from winnable import plot
from winnable.implication import apply_implications
from winnable.report import markdown
from winnable.stats import outcome_crosstab, paired_outcomes, rate_of_row, rate_text
from winnable.runs.batch import solve_batch, solve_run
from winnable.runs.spec import RunSpec, run_file

CLAIMS = {"33%": 0.33, "50.42%": 179 / 355}
PLAYERS = ("thoughtful", "sampling", "strategy", "random")
PAIRED = ("sampling", "strategy")  # the no-peek players compared pair by pair, best first
RULES = ({}, {"easy": True})

NOTES = """
`thoughtful` knows every card (face-down cards and stock included): the upper bound. The
no-peek players see only the face-up cards and know which cards are still unseen: `sampling`
solves K arrangements of the unseen cards (thoughtful, small budget) at each decision and
avoids moves the samples show losing; `strategy` plays the advice of the text's Strategy
section; `random` plays a uniformly random legal move. A no-peek game that stalls (no progress
for `patience` moves) is a loss, so no-peek rows have no unknowns; thoughtful unknowns (not
decided within the node budget) leave its rate between two bounds (unknowns lost / won: `(bounds)`),
its interval counting them both ways, and are settled by rule-set implication where the other
mode decides them. "inside?" says whether the published figure lies inside the player's 95%
interval. "to thoughtful": the player's win rate over the thoughtful rate on the same deals,
from the thoughtful rate's upper bound to its lower one. "s per game": the mean solver seconds
a game (one core).
"""

PAIRS_NOTES = """Difference: the player's win rate minus the other's, in percentage points,
with its paired 95% interval (normal approximation to the mean per-deal difference; only the
deals won by one of the two carry information: `winnable.stats.paired_difference`). Per rules
and pair: `nopeek_pairs.csv`.
"""


def nopeek_markdown_table(table: pd.DataFrame) -> pd.DataFrame:
    """The table of nopeek.md, from the rows of nopeek.csv (the columns "to thoughtful" and
    "s per game" where it has them: a table written before them has not)."""
    later = {}
    if "to_thoughtful" in table:
        later["to thoughtful"] = table.to_thoughtful.fillna("")
    if "seconds_per_game" in table:
        later["s per game"] = table.seconds_per_game.map(lambda s: f"{s:.3f}")
    return pd.DataFrame({
        "rules": table.variant, "player": table.solver,
        "deals": table.deals.map(lambda n: f"{n:,}"),
        "win rate (95% CI)": [rate_text(rate_of_row(row)) for _, row in table.iterrows()],
        "unknown": table.unknowns, **later,
        **{c: table[c] for c in table.columns if c.endswith("inside?")},
        "command": table.command.map(lambda c: f"`{c}`"),
    })


def claim_columns(row: pd.Series) -> dict:
    return {f"{label} inside?": ("yes" if row.win_low <= value <= row.win_high else
                                 ("no (above)" if value > row.win_high else "no (below)"))
            for label, value in CLAIMS.items()}


def ratio_to_thoughtful(table: pd.DataFrame) -> pd.Series:
    """Each no-peek player's win rate over thoughtful's on the same deals and rules, as the
    range its bounds allow (the unknowns lost, then won): "low-high"."""
    out = []
    for _, row in table.iterrows():
        bound = table[(table.variant == row.variant) & (table.solver == "thoughtful")]
        if row.solver == "thoughtful" or bound.empty:
            out.append(None)
            continue
        low, high = bound.win_min.iloc[0], bound.win_max.iloc[0]
        out.append(f"{row.win_min / high:.3f}" if low == high else
                   f"{row.win_min / high:.3f}-{row.win_min / low:.3f}")
    return pd.Series(out, index=table.index)


def player_pairs(df: pd.DataFrame) -> pd.DataFrame:
    """The no-peek players of ``PAIRED`` against each other, per rules, on the deals both
    played: deals won by one only, and the paired difference of the win rates (first minus
    second) with its 95% interval (``stats.paired_difference``)."""
    out = []
    for variant, part in df.groupby("variant"):
        for i, a in enumerate(PAIRED):
            for b in PAIRED[i + 1:]:
                out.append({"variant": variant, "player": a, "against": b,
                            **paired_wins(part[part.solver == a], part[part.solver == b])})
    return pd.DataFrame(out)


def pairs_markdown(pairs: pd.DataFrame) -> str:
    shown = pd.DataFrame({
        "rules": pairs.variant, "player": pairs.player, "against": pairs.against,
        "deals": pairs.deals.map(lambda n: f"{n:,}"),
        "won by the player only": pairs.won_by_player_only,
        "won by the other only": pairs.won_by_other_only,
        "difference, points (95% CI)": list(map(points_text, pairs.difference, pairs.low,
                                                pairs.high))})
    return markdown(shown, {c: c for c in shown.columns})


def rows(variant: dict, solver: str, args) -> pd.DataFrame:
    """Deals 1..n of one player.  Thoughtful rows come from the run of experiments/chinese.py
    (its first deals are these deals): deals it lacks are solved into that same file, which
    that script then completes, so no deal is solved twice."""
    if solver == "thoughtful" and args.n <= THOUGHTFUL_DEALS:
        out = run_file(RunSpec.make("chinese", variant, solver), THOUGHTFUL_DEALS, args.runs_dir)
        return solve_batch("chinese", args.n, variant=variant, solver=solver, out=out,
                           workers=args.workers)
    return solve_run("chinese", args.n, variant, solver, runs_dir=args.runs_dir,
                     workers=args.workers)


if __name__ == "__main__":
    args = arguments(10_000, __doc__)
    raw = pd.concat([rows(variant, solver, args) for variant in RULES for solver in PLAYERS],
                    ignore_index=True)
    df, settled = apply_implications(raw)
    table = player_table(df, PLAYERS)
    table = pd.concat([table, table.apply(claim_columns, axis=1, result_type="expand")], axis=1)
    table["to_thoughtful"] = ratio_to_thoughtful(table)
    seconds = df.groupby(["variant", "solver"]).seconds.mean()
    table["seconds_per_game"] = [seconds[(v, s)] for v, s in zip(table.variant, table.solver)]
    out = Path(args.results_dir) / "chinese"
    out.mkdir(parents=True, exist_ok=True)
    table.to_csv(out / "nopeek.csv", index=False)

    # Paired: how the no-peek players' deals fare under the thoughtful solver (a no-peek win
    # is never a thoughtful loss: every no-peek line is a legal line with every card known).
    paired = []
    for variant, part in df.groupby("variant"):
        bound = part[part.solver == "thoughtful"]
        for solver in PLAYERS[1:]:
            cross = outcome_crosstab(paired_outcomes(part[part.solver == solver], bound))
            for player_outcome, row in cross.iterrows():
                for bound_outcome, deals in row.items():
                    paired.append({"variant": variant, "solver": solver,
                                   "outcome": player_outcome,
                                   "thoughtful": bound_outcome, "deals": int(deals)})
    paired = pd.DataFrame(paired)
    paired.to_csv(out / "nopeek_paired.csv", index=False)
    contradictions = int(paired[(paired.outcome == "win")
                                & (paired.thoughtful == "loss")].deals.sum())
    pairs = player_pairs(df)
    pairs.to_csv(out / "nopeek_pairs.csv", index=False)

    shown = nopeek_markdown_table(table)
    text = (f"# Chinese Solitaire without peeking ({args.n:,} deals, the same deals for every "
            "player)\n\n" + markdown(shown, {c: c for c in shown.columns}) + NOTES
            + f"\n{settled} thoughtful unknowns were settled by implication. No-peek wins that "
            f"the thoughtful solver calls lost: {contradictions} (must be 0). Per-deal pairs: "
            "`nopeek_paired.csv`.\n\n"
            "## The no-peek players against each other, on the same deals\n\n"
            + pairs_markdown(pairs) + "\n\n" + PAIRS_NOTES)
    (out / "nopeek.md").write_text(text)
    print(text)
    # No peeking against thoughtful: every player's win rate, score distributions (strict),
    # and the best no-peek player's outcomes against thoughtful's on the same deals.
    save_figure(plot.winrate(df, references=CLAIMS), out, "nopeek_winrate")
    save_figure(plot.scores(df[df.variant == "default"]), out, "nopeek_scores")
    save_figure(plot.paired(pd.concat([pick(df, "thoughtful"), pick(df, "sampling")])), out,
                "nopeek_paired_sampling")

"""Nineball Solitaire under both kitchen rules: the exact optimum with every card known
(thoughtful) and the exact optimal players that see only what a person sees (nopeek-score,
nopeek-win).  Writes results/nineball/thoughtful.{csv,md}, results/nineball/nopeek.{csv,md}
and the headline figures results/nineball/*.png, .svg."""

from pathlib import Path

from common import arguments, headline_figures, pick, rows_of, run_all, save_figure
from winnable import plot

KITCHEN_RULES = ({}, {"kitchen_per_group": 1})

NOTES = """
`thoughtful` is the exact optimum with every card known. `kitchen_per_group=1` is the reading
under which the text's worked example is consistent (at most one kitchen card per group).
"""

NOPEEK_NOTES = """
The no-peek players see the rack, the kitchen tops and every card turned so far; to them the
face-down kitchen cards are a uniformly random arrangement of the unseen cards. Per deal,
`expected_score` and `win_probability` are the exact values of the optimal policy given what
the player sees at the start (averaged over the face-down cards), `win rate` is how often that
policy cleared the rack when it played the actual cards, and `thoughtful_score` /
`thoughtful_win` are the exact optimum of the same deals with every card known. Across deals,
the mean win probability is the no-peek player's win rate (with a narrower interval than the
realised one, since the chance of the face-down cards is averaged out exactly).
"""

if __name__ == "__main__":
    args = arguments(1_000_000, __doc__, n_nopeek=1_000_000)
    exact = run_all([("nineball", "thoughtful", v) for v in KITCHEN_RULES], args,
                    "nineball/thoughtful", "Nineball Solitaire: exact (thoughtful) results", NOTES)
    nopeek = run_all([("nineball", solver, v) for v in KITCHEN_RULES
                      for solver in ("nopeek-score", "nopeek-win")], args, "nineball/nopeek",
                     "Nineball Solitaire: the exact optimal no-peek players", NOPEEK_NOTES,
                     means=("win_probability", "expected_score", "thoughtful_win",
                            "thoughtful_score"), n=args.n_nopeek)
    folder = Path(args.results_dir) / "nineball"
    rows = rows_of(exact + nopeek, ("expected_score", "win_probability"))
    one_per_group = {"kitchen_per_group": 1}
    headline_figures(rows, folder, scores_of=rows[rows.solver == "thoughtful"], pairs={
        "rules": (pick(rows, "thoughtful"), pick(rows, "thoughtful", one_per_group)),
        "nopeek": (pick(rows, "thoughtful", one_per_group),
                   pick(rows, "nopeek-win", one_per_group))})
    # No peeking against thoughtful: the exact win probability and expected score per deal.
    save_figure(plot.means(rows, {"win_probability": "probability of clearing the rack",
                                  "expected_score": "expected score (points)"}),
                folder, "nopeek_means")

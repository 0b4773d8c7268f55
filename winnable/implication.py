"""Rule-set implication: settle `unknown` deals with results under other rules.

If every move of rule set A is legal under rule set B (Chinese Solitaire: strict => easy;
`blocks=sequence` => any blocks), a deal won under A is won under B (A's winning line is a
legal line under B) and a deal lost under B is lost under A.  Where both results of a deal are
at hand, an `unknown` on one side is replaced accordingly; the row's `resolved_by` says so.
"""

from __future__ import annotations

import pandas as pd

from .games import get_game


def apply_implications(df: pd.DataFrame) -> tuple[pd.DataFrame, int]:
    """Returns the frame with unknowns settled where possible, and how many were settled."""
    df = df.copy()
    if "resolved_by" not in df.columns:
        df["resolved_by"] = ""
    settled = 0
    if "numbering" in df.columns:
        # Deal n of one numbering is another deal than n of another: each is settled alone.
        df["numbering"] = df["numbering"].fillna("winnable")
        done = []
        for numbering, part in df.assign(_row=range(len(df))).groupby("numbering", sort=False):
            part, count = apply_implications(part.drop(columns="numbering"))
            done.append(part.assign(numbering=numbering))
            settled += count
        return pd.concat(done).sort_values("_row").drop(columns="_row"), settled
    for (game_name, solver), part in df.groupby(["game", "solver"], sort=False):
        game = get_game(game_name)
        labels = list(part["variant"].unique())
        rules = {label: game.rules(label) for label in labels}
        for a in labels:
            for b in labels:
                if not game.implies(rules[a], rules[b]):
                    continue
                rows_a = part[part.variant == a].set_index("seed")
                rows_b = part[part.variant == b].set_index("seed")
                common = rows_a.index.intersection(rows_b.index)
                oa, ob = rows_a.loc[common, "outcome"], rows_b.loc[common, "outcome"]
                win_b = common[(oa == "win").to_numpy() & (ob == "unknown").to_numpy()]
                loss_a = common[(ob == "loss").to_numpy() & (oa == "unknown").to_numpy()]
                for seeds, source, target, outcome in ((win_b, a, b, "win"),
                                                       (loss_a, b, a, "loss")):
                    if len(seeds) == 0:
                        continue
                    mask = ((df.game == game_name) & (df.solver == solver)
                            & (df.variant == target) & df.seed.isin(seeds))
                    src = df[(df.game == game_name) & (df.solver == solver)
                             & (df.variant == source)].set_index("seed")
                    df.loc[mask, "outcome"] = outcome
                    if outcome == "win":
                        df.loc[mask, "moves"] = src.loc[df.loc[mask, "seed"], "moves"].to_numpy()
                        df.loc[mask, "score"] = src.loc[df.loc[mask, "seed"], "score"].to_numpy()
                    df.loc[mask, "resolved_by"] = f"implication from {source}"
                    settled += int(mask.sum())
                part = df[(df.game == game_name) & (df.solver == solver)]
    return df, settled

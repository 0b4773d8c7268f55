"""The experiment scripts' own arithmetic (experiments/), on made-up rows."""

from pathlib import Path

import pandas as pd


def test_solvitaire_comparison_counts_each_deal_once_and_totals_deals_both_decide(monkeypatch):
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parent.parent / "experiments"))
    from chinese_solvitaire import row

    t = pd.DataFrame({
        "seed": [1, 2, 3, 4, 5],
        "ours": ["win", "loss", "unknown", "loss", "win"],
        "peer": ["win", "loss", "loss", "unknown", "loss"],
        "our_s": [1.0, 2.0, 50.0, 60.0, 3.0], "peer_s": [2.0, 2.0, 1.0, 70.0, 1.0],
        "our_nodes": [10, 20, 500, 600, 30], "peer_states": [100, 100, 5, 700, 10]})
    r = row("strict", t)
    assert (r["deals"], r["decided_by_both"], r["disagreements"], r["wins_ours"]) == (5, 3, 1, 2)
    assert (r["undecided_ours"], r["undecided_solvitaire"]) == (1, 1)
    assert (r["undecided_ours_deals"], r["undecided_solvitaire_deals"]) == ("3", "4")
    # Time and states only over deals 1, 2 and 5, which both decide.
    assert (r["seconds_ours"], r["seconds_solvitaire"], r["time_ratio"]) == (6.0, 5.0, 1.2)
    assert (r["states_ours"], r["states_solvitaire"], r["states_ratio"]) == (60, 210, 0.286)

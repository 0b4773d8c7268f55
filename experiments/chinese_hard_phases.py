"""Chinese Solitaire, issue 57: where the searches of the hard strict deals spend their nodes.

For each deal: the thoughtful solver at --budget nodes and a --memory-mb table (every other
option at its default: restarts, h^2 at the nodes, the steps after a quarter of the budget),
its searches counting into a ``search.Probe``: the successors played, by the phase of the
position they reach (stock still there or dealt; face-down cards left), and the *end game*
(stock dealt, no card face down: every card known, nothing left to come), the phase issue 57
item 2 would decide with a solver of its own.  Of the end game: its nodes entered and how many
distinct positions (classes) they are, and its *roots* (end-game nodes whose parent is not in
the end game): how many, how many distinct, how many searched to the end lost, and how large
and deep those lost subtrees were.  An exact end game could save at most the nodes played in
the end game (its roots are entered whatever it does).

Deals are solved one after another in this process (one core), after compiling.  Writes
results/chinese/STEM.{csv,md} and STEM_by_down.csv (the successors played over all the deals,
by phase), STEM ``hard_phases`` unless --stem says otherwise.  Run:
``python experiments/chinese_hard_phases.py [--deals 230,250] [--budget 4000000]
[--memory-mb 256]``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd

from chinese_hard import HARD_DEALS, parse_deals
from common import ROOT
from winnable import get_game
from winnable.outcomes import OUTCOME_NAMES
from winnable.report import markdown
from winnable.solvers.chinese import search as CS
from winnable.solvers.chinese import thoughtful as T
from winnable.solvers.table import LOST
from winnable.stopping import scripts_stop_in_one_line

GAME = get_game("chinese")
DOWN_BANDS = ((0, 0), (1, 1), (2, 2), (3, 3), (4, 6), (7, 9), (10, 12), (13, 18))  # face-down cards left


def percent(part: float, whole: float) -> float:
    return round(100.0 * float(part) / float(whole), 1) if whole else 0.0


def measure(seed: int, budget: int, memory_mb: float) -> tuple[dict, dict, np.ndarray]:
    """One deal: its end-game row, its row of regions after the stock, and the successors
    played by phase (``Probe.played``)."""
    solver = T.Thoughtful(False, False, T.Settings(budget=budget, memory_mb=memory_mb))
    probe = CS.new_probe()
    solver.probe = probe
    cpu = time.process_time()
    outcome, score, nodes, _ = solver.solve(GAME.deal(seed))
    cpu = time.process_time() - cpu
    played = probe.played.sum()
    records = probe.records[:min(int(probe.count[0]), probe.records.shape[0])]
    end = records[records[:, 5] == CS.phase_code(1, 0)]
    end_lost = end[end[:, 3] == LOST]
    keys = probe.keys[:min(int(probe.count[1]), probe.keys.shape[0])]
    row = {"deal": seed, "outcome": OUTCOME_NAMES[int(outcome)], "nodes": int(nodes),
           "cpu_s": round(cpu, 1),
           "before_stock_pct": percent(probe.played[0].sum(), played),
           "dealt_down_pct": percent(probe.played[1, 1:].sum(), played),
           "end_game_pct": percent(probe.played[1, 0], played),
           "end_nodes_entered": int(probe.entered[1, 0]),
           "end_distinct": int(np.unique(keys).size),
           "end_roots": len(end), "end_roots_distinct": int(np.unique(end[:, 1]).size),
           "roots_lost": len(end_lost), "roots_open": int((end[:, 3] == -1).sum()),
           **sizes(end_lost, "lost_root"),
           "end_skipped_lost": int(probe.skipped[0, 1, 0]),
           "end_cut_dead_end": int(probe.skipped[2, 1, 0])}
    # Regions after the stock with cards face down: no card turns in them, so each lost one
    # is a refutation the search found by exhausting it (the barren subtrees of NOTES).
    down = records[(records[:, 5] > CS.phase_code(1, 0))]
    lost = down[down[:, 3] == LOST]
    regions = {"deal": seed, "regions": len(down), "distinct": int(np.unique(down[:, 1]).size),
               "lost": len(lost), "lost_distinct": int(np.unique(lost[:, 1]).size),
               **sizes(lost, "lost"),
               "lost_depth_median": int(np.median(lost[:, 4])) if len(lost) else 0,
               "records_kept": len(records), "records_met": int(probe.count[0])}
    return row, regions, probe.played.copy()


def sizes(records: np.ndarray, name: str) -> dict:
    """Nodes played below the roots of ``records`` (median, 90th percentile, largest) and the
    deepest node below one in its region."""
    if not len(records):
        return {f"{name}_nodes_median": 0, f"{name}_nodes_p90": 0, f"{name}_nodes_max": 0,
                f"{name}_depth_max": 0}
    below = records[:, 2]
    return {f"{name}_nodes_median": int(np.median(below)),
            f"{name}_nodes_p90": int(np.percentile(below, 90)),
            f"{name}_nodes_max": int(below.max()), f"{name}_depth_max": int(records[:, 4].max())}


def warm_up() -> None:
    """Compile (or load) every kernel a deal's measurement uses, so that no deal's CPU
    seconds count compiling: the driver's later steps and a search with a probe."""
    solver = T.Thoughtful(False, False, T.Settings(budget=3000, memory_mb=16))
    solver.warm_up(GAME.deal(1))
    solver.probe = CS.new_probe(records=16, keys=16)
    solver.solve(GAME.deal(1))


def band_table(played: np.ndarray) -> pd.DataFrame:
    """Successors played over all the deals, by phase band (per cent of all)."""
    whole = played.sum()
    rows = [{"phase": "stock still there", "successors": int(played[0].sum()),
             "share_pct": percent(played[0].sum(), whole)}]
    for low, high in DOWN_BANDS:
        part = played[1, low:high + 1].sum()
        name = (f"stock dealt, {low} face down" if low == high
                else f"stock dealt, {low}-{high} face down")
        if low == 0:
            name += " (end game)"
        rows.append({"phase": name, "successors": int(part), "share_pct": percent(part, whole)})
    return pd.DataFrame(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", default=",".join(map(str, HARD_DEALS)))
    parser.add_argument("--budget", type=int, default=4_000_000)
    parser.add_argument("--memory-mb", type=float, default=256)
    parser.add_argument("--stem", default="hard_phases",
                        help="the tables' name in results/chinese/")
    parser.add_argument("--results-dir", default=str(ROOT / "results"))
    args = parser.parse_args()
    scripts_stop_in_one_line()
    deals = parse_deals(args.deals)
    rows, region_rows, played = [], [], np.zeros((2, CS.FACE_DOWN + 1), np.int64)
    warm_up()
    for seed in deals:
        row, regions, by_phase = measure(seed, args.budget, args.memory_mb)
        rows.append(row)
        region_rows.append(regions)
        played += by_phase
        print(row, regions, flush=True)
    table = pd.DataFrame(rows)
    regions = pd.DataFrame(region_rows)
    bands = band_table(played)
    by_down = pd.DataFrame({"stock": ["there", "dealt"], **{
        f"down_{d}": played[:, d] for d in range(CS.FACE_DOWN + 1)}})
    out = Path(args.results_dir) / "chinese" / args.stem
    out.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(out.with_suffix(".csv"), index=False)
    by_down.to_csv(out.parent / f"{args.stem}_by_down.csv", index=False)
    regions.to_csv(out.parent / f"{args.stem}_regions.csv", index=False)
    headers = {"deal": "deal", "outcome": "verdict", "nodes": "nodes", "cpu_s": "CPU s",
               "before_stock_pct": "% before stock", "dealt_down_pct": "% dealt, cards down",
               "end_game_pct": "% end game", "end_nodes_entered": "end-game nodes entered",
               "end_distinct": "distinct", "end_roots": "end-game roots",
               "end_roots_distinct": "distinct roots", "roots_lost": "roots lost",
               "roots_open": "roots open", "lost_root_nodes_median": "nodes/lost root (median)",
               "lost_root_nodes_max": "(max)", "lost_root_depth_max": "depth in region (max)",
               "end_skipped_lost": "end-game table hits (lost)",
               "end_cut_dead_end": "cut by dead_end"}
    command = (f"python experiments/chinese_hard_phases.py --deals {args.deals} --budget "
               f"{args.budget} --memory-mb {args.memory_mb:g}"
               + ("" if args.stem == "hard_phases" else f" --stem {args.stem}"))
    lines = [f"# Chinese Solitaire, strict: where the hard deals' searches are, at "
             f"{args.budget:,} nodes", "", markdown(table, headers), "",
             "Successors played (the node budget counts them), over all the deals, by the "
             "phase of the position each reaches:", "",
             markdown(bands, {"phase": "phase", "successors": "successors",
                              "share_pct": "% of all"}), "",
             "Regions after the stock with cards face down (below a region root, down to the "
             "next, no card turns), per deal:", "",
             markdown(regions, {"deal": "deal", "regions": "region roots entered",
                                "distinct": "distinct", "lost": "lost",
                                "lost_distinct": "distinct lost",
                                "lost_nodes_median": "nodes/lost root (median)",
                                "lost_nodes_p90": "(90%)", "lost_nodes_max": "(max)",
                                "lost_depth_median": "depth in region (median)",
                                "lost_depth_max": "(max)"}), "",
             "The thoughtful solver at its defaults but for the budget and table "
             f"(`budget={args.budget}`, `memory_mb={args.memory_mb:g}`), its searches counting "
             "into a `search.Probe`. A position's *phase*: stock dealt or not, and its "
             "face-down cards; *end game*: stock dealt and no card face down. A *region root* "
             "is a node whose phase is not its parent's (or a search's start); an *end-game "
             "root* is one in the end game. Lost: searched to the end and marked lost; open: "
             "still on the line when a search stopped (budget or win). Nodes/lost root: "
             "successors played below it (its whole subtree); depth in region: its deepest "
             "node of the same phase, in nodes below it. Distinct: by the first word of the "
             "positions' 128-bit keys (a root entered again in a later restart counts once). "
             "Table hits: end-game successors not entered because the table holds them lost; "
             "cut by dead_end: because the search's loss test cut them. Every search of a "
             "deal counts, restarts included; "
             f"{int(regions.records_met.sum() - regions.records_kept.sum())} region roots "
             "were past the probe's records (counted in none of the region columns).", "", f"Made by `{command}`."]
    out.with_suffix(".md").write_text("\n".join(lines) + "\n")
    print(out.with_suffix(".md").read_text())


if __name__ == "__main__":
    main()

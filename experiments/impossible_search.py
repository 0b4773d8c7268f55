"""Impossible's thoughtful search (winnable/solvers/impossible_thoughtful.py): each of its ideas
turned off in turn, and the search of an older commit, on the same deals (by default 70001-70200,
which no setting was tuned on) under the default rules and under new_pile_penalty=beyond_nine.
Per setting: deals won, lost and unknown, mean nodes, CPU seconds a deal, and the lines cut by
each bound and the positions met in the dominance memo, summed over the deals.  Writes
results/impossible/search.{csv,md}.

Each setting runs in a process of its own, one after another (``--repeat`` rounds, the old
commit's and this tree's in turn, so that both meet the same load), timed by the process's CPU
clock after the kernels are compiled; the table gives the median of the rounds.  ``--old`` is a
checkout of the older commit, e.g. ``git worktree add ../old 66ee6c5`` (its solver is run with
its own defaults through its ``Game.solve_seeds``)."""

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

import pandas as pd

from common import ROOT
from winnable.report import markdown
from winnable.stopping import scripts_stop_in_one_line

RULE_SETS = {"default": {}, "new_pile_penalty=beyond_nine": {"new_pile_penalty": "beyond_nine"}}
# (label, options): each idea off in turn, the dominance memo on, and the search without any.
SETTINGS = [("defaults", {}), ("restarts=0", {"restarts": 0}), ("probe=0", {"probe": 0}),
            ("deck_bound=0", {"deck_bound": 0}), ("score_bound=0", {"score_bound": 0}),
            ("dominance=1", {"dominance": 1}),
            ("none of them (restarts=0 probe=0 deck_bound=0 score_bound=0)",
             {"restarts": 0, "probe": 0, "deck_bound": 0, "score_bound": 0})]
# Run in a fresh process: solve the deals, print one JSON line.  With this tree's solver the
# tallies of its searches are summed; an older one is run through Game.solve_seeds.
WORKER = """
import json, sys, time
import numpy as np
from winnable import get_game, shuffle
from winnable.rules import impossible as R
first, n, flags, options, mine = sys.argv[1:]
first, n, flags, options = int(first), int(n), json.loads(flags), json.loads(options)
game = get_game("impossible")
seeds = np.arange(first, first + n)
counts = {"win": 0, "loss": 0, "unknown": 0}
tally = {}
if mine == "1":
    from winnable.games.impossible import thoughtful_options
    from winnable.solvers import impossible_thoughtful as T
    options = game.solver_options("thoughtful", options)
    codes = R.rule_params(game.rules(flags))
    solver = T.Thoughtful(options["memory_mb"])
    driver = thoughtful_options(options)
    def solve(seed):
        deal = game.deal(int(seed), flags)
        start = shuffle.play_stream(np.uint64(game.salt), deal)[0]
        return solver.solve(deal, codes, start, options["budget"], driver)
    solve(1)  # compiled before the clock starts
    clock = time.process_time()
    nodes = 0
    sums = np.zeros(T.TALLY_LEN, np.int64)
    for seed in seeds:
        solver.stack.tally[:] = 0
        outcome, used, *_ = solve(seed)
        counts[{R.WIN: "win", R.LOSS: "loss"}.get(int(outcome), "unknown")] += 1
        nodes += used
        sums += solver.stack.tally
    cpu = time.process_time() - clock
    tally = {"deck_bound_cuts": int(sums[T.END_DECK_BOUND]),
             "score_bound_cuts": int(sums[T.END_SCORE_BOUND]),
             "dominance_meetings": int(sums[T.END_DOMINATED])}
else:
    game.solve_seeds(np.arange(1, 2), flags, "thoughtful", options)
    clock = time.process_time()
    rows = game.solve_seeds(seeds, flags, "thoughtful", options)
    cpu = time.process_time() - clock
    nodes = int(np.sum(rows["nodes"]))
    for outcome in rows["outcome"]:
        counts[outcome] += 1
print(json.dumps({**counts, "nodes": nodes / n, "cpu": cpu / n, **tally}))
"""


def run(tree: Path, first: int, n: int, flags: dict, options: dict, mine: bool) -> dict:
    """One setting solved in a process of its own with the package of ``tree``."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run(["nice", "-n", "19", sys.executable, "-c", WORKER, str(first), str(n),
                           json.dumps(flags), json.dumps(options), "1" if mine else "0"],
                          env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--first", type=int, default=70001, help="the first deal")
    parser.add_argument("--n", type=int, default=200, help="deals")
    parser.add_argument("--old", default=None, help="a checkout of the older commit")
    parser.add_argument("--old-label", default="66ee6c5", help="how the table names it")
    parser.add_argument("--repeat", type=int, default=2, help="rounds of timing")
    parser.add_argument("--results-dir", default=str(ROOT / "results"))
    args = parser.parse_args()
    scripts_stop_in_one_line()
    rows = []
    for rules, flags in RULE_SETS.items():
        settings = [(f"this tree: {label}", options, True) for label, options in SETTINGS]
        if args.old:
            settings.insert(1, (f"commit {args.old_label}, its defaults", {}, False))
        for label, options, mine in settings:
            rounds = []
            for _ in range(args.repeat if mine or args.old else 1):
                tree = ROOT if mine else Path(args.old).resolve()
                rounds.append(run(tree, args.first, args.n, flags, options, mine))
            result = {**rounds[0], "cpu": statistics.median(r["cpu"] for r in rounds)}
            rows.append({"rules": rules, "setting": label, **result})
            print(rows[-1], flush=True)
    table = pd.DataFrame(rows)
    folder = Path(args.results_dir) / "impossible"
    table.to_csv(folder / "search.csv", index=False)
    shown = table.assign(**{
        "won, lost, unknown": [f"{r.win}, {r.loss}, {r.unknown}" for r in table.itertuples()],
        "mean nodes": table.nodes.map(lambda x: f"{x:,.0f}"),
        "CPU ms a deal": (1000 * table.cpu).map(lambda x: f"{x:.2f}"),
        **{c.replace("_", " "): table[c].map(lambda x: "-" if pd.isna(x) else f"{int(x):,}")
           for c in ("deck_bound_cuts", "score_bound_cuts", "dominance_meetings")
           if c in table}})
    columns = ["rules", "setting", "won, lost, unknown", "mean nodes", "CPU ms a deal",
               *(c.replace("_", " ") for c in ("deck_bound_cuts", "score_bound_cuts",
                                               "dominance_meetings") if c in table)]
    last = args.first + args.n - 1
    (folder / "search.md").write_text(
        f"# Impossible: the thoughtful search, each idea off in turn (deals {args.first:,}-"
        f"{last:,})\n\n" + markdown(shown, {c: c for c in columns})
        + f"\nEach row solves deals {args.first:,}-{last:,} with the thoughtful solver at its "
        "defaults but for the setting named (`solve-batch --game impossible --solver thoughtful "
        f"--n {args.n} --start {args.first} [--variant new_pile_penalty=beyond_nine] --option "
        "...`), in a process of its own; CPU time per deal after compilation, the median of "
        f"{args.repeat} rounds run in turn (the machine's two cores were shared). Cuts and "
        "meetings are summed over the deals' searches. Made by `python experiments/"
        f"impossible_search.py{' --old CHECKOUT' if args.old else ''} --first {args.first} "
        f"--n {args.n} --repeat {args.repeat}`" + (f", CHECKOUT a checkout of commit "
                                               f"{args.old_label}" if args.old else "") + ".\n")
    print((folder / "search.md").read_text())


if __name__ == "__main__":
    main()

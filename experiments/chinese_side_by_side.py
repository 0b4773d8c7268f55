"""Two trees of the Chinese thoughtful engine on the same deals, side by side in one run (issue
56's target): the CPU time each takes and whether every deal keeps its verdict.

    git worktree add ../base 66ee6c5          # the old engine, once (its kernels compile there)
    python experiments/chinese_side_by_side.py --old-tree ../base --first 900001 --n 1000 \\
        [--easy] [--rounds 2] [--out results/chinese/side_by_side_strict.md]

Each round solves deals FIRST..FIRST+N-1 once with the old tree and once with this one, in
turn (old, new, old, new, ...), each in a process of its own (``PYTHONPATH=TREE``) with the
solver a batch worker builds at the default settings.  The time is ``time.process_time`` of the
solving loop alone: each process first compiles (or loads) its kernels and solves two other
deals, outside the clock.  The machine is shared, so the ratio is taken round by round (new
over old, both measured within a minute of each other) and the table lists every round.

Per deal it compares outcome, score and nodes.  A deal won by one tree and lost by the other
would be a bug in one of them; a deal one decides and the other leaves ``unknown`` is listed.
The lines are not compared (version 10 returns a line to the best score where version 9
returned none)."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path


def child(first: int, n: int, easy: bool, rows_path: Path) -> None:
    """Solve the deals with the tree on PYTHONPATH; print its CPU time as JSON."""
    import winnable
    from winnable.games import get_game
    from winnable.games.chinese import _thoughtful_solver

    game = get_game("chinese")
    variant = {"easy": "1"} if easy else None
    solver = _thoughtful_solver(game.rules(variant), game.solver_options("thoughtful", None))
    solver.warm_up(game.deal(1, variant))
    solver.solve(game.deal(2, variant))
    rows = []
    cpu = time.process_time()
    for seed in range(first, first + n):
        outcome, score, nodes, _line = solver.solve(game.deal(seed, variant))
        rows.append((seed, int(outcome), int(score), int(nodes)))
    cpu = time.process_time() - cpu
    rows_path.write_text("\n".join(" ".join(map(str, r)) for r in rows) + "\n")
    print(json.dumps({"cpu": cpu, "tree": str(Path(winnable.__file__).parent.parent),
                      "version": game.engine_version("thoughtful")}))


def run_tree(tree: Path, args, rows_path: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree))
    command = [sys.executable, __file__, "--child", "--first", str(args.first), "--n",
               str(args.n), "--rows", str(rows_path)] + (["--easy"] if args.easy else [])
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"error: the run of {tree} failed: {done.stderr.strip().splitlines()[-1]}")
    report = json.loads(done.stdout.strip().splitlines()[-1])
    if Path(report["tree"]).resolve() != tree.resolve():
        raise SystemExit(f"error: {tree} did not run its own winnable ({report['tree']})")
    return report


def read_rows(path: Path, suffix: str):
    """A child's rows as a frame by seed: outcome (its name), score and nodes."""
    import pandas as pd

    from winnable.outcomes import OUTCOME_NAMES

    rows = pd.read_csv(path, sep=" ", names=["seed", "outcome", "score", "nodes"],
                       index_col="seed")
    return rows.assign(outcome=rows.outcome.map(OUTCOME_NAMES)).add_suffix(suffix)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--old-tree", type=Path, help="a checkout of the old engine")
    parser.add_argument("--new-tree", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--first", type=int, default=900001)
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--easy", action="store_true")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--out", type=Path, help="also write the table here")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--rows", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.first, args.n, args.easy, args.rows)
        return
    from common import verdict_changes  # not in the children: it imports this tree's package

    if args.old_tree is None or not (args.old_tree / "winnable").is_dir():
        raise SystemExit("error: --old-tree must be a checkout of winnable (a folder holding "
                         "winnable/)")
    work = Path(f"/tmp/side_by_side_{os.getpid()}")
    work.mkdir(exist_ok=True)
    rounds = []
    for r in range(1, args.rounds + 1):
        old = run_tree(args.old_tree, args, work / f"old{r}.txt")
        new = run_tree(args.new_tree, args, work / f"new{r}.txt")
        rounds.append((r, old, new))
        print(f"round {r}: old {old['cpu']:.2f} s, new {new['cpu']:.2f} s, "
              f"ratio {new['cpu'] / old['cpu']:.3f}", file=sys.stderr)
    rules = "easy (`easy=1`)" if args.easy else "strict"
    last = args.first + args.n - 1
    lines = [f"# Chinese thoughtful, {rules}: two engines side by side on deals "
             f"{args.first:,}-{last:,}", "",
             f"Old: `{args.old_tree}` (solver version {rounds[0][1]['version']}); new: "
             f"`{args.new_tree}` (solver version {rounds[0][2]['version']}); each at its default "
             "settings, one process each, in turn; CPU seconds of the solving alone "
             f"(`python experiments/chinese_side_by_side.py --old-tree OLD --first {args.first} "
             f"--n {args.n}{' --easy' if args.easy else ''} --rounds {args.rounds}`).", "",
             "| round | old CPU s | new CPU s | new / old |", "|---|---|---|---|"]
    for r, old, new in rounds:
        lines.append(f"| {r} | {old['cpu']:.2f} | {new['cpu']:.2f} | "
                     f"{new['cpu'] / old['cpu']:.3f} |")
    old_total = sum(o["cpu"] for _, o, _ in rounds)
    new_total = sum(n["cpu"] for _, _, n in rounds)
    lines.append(f"| all | {old_total:.2f} | {new_total:.2f} | {new_total / old_total:.3f} |")
    both = read_rows(work / f"old{args.rounds}.txt", "_old").join(
        read_rows(work / f"new{args.rounds}.txt", "_new"))
    flips, lost, gained = verdict_changes(both)
    same = both.outcome_old == both.outcome_new
    other = both[same & ((both.score_old != both.score_new) | (both.nodes_old != both.nodes_new))]
    counts = both.groupby(["outcome_old", "outcome_new"]).size()
    lines += ["", "| old verdict | new verdict | deals |", "|---|---|---|"]
    lines += [f"| {a} | {b} | {c:,} |" for (a, b), c in counts.items()]
    lines += ["", f"Deals won by one engine and lost by the other: {len(flips)}"
              + (f" ({', '.join(map(str, flips.index))})" if len(flips) else "") + ".",
              f"Deals the old engine decided and the new one leaves unknown: {len(lost)}"
              + (f" ({', '.join(map(str, lost.index))})" if len(lost) else "") + ".",
              f"Deals the new engine decides and the old one left unknown: {len(gained)}.",
              f"Deals with the same verdict but another score or node count: {len(other)}.", ""]
    text = "\n".join(lines)
    print(text)
    if args.out:
        args.out.write_text(text)


if __name__ == "__main__":
    main()

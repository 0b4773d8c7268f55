"""How much of the strict tail's search a loss proof for barren subtrees could save, at best.

A class of the thoughtful search is *barren* when no face-down card is ever turned below it; with
cards still face down it is lost, and the search learns that only by exhausting it.  The
suggested lever for the undecided tail was to prove such subtrees lost at their roots (by a
stronger test or by learning).  This measures what even a perfect, free such proof leaves.

For each deal of the first --n that the source run (the strict thoughtful run at its defaults)
leaves unknown: one search (``search.search`` (``winnable.solvers.chinese``), every reduction, no restarts) of
--budget nodes with a --memory-mb table, counting the classes searched to the end and those
below which a face-down card turned (``Workspace.searched``).  Any complete search that prunes
only barren classes must still enter each of the latter: a class below which a card turns is
not barren, nor is any class above it on the line that reached it, so the pruned search reaches
it too.  So on a deal still undecided, the count is a lower bound of the nodes such a search
needs, whatever the budget; on a deal proven lost, total over non-barren is the most such a
proof could save.  Writes results/chinese/barren.{csv,md}.  Deals run in parallel (--workers);
each finished deal is kept in --runs-dir, so a run stopped (Ctrl-C, SIGTERM, SIGHUP) resumes
when the same command is run again.
"""

import argparse
import time
from pathlib import Path

import pandas as pd

from chinese import DEALS
from common import ROOT
from winnable import get_game
from winnable.outcomes import OUTCOME_NAMES
from winnable.report import markdown
from winnable.runs.pool import Task, run_tasks
from winnable.runs.spec import RunSpec, run_file
from winnable.solvers.chinese import critical as C
from winnable.solvers.chinese import position as P
from winnable.solvers.chinese import search as CS
from winnable.solvers.table import TranspositionTable
from winnable.stopping import scripts_stop_in_one_line

GAME = get_game("chinese")
BUFFERS = {}  # a worker's table and search buffers, made by ``make_buffers``


def make_buffers(memory_mb: float) -> None:
    """Each worker's setup (``winnable.runs.pool``): its table and search buffers, once."""
    BUFFERS["table"] = TranspositionTable(memory_mb)
    BUFFERS["ws"] = CS.new_workspace()


def search_deal(seed: int, budget: int) -> dict:
    table, ws = BUFFERS["table"], BUFFERS["ws"]
    table.begin_deal()
    ws.searched[:] = 0
    cpu = time.process_time()
    # The search as version 6 measured it: without the critical-path test.
    outcome, best, nodes, _ = CS.search(P.new_position(GAME.deal(seed)), False, False,
                                        CS.ALL & ~CS.CRITICAL, budget, table.keys, table.stamps,
                                        table.deal_first, table.begin_search(), ws, C.no_model(),
                                        0)
    return {"deal": seed, "outcome": OUTCOME_NAMES[int(outcome)], "best": int(best),
            "nodes": int(nodes), "classes": int(ws.searched[0]),
            "turning": int(ws.searched[1]), "cpu_s": round(time.process_time() - cpu, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=2_000, help="deals of the run's start")
    parser.add_argument("--source", default=None,
                        help="the strict run at defaults (default: experiments/chinese.py's)")
    parser.add_argument("--budget", type=int, default=4_000_000)
    parser.add_argument("--memory-mb", type=float, default=1024)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--runs-dir", default=str(ROOT / "runs"))
    parser.add_argument("--results-dir", default=str(ROOT / "results"))
    args = parser.parse_args()
    scripts_stop_in_one_line()
    spec = RunSpec.make("chinese", None, "thoughtful")
    source = Path(args.source) if args.source else run_file(spec, DEALS, args.runs_dir)
    if not source.exists():
        raise SystemExit(f"{source} is missing: run experiments/chinese.py first, or name a "
                         "strict run at the defaults with --source")
    run = pd.read_parquet(source, columns=["seed", "outcome"])
    run = run[run.seed <= args.n]
    if len(run) != args.n:
        raise SystemExit(f"{source} holds {len(run)} of deals 1-{args.n}")
    seeds = sorted(run.seed[run.outcome == "unknown"].astype(int))
    done = Path(args.runs_dir) / (f"chinese_barren_n{args.n}_budget{args.budget}"
                                  f"_mb{args.memory_mb:g}.csv")
    kept = pd.read_csv(done).to_dict("records") if done.exists() else []
    rows = [row for row in kept if row["deal"] in set(seeds)]  # another --source: its deals only
    todo = sorted(set(seeds) - {row["deal"] for row in rows})
    done.parent.mkdir(parents=True, exist_ok=True)

    def keep(row: dict) -> None:
        print(row, flush=True)
        rows.append(row)
        pd.DataFrame(rows).to_csv(done, index=False)  # what a rerun resumes from

    run_tasks([Task(search_deal, (seed, args.budget), f"deal {seed}") for seed in todo],
              args.workers, keep, setup=(make_buffers, (args.memory_mb,)))
    df = pd.DataFrame(rows).sort_values("deal", ignore_index=True)
    df["turning_share"] = (df.turning / df.classes.clip(lower=1)).round(2)
    out = Path(args.results_dir) / "chinese" / "barren"
    out.parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(out.with_suffix(".csv"), index=False)
    text = report(df, args, dict(spec.options)["budget"])
    out.with_suffix(".md").write_text(text)
    print(text)


def report(df: pd.DataFrame, args: argparse.Namespace, default: int) -> str:
    """barren.md: the command, what the counts say, the table."""
    open_ = df[df.outcome == "unknown"]
    lost = df[df.outcome == "loss"]
    over = int((open_.turning >= default).sum())
    saving = lost.classes / lost.turning.clip(lower=1)  # the most a barren proof could save
    return (
        "# Chinese Solitaire, strict: what a loss proof for barren subtrees could save\n\n"
        f"`python experiments/chinese_barren.py --n {args.n} --budget {args.budget} "
        f"--memory-mb {args.memory_mb:g}{' --source RUN' if args.source else ''}` "
        + ("(RUN: a strict thoughtful run at the defaults holding deals 1-"
           f"{args.n:,}, e.g. `solve-batch --game chinese --n {args.n}`) " if args.source else "")
        + f"(solver version {GAME.solver_versions['thoughtful']}): the {len(df)} deals of "
        f"1-{args.n:,} that the strict run at the defaults leaves unknown, each searched once "
        "(no restarts) with "
        f"{args.budget:,} nodes. `classes`: classes searched to the end; `turning`: those below "
        "which a face-down card turned, which any complete search that prunes only barren "
        "subtrees (none turns a card) must still enter (see the script's docstring).\n\n"
        f"- Still unknown: {len(open_)}; on {over} of them the search already entered at least "
        f"{default:,} classes below which a card turned (the default budget is {default:,} "
        "nodes, and each class entered costs one): a search that also proves every barren "
        "subtree lost at its root, at no cost, still cannot prove those deals lost within the "
        "default budget; only finding a win could decide them there.\n"
        + (f"- Proven lost: {len(lost)}; classes over turning classes (the most such a proof "
           f"saves): {saving.min():.2f} to {saving.max():.2f}, median {saving.median():.2f}.\n"
           if len(lost) else "")
        + f"- Won: {int((df.outcome == 'win').sum())}.\n\n"
        + markdown(df, {c: c for c in df.columns}))


if __name__ == "__main__":
    main()

"""The stratified estimate of the win rate of runs with unknown deals (docs/resolve.md and
docs/statistics.md): a seeded uniform sample of --sample K of each run's unknown deals is
escalated by `winnable resolve --sample K --seed S`, step after step (--steps: e.g. a beam
search, then larger budgets; each step escalates the sample's deals still unknown), in a copy of
the run (the run itself keeps its answers).  Writes results/<--name>.{csv,md}: per run, the
counts, the pair of bounds and their interval, the sample and what became of it, the estimate
and its 95% interval, and the commands that reproduce it.

Resumable: a step the copy records is not solved again, and Ctrl-C, SIGTERM or SIGHUP keep every
finished chunk (rerun the same command).  Unknowns are settled by rule-set implication between
the runs given, as in experiments/chinese.py.  `python experiments/headline.py` then shows the
estimate in results/README.md in place of the run's bounds."""

import argparse
import shutil
from pathlib import Path

import pandas as pd

from chinese_resolve import step_options
from common import ROOT
from winnable import get_game, summarize
from winnable.implication import apply_implications
from winnable.report import markdown, reproduce_command, summary_table
from winnable.stats import headline, rate_of_row, rate_text, win_rate
from winnable.runs.read import read_runs
from winnable.runs.resolve import escalations, option_text, resolve_file
from winnable.runs.store import read_spec
from winnable.stopping import scripts_stop_in_one_line


def sample_copy(source: Path, args) -> Path:
    """The copy of ``source`` this sample is escalated in (made once)."""
    copy = Path(args.runs_dir) / f"{source.stem}_sample-{args.sample}_seed-{args.seed}.parquet"
    if not copy.exists():
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, copy)
    return copy


def escalate(copy: Path, args) -> list[dict]:
    """Each step of --steps on the copy's sample (steps it records are skipped)."""
    for options in step_options(args.steps):
        done = [h for h in escalations(copy) if h["options"] == options
                and h.get("sample") == {"size": args.sample, "seed": args.seed}]
        if not done:
            print(resolve_file(copy, options, workers=args.workers, sample=args.sample,
                               seed=args.seed).text(), flush=True)
    return escalations(copy)


def commands(summary_command: str, copy: Path, args) -> str:
    """The commands that reproduce a row: the batch, then each step of the sample."""
    run = copy.name
    steps = [f"winnable resolve {run} --sample {args.sample} --seed {args.seed} "
             + " ".join(f"--option {k}={v}" for k, v in options.items())
             for options in step_options(args.steps)]
    return "; ".join([f"{summary_command} --out {run}", *steps])


def table_of(rows: pd.DataFrame) -> pd.DataFrame:
    """The Markdown table: the headline columns, the bounds without the sample and the
    sample's account."""
    shown = headline(rows).drop(columns=["command"])
    plain = [win_rate(int(r.wins), int(r.losses), int(r.unknowns)) for r in rows.itertuples()]
    estimate = [rate_of_row(row) for _, row in rows.iterrows()]
    shown.insert(5, "width, points", [f"{100 * (r.high - r.low):.2f}" for r in estimate])
    shown.insert(6, "without the sample (95% CI)", list(map(rate_text, plain)))
    shown.insert(7, "its width", [f"{100 * (r.high - r.low):.2f}" for r in plain])
    shown.insert(8, "sample: of unknowns, won / lost / still unknown", [
        f"{r.sample_size:,} of {r.sample_stratum:,}: {r.sample_wins:,} / {r.sample_losses:,} / "
        f"{r.sample_unknowns:,}" for r in rows.itertuples()])
    shown["commands"] = rows["commands"].map(lambda c: f"`{c}`")
    return shown


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--source", action="append", required=True,
                        help="a run file with unknown deals (repeatable: e.g. strict and easy)")
    parser.add_argument("--sample", type=int, required=True, help="unknown deals to sample")
    parser.add_argument("--seed", type=int, default=1, help="which sample")
    parser.add_argument("--steps", default="beam=100;budget=1000000;budget=4000000",
                        help="the steps' solver options: steps separated by ';', options of a "
                             "step by ','")
    parser.add_argument("--name", default=None,
                        help="the table's stem under --results-dir (default <game>/stratified)")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--runs-dir", default=str(ROOT / "runs"))
    parser.add_argument("--results-dir", default=str(ROOT / "results"))
    args = parser.parse_args()
    scripts_stop_in_one_line()
    sources = [Path(s) for s in args.source]
    missing = [s for s in sources if not s.exists()]
    if missing:
        raise SystemExit(f"{missing[0]} is missing: make the run first (e.g. python "
                         "experiments/chinese.py)")
    copies = [sample_copy(source, args) for source in sources]
    for copy in copies:
        escalate(copy, args)
    rows, settled = apply_implications(read_runs(copies))
    game = read_spec(copies[0]).game
    summaries = summarize(rows, get_game(game).summary_means)
    table = summary_table(summaries)
    copy_of = {(read_spec(c).solver, read_spec(c).variant): c for c in copies}
    table["commands"] = [commands(reproduce_command(s), copy_of[(s.solver, s.variant)], args)
                         for s in summaries]
    stem = Path(args.results_dir) / (args.name or f"{game}/stratified")
    stem.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(stem.with_suffix(".csv"), index=False)
    shown = table_of(table)
    steps = "; ".join(option_text(o) for o in step_options(args.steps))
    text = (f"# {get_game(game).title}: the win rate estimated from a sample of the unknown "
            "deals\n\n" + markdown(shown, {c: c for c in shown.columns})
            + f"\nEach run's unknown deals: a seeded uniform sample of {args.sample:,} (seed "
            f"{args.seed}; all of them where there are fewer) escalated step by step ({steps}), "
            "each step on the sample's deals still unknown. The estimate counts the deals "
            "decided before the sample and estimates the unknown ones by the sample's share of "
            "wins; sampled deals still unknown are counted both ways (a range), and the 95% "
            "interval carries both the sampling error and them (docs/statistics.md, The "
            "stratified estimate). Beside it, the pair of bounds of the same run without the "
            "sample (unknowns lost / won) and their interval. Widths in percentage points. "
            f"{settled:,} unknown deals settled by rule-set implication. Made by `python "
            f"experiments/stratified.py --sample {args.sample} --seed {args.seed} --steps "
            f"\"{args.steps}\"` with the runs "
            + ", ".join(f"`{s.name}`" for s in sources) + ".\n")
    stem.with_suffix(".md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()

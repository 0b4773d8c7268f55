"""Soundness check of Chinese Solitaire's critical-path test on whole deals: every strict deal
among the first --n that the thoughtful solver proves lost while --baseline (a run of the same
deals by an earlier version, or with --option learn=0) does not, is searched again without the
test (learn=0) with a large budget (--budget, --memory-mb), by `winnable resolve` in a copy of
those rows set back to unknown (the runs keep their answers).  A win there would be a wrong loss
(a bug); a loss confirms the verdict; unknown means the search without the test did not finish
within the budget.  Writes results/chinese/learn_check.{csv,md}.  A rerun resumes."""

import argparse
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from chinese import strict_run
from common import ROOT
from winnable.report import markdown
from winnable.runs.resolve import escalations, resolve_file
from winnable.runs.store import read_spec, write_atomic
from winnable.stopping import scripts_stop_in_one_line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=2_000, help="deals of the runs' start")
    parser.add_argument("--source", default=None,
                        help="the strict run at the defaults (default: experiments/chinese.py's)")
    parser.add_argument("--baseline", required=True,
                        help="a strict run of the same deals without the test")
    parser.add_argument("--budget", type=int, default=200_000_000)
    parser.add_argument("--memory-mb", type=int, default=6_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--runs-dir", default=str(ROOT / "runs"))
    parser.add_argument("--results-dir", default=str(ROOT / "results"))
    args = parser.parse_args()
    scripts_stop_in_one_line()
    source = (Path(args.source) if args.source else
              strict_run(args.runs_dir))
    for path in (source, Path(args.baseline)):
        if not path.exists():
            raise SystemExit(f"{path} is missing")
    new, old = (pd.read_parquet(p).query(f"seed <= {args.n}").set_index("seed")
                for p in (source, args.baseline))
    if len(new) != args.n or len(old) != args.n:
        raise SystemExit(f"both runs must hold deals 1-{args.n}")
    seeds = sorted(int(s) for s in new.index[(new.outcome == "loss") & (old.outcome != "loss")])
    copy = Path(args.runs_dir) / f"chinese_learn_check_n{args.n}.parquet"
    if not copy.exists():
        rows = pq.read_table(source, filters=[("seed", "in", seeds)])
        outcome = pa.array(["unknown"] * rows.num_rows)
        write_atomic(rows.set_column(rows.schema.get_field_index("outcome"), "outcome", outcome),
                     copy)
    options = {"learn": 0, "budget": args.budget, "memory_mb": args.memory_mb}
    if not any(h["options"] == options for h in escalations(copy)):
        print(resolve_file(copy, options, workers=args.workers).text(), flush=True)
    checked = pd.read_parquet(copy).set_index("seed")
    table = pd.DataFrame({
        "deal": seeds, "nodes": new.loc[seeds, "nodes"].to_numpy(),
        "baseline": old.loc[seeds, "outcome"].to_numpy(),
        "without the test": checked.loc[seeds, "outcome"].to_numpy(),
        "its nodes": checked.loc[seeds, "nodes"].to_numpy(),
        "its seconds": checked.loc[seeds, "seconds"].round(1).to_numpy()})
    out = Path(args.results_dir) / "chinese/learn_check"
    table.to_csv(out.with_suffix(".csv"), index=False)
    text = report(table, args, read_spec(source), read_spec(args.baseline))
    out.with_suffix(".md").write_text(text)
    print(text)


def report(table: pd.DataFrame, args, spec, baseline) -> str:
    counts = table["without the test"].value_counts()
    wins = int(counts.get("win", 0))
    return (
        "# Chinese Solitaire, strict: losses only the critical-path test proves, checked without "
        "it\n\n"
        f"Deals 1-{args.n:,} that the thoughtful solver (version {spec.engine_version}) proves "
        f"lost and the baseline run (version {baseline.engine_version}) does not, searched again "
        f"without the test (`learn=0`, budget {args.budget:,} nodes, `memory_mb={args.memory_mb}`, "
        "`winnable resolve` in a copy of their rows): `python experiments/chinese_learn_check.py "
        f"--n {args.n} --baseline RUN --budget {args.budget} --memory-mb {args.memory_mb}`.\n\n"
        f"- {len(table)} deals: {int(counts.get('loss', 0))} confirmed lost, {wins} won "
        f"({'none: no wrong loss' if wins == 0 else 'WRONG LOSSES: a bug'}), "
        f"{int(counts.get('unknown', 0))} not finished within the budget.\n\n"
        + markdown(table, {c: c for c in table.columns}) + "\n")


if __name__ == "__main__":
    main()

"""The escalation ladder of Chinese Solitaire's strict thoughtful run: the unknown deals among
the first --n (default 10,000) deals of experiments/chinese.py's run (or of --source, a run of
the same solver at its defaults), solved again by `winnable resolve` step after step with the
options of each step (--steps: e.g. a beam search, then larger and larger budgets), in a copy of
those rows (the run itself keeps its answers).  Writes results/chinese/ladder.{csv,md}: the
deals still unknown after each step, with what each step settled and its time per deal.  A rerun
resumes: steps already recorded in the copy are not solved again."""

import argparse
import time
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq

from chinese import strict_run
from common import ROOT
from winnable.report import markdown
from winnable.runs.resolve import escalations, resolve_file
from winnable.runs.spec import RunSpec
from winnable.runs.store import write_atomic
from winnable.stopping import scripts_stop_in_one_line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=10_000, help="deals of the run's start to escalate")
    parser.add_argument("--steps", default="beam=100;budget=1000000;budget=4000000",
                        help="the steps' solver options: steps separated by ';', options of a "
                        "step by ','")
    parser.add_argument("--source", default=None,
                        help="the run to escalate (default: experiments/chinese.py's)")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--runs-dir", default=str(ROOT / "runs"))
    parser.add_argument("--results-dir", default=str(ROOT / "results"))
    args = parser.parse_args()
    scripts_stop_in_one_line()
    source = (Path(args.source) if args.source else
              strict_run(args.runs_dir))
    if not source.exists():
        raise SystemExit(f"{source} is missing: run experiments/chinese.py first")
    ladder = Path(args.runs_dir) / f"chinese_thoughtful_ladder_n{args.n}.parquet"
    if not ladder.exists():
        rows = pq.read_table(source, filters=[("seed", "<=", args.n)])
        if rows.num_rows != args.n:
            raise SystemExit(f"{source} holds {rows.num_rows} of deals 1-{args.n}")
        write_atomic(rows, ladder)
    default_budget = dict(RunSpec.make("chinese", None, "thoughtful").options)["budget"]
    out = Path(args.results_dir) / "chinese/ladder"
    out.parent.mkdir(parents=True, exist_ok=True)
    for options in step_options(args.steps):
        if any(h["options"] == options for h in escalations(ladder)):
            continue  # this step is done: a rerun resumes with the next one
        wall = time.perf_counter()
        report = resolve_file(ladder, options, workers=args.workers)
        print(report.text(), f"({time.perf_counter() - wall:.0f} s wall)", flush=True)
        write_ladder(ladder_table(ladder, default_budget), out, args)
    write_ladder(ladder_table(ladder, default_budget), out, args)


def step_options(text: str) -> list[dict[str, int]]:
    """``"beam=100;budget=1000000"`` -> [{"beam": 100}, {"budget": 1000000}]."""
    return [{k.strip(): int(v) for k, v in (pair.split("=") for pair in step.split(","))}
            for step in text.split(";") if step.strip()]


def ladder_table(ladder: Path, default_budget: int) -> pd.DataFrame:
    """One line per step, from the escalations the ladder file records."""
    frame = pd.read_parquet(ladder)
    steps = frame["step"] if "step" in frame.columns else pd.Series(0, index=frame.index)
    unknown = int(((frame.outcome == "unknown") | (steps > 0)).sum())  # before any escalation
    lines = [{"step": 0, "options": f"budget={default_budget}", "tried": "", "wins": "",
              "losses": "", "unknown left": unknown, "s per deal settled": ""}]
    for h in escalations(ladder):
        unknown -= h["settled"]
        # Settled rows are never solved again, so this figure does not move when a later
        # step is added (the seconds of a row still unknown are its latest attempt's).
        settled = frame[(steps == h["step"]) & (frame.outcome != "unknown")]
        options = ",".join(f"{k}={v}" for k, v in h["options"].items())
        lines.append({"step": h["step"], "options": options, "tried": h["tried"],
                      "wins": h["wins"], "losses": h["losses"], "unknown left": unknown,
                      "s per deal settled": round(float(settled.seconds.mean()), 1)
                      if len(settled) else ""})
    return pd.DataFrame(lines)


def write_ladder(table: pd.DataFrame, out: Path, args) -> None:
    table.to_csv(out.with_suffix(".csv"), index=False)
    title = (f"# Chinese Solitaire, strict: unknown deals of deals 1-{args.n:,} after each "
             "step\n\n")
    notes = ("\nStep 0 is the default run (`python experiments/chinese.py`, or a run of the same "
             "deals at the same defaults); each later step is `winnable resolve` of the deals "
             "still unknown with the solver options shown (the others at their defaults: "
             "`beam` is the width of the beam search, off by default), made by `python "
             f"experiments/chinese_resolve.py --n {args.n} --steps \"{args.steps}\"`. s per "
             "deal settled: the mean solver seconds (wall, per worker) of the deals a step "
             "settled.\n")
    out.with_suffix(".md").write_text(title + markdown(table, {c: c for c in table.columns})
                                      + notes)
    print(table.to_string(index=False))


if __name__ == "__main__":
    main()

"""Chinese Solitaire side by side with Solvitaire (Blake & Gent's solver) on the rules both can
play: `blocks=sequence` (only built runs move together, which Solvitaire's rule format can
express), strict and easy, on one or more ranges of deals (--first, each with --n deals: deals
1-1,000 by default; a range the engine was never tuned on, such as 10,001-12,000, is the fair
test).

Solvitaire is not part of winnable: build it outside the project from its public source
(thecharlieblake/Solvitaire) and name the binary with --solvitaire; --compare names the script
that runs it on a winnable run and writes one row per deal (its verdict, seconds and states
beside ours).  Our runs are one worker (--workers 1 by default) so that each deal's seconds,
like Solvitaire's, are one core's; a deal's seconds are its search alone (each worker's
start-up, compiling or loading the kernels and setting up the solver's buffers, is recorded
apart in the run's metadata, `winnable.startup`), as Solvitaire's printed times are.  Writes results/chinese/solvitaire.{csv,md}: per rule set,
deals, verdicts decided by both, disagreements, undecided deals of each, and total solver time
and states on the deals both decide, with their ratios.  A rerun reuses the stored runs and
comparisons (delete runs/solvitaire_*.csv to compare again).

``--resolve KEY=VALUE,...`` adds a row per range and rule set: our unknown deals solved again
with those options (``winnable resolve`` on a copy of the run, e.g. ``budget=20000000,
memory_mb=2048``: about a minute of one core at most, Solvitaire's own limit), the same
Solvitaire answers beside them.  A re-solved deal's seconds and nodes are those of both of its
searches, the default one and the escalation, added."""

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd

from common import ROOT
from winnable.report import markdown
from winnable.runs.batch import solve_batch, solve_run
from winnable.runs.resolve import resolve_file
from winnable.runs.spec import RunSpec, run_path
from winnable.stopping import scripts_stop_in_one_line

RULE_SETS = {"strict": {"blocks": "sequence"}, "easy": {"blocks": "sequence", "easy": True}}


def compare(args, mode: str, first: int, run: Path) -> pd.DataFrame:
    """One row per deal: seed, ours, peer, our_s, peer_s, our_nodes, peer_states."""
    start = "" if first == 1 else f"_from{first}"
    out = Path(args.runs_dir) / f"solvitaire_{mode}{start}_n{args.n}.csv"
    if not out.exists():
        command = [sys.executable, args.compare, args.solvitaire, str(run), "--csv", str(out)]
        if mode == "easy":
            command.append("--easy")
        done = subprocess.run(command, capture_output=True, text=True)
        print(done.stdout.strip(), flush=True)
        if not out.exists():
            raise SystemExit(f"the comparison of {run} failed: {done.stderr.strip()[-500:]}")
    return pd.read_csv(out)


def our_run(args, variant: dict, first: int) -> Path:
    """Our run of the range (deals 1..n: the experiments' shared run of them)."""
    if first == 1:
        df = solve_run("chinese", args.n, variant, "thoughtful", runs_dir=args.runs_dir,
                       workers=args.workers)
        return Path(df.attrs["path"])
    out = run_path(args.runs_dir, RunSpec.make("chinese", variant, "thoughtful"),
                   f"_from{first}_n{args.n}")
    solve_batch("chinese", args.n, start=first, variant=variant, solver="thoughtful",
                workers=args.workers, out=out)
    return out


def parse_options(text: str) -> dict:
    options = {}
    for item in filter(None, text.split(",")):
        key, sep, value = item.partition("=")
        if not sep or not key or not value:
            raise SystemExit(f"--resolve: expected KEY=VALUE[,KEY=VALUE...], got {item!r}")
        options[key.strip()] = value.strip()
    return options


def resolved(args, t: pd.DataFrame, run: Path) -> pd.DataFrame:
    """The comparison rows with our unknown deals solved again (``--resolve``) on a copy of
    the run: verdicts of the escalation, seconds and nodes of both searches added."""
    copy = run.with_name(run.stem + "_resolve" + run.suffix)
    if not copy.exists():
        shutil.copy(run, copy)
    resolve_file(copy, parse_options(args.resolve), workers=args.workers, progress=False)
    again = pd.read_parquet(copy, columns=["seed", "outcome", "seconds", "nodes", "step"])
    again = again[again.step > 0].set_index("seed")
    t = t.copy()
    redone = t.seed.isin(again.index)
    seeds = t.seed[redone]
    t.loc[redone, "ours"] = again.outcome.reindex(seeds).to_numpy()
    t.loc[redone, "our_s"] += again.seconds.reindex(seeds).to_numpy()
    t.loc[redone, "our_nodes"] += again.nodes.reindex(seeds).to_numpy()
    return t


def row(mode: str, t: pd.DataFrame, step: str = "") -> dict:
    decided = ["win", "loss"]
    both = t[t.ours.isin(decided) & t.peer.isin(decided)]
    return {
        "rules": f"blocks=sequence {mode}", "winnable": step or "default settings",
        "first": int(t.seed.min()), "deals": len(t),
        "decided_by_both": len(both),
        "disagreements": int((both.ours != both.peer).sum()),
        "wins_ours": int((both.ours == "win").sum()),
        "undecided_ours": int((~t.ours.isin(decided)).sum()),
        "undecided_solvitaire": int((~t.peer.isin(decided)).sum()),
        "seconds_ours": round(both.our_s.sum(), 3),
        "seconds_solvitaire": round(both.peer_s.sum(), 3),
        "time_ratio": round(both.our_s.sum() / both.peer_s.sum(), 3),
        "states_ours": int(both.our_nodes.sum()), "states_solvitaire": int(both.peer_states.sum()),
        "states_ratio": round(both.our_nodes.sum() / both.peer_states.sum(), 3),
        "undecided_ours_deals": " ".join(map(str, t.seed[~t.ours.isin(decided)])),
        "undecided_solvitaire_deals": " ".join(map(str, t.seed[~t.peer.isin(decided)])),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--solvitaire", required=True, help="the Solvitaire binary")
    parser.add_argument("--compare", default=str(ROOT.parent / "shared/tools/solvitaire/compare"),
                        help="the script that runs Solvitaire on a run (one row per deal)")
    parser.add_argument("--first", type=int, action="append",
                        help="the first deal of a range (repeat for more ranges; default 1)")
    parser.add_argument("--n", type=int, default=1000, help="deals per range and rule set")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--runs-dir", default=str(ROOT / "runs"))
    parser.add_argument("--results-dir", default=str(ROOT / "results"))
    parser.add_argument("--resolve", default="",
                        help="KEY=VALUE,... : also our unknown deals solved again with these "
                        "options (e.g. budget=20000000,memory_mb=2048)")
    args = parser.parse_args()
    scripts_stop_in_one_line()
    if any(first < 1 for first in args.first or []) or args.n < 1:
        raise SystemExit("--first and --n must be positive deal numbers")
    rows = []
    for first in args.first or [1]:
        for mode, variant in RULE_SETS.items():
            run = our_run(args, variant, first)
            t = compare(args, mode, first, run)
            rows.append(row(mode, t))
            if args.resolve:
                rows.append(row(mode, resolved(args, t, run),
                                f"then resolve {args.resolve.replace(',', ' ')}"))
    table = pd.DataFrame(rows)
    out = Path(args.results_dir) / "chinese/solvitaire"
    table.to_csv(out.with_suffix(".csv"), index=False)
    write_report(table, out)
    print(out.with_suffix(".md").read_text())


def write_report(table: pd.DataFrame, out: Path) -> None:
    """solvitaire.md from the table (solvitaire.csv)."""
    if "first" not in table:  # a table written before ranges other than 1..n
        table = table.assign(first=1)
    table = table.assign(range=[f"{f:,}-{f + n - 1:,}" for f, n in zip(table["first"],
                                                                        table.deals)])
    ranges = list(dict.fromkeys(table.range))
    if "winnable" not in table:  # a table written before --resolve
        table = table.assign(winnable="default settings")
    headers = {"rules": "rules", "winnable": "winnable", "range": "deals", "deals": "count", "decided_by_both": "decided by both",
               "disagreements": "disagreements", "undecided_ours": "undecided: winnable",
               "undecided_solvitaire": "undecided: Solvitaire",
               "seconds_ours": "seconds: winnable", "seconds_solvitaire": "seconds: Solvitaire",
               "time_ratio": "time ratio", "states_ours": "states: winnable",
               "states_solvitaire": "states: Solvitaire", "states_ratio": "states ratio"}
    lines = [f"# Chinese Solitaire: winnable's thoughtful solver beside Solvitaire, deals "
             f"{' and '.join(ranges)}", "", markdown(table, headers), "",
             "Rules both programs play: `--variant blocks=sequence` (strict: kings only to "
             "spaces; easy: any card). Seconds: ours, the solver time of each deal in one "
             "worker (the run's `seconds`: the deal's search alone, each worker's start-up "
             "recorded apart in the run's metadata); Solvitaire's, its own printed milliseconds "
             "(truncated, so half a millisecond is added to each deal). States: our `nodes` "
             "(successors played) and Solvitaire's states searched. Totals are over the deals "
             "both decide; a ratio below 1 means winnable needs less.", ""]
    for r in table.fillna("").to_dict("records"):
        ours, peer = r["undecided_ours_deals"] or "none", r["undecided_solvitaire_deals"] or "none"
        lines.append(f"- {r['rules']}, deals {r['range']}, winnable at {r['winnable']}: "
                     f"undecided by winnable: {ours}; by "
                     f"Solvitaire (its 60 s limit): {peer}.")
    firsts = "".join(f" --first {f}" for f in dict.fromkeys(table["first"]))
    sizes = set(table.deals)
    steps = [s for s in dict.fromkeys(table.winnable) if s != "default settings"]
    again = (f" --resolve {steps[0].removeprefix('then resolve ').replace(' ', ',')}"
             if steps else "")
    lines += ["", f"Made by `python experiments/chinese_solvitaire.py --solvitaire BINARY"
              f"{firsts if firsts != ' --first 1' else ''} --n {max(sizes)}{again}` (winnable "
              f"at its default settings, one worker"
              + (", its unknown deals then re-solved by `winnable resolve` with the options "
                 "named; their seconds and nodes are both searches'" if steps else "") + ")."]
    out.with_suffix(".md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()

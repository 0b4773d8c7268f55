"""Two versions of the Chinese thoughtful solver on the same deals, deal by deal: how each
verdict of the old version fares under the new one.  A deal won by one version and lost by
the other is a bug in one of them (a win is a legal line, a loss a complete search), so the
script lists every such deal.  The old run is made from the old version's commit, e.g.

    git worktree add ../v4 1f0ef97 && cd ../v4 && python -m venv .venv \\
        && .venv/bin/pip install -e . && .venv/bin/solve-batch --game chinese --n 20000 \\
        --out ../runs_v4/strict.parquet      # and --variant easy=1 --out ../runs_v4/easy.parquet

then ``python experiments/chinese_versions.py --old ../runs_v4/strict.parquet --new
runs/chinese_thoughtful_n100000.parquet --label strict`` (and the same for easy).  Writes
results/chinese/versions_<label>.md and prints it."""

import argparse
from pathlib import Path

import pandas as pd

from common import ROOT, verdict_changes
from winnable.report import markdown
from winnable.runs.store import read_spec
from winnable.stopping import scripts_stop_in_one_line

COLUMNS = ["seed", "outcome", "nodes", "seconds"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--old", required=True, help="the old version's run file")
    parser.add_argument("--new", required=True, help="the new version's run file")
    parser.add_argument("--label", required=True, help="names the table, e.g. strict")
    parser.add_argument("--results-dir", default=str(ROOT / "results"))
    parser.add_argument("--timing-note", default=None,
                        help="how the two runs were timed (e.g. runs made under different loads, "
                        "whose seconds are then no speed comparison), printed after the sums")
    args = parser.parse_args()
    scripts_stop_in_one_line()
    old, new = (pd.read_parquet(path, columns=COLUMNS).set_index("seed")
                for path in (args.old, args.new))
    both = old.merge(new, left_index=True, right_index=True, suffixes=("_old", "_new"))
    if both.empty:
        raise SystemExit("error: the two runs share no deal")
    cross = pd.crosstab(both.outcome_old, both.outcome_new, margins=True, margins_name="all")
    cross.index.name, cross.columns.name = "old \\ new", None
    flips, lost_decisions, _ = verdict_changes(both)
    seeds = f"{both.index.min():,}-{both.index.max():,}"
    text = [f"# Chinese Solitaire thoughtful, {args.label}: old against new version, deals "
            f"{seeds} ({len(both):,} deals)\n",
            f"Old run: `{Path(args.old).name}`{described(args.old)}; new run: "
            f"`{Path(args.new).name}`{described(args.new)}, each version at its own defaults. "
            "Rows: the old verdict; columns: the new one.\n",
            markdown(cross.reset_index(), {c: c for c in ["old \\ new", *cross.columns]}),
            f"\nDeals won by one version and lost by the other: {len(flips)} (each would be a "
            "bug in one of them)" + (f": {', '.join(map(str, flips.index))}." if len(flips)
                                     else "."),
            f"\nDeals the old version decided and the new one leaves unknown: "
            f"{len(lost_decisions)}" + (f" ({', '.join(map(str, lost_decisions.index[:30]))}"
                                        f"{' ...' if len(lost_decisions) > 30 else ''})."
                                        if len(lost_decisions) else "."),
            f"\nSolver seconds, summed over these deals: old {both.seconds_old.sum():,.0f}, "
            f"new {both.seconds_new.sum():,.0f}; nodes: old {both.nodes_old.sum():,}, new "
            f"{both.nodes_new.sum():,}." + (f" {args.timing_note}" if args.timing_note else "")
            + "\n"]
    out = Path(args.results_dir) / f"chinese/versions_{args.label}.md"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(text))
    print("\n".join(text))


def described(path: str) -> str:
    """`` (solver version N, budget B)`` from a run file's stored identity, or nothing without
    one."""
    spec = read_spec(Path(path))
    if spec is None:
        return ""
    budget = dict(spec.options).get("budget")
    return (f" (solver version {spec.engine_version}"
            + (f", budget {budget:,}" if budget else "") + ")")


if __name__ == "__main__":
    main()

"""Two versions of Impossible's thoughtful solver on the same deals, under each of the six rule
sets of results/impossible/variants.md: how each verdict of the old version fares under the new
one, and every loss the new version proves searched again by the complete search without its
new ideas (``--option probe=0 --option restarts=0 --option deck_bound=0 --option
score_bound=0``, one search with a large budget).  A deal won by one version and lost by the
other is a bug in one of them (a win is a line of play, a loss a complete search), and so is a
loss the search without the bounds wins; where that search does not finish within its budget
the loss stays unconfirmed, and the table says so.

The new runs are this tree's, deals 1..n (the runs of ``experiments/impossible.py``'s grid
when they are in ``--runs-dir``: their sampled unknowns then carry the larger budget's
verdicts); the old ones are made with a checkout of the old commit (``--old``, e.g. ``git
worktree add ../old 66ee6c5``) into ``--runs-dir``/old_<label>/, resumable.  Writes
results/impossible/versions.md and prints it."""

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd

from common import ROOT, verdict_changes
from winnable import get_game
from winnable.report import markdown
from winnable.runs.batch import solve_run
from winnable.runs.store import read_spec
from winnable.runs.sweep import combinations
from winnable.stopping import scripts_stop_in_one_line

GRID = {"fifteen": ("once", "unlimited", "off"), "new_pile_penalty": ("every", "beyond_nine")}
WITHOUT_NEW_IDEAS = {"probe": 0, "restarts": 0, "deck_bound": 0, "score_bound": 0}


def old_run(checkout: Path, label: str, n: int, variant: dict, runs_dir: Path) -> pd.DataFrame:
    """Deals 1..n solved by the old version (its defaults) in a process with its package (run
    from the checkout: ``python -m`` puts the working directory first on the path, before
    PYTHONPATH, so from this tree it would import this tree's package)."""
    name = "_".join(f"{k}-{v}" for k, v in variant.items()) or "default"
    out = runs_dir / f"old_{label}" / f"impossible_thoughtful_n{n}_{name}.parquet"
    out.parent.mkdir(parents=True, exist_ok=True)
    flags = [arg for k, v in variant.items() for arg in ("--variant", f"{k}={v}")]
    subprocess.run(["nice", "-n", "19", sys.executable, "-m", "winnable", "batch", "--game",
                    "impossible", "--solver", "thoughtful", "--n", str(n), "--workers", "1",
                    "--out", str(out), "--quiet", *flags],
                   env=dict(os.environ, PYTHONPATH=str(checkout)), cwd=checkout, check=True)
    made_by, ours = read_spec(out).engine_version, get_game("impossible").engine_version(
        "thoughtful")
    if made_by == ours:
        raise SystemExit(f"error: {out} was made by version {made_by}, this tree's: the old "
                         f"checkout {checkout} was not the package that ran")
    return pd.read_parquet(out, columns=["seed", "outcome"])


def compare(old: pd.DataFrame, new: pd.DataFrame) -> tuple[pd.DataFrame, list[int], list[int]]:
    """The old verdicts against the new ones, deal by deal (rows: old; columns: new), the deals
    won by one and lost by the other, and those the old version decided and the new one
    leaves unknown."""
    both = old[["seed", "outcome"]].merge(new[["seed", "outcome"]], on="seed",
                                          suffixes=("_old", "_new")).set_index("seed")
    flips, dropped, _ = verdict_changes(both)
    return pd.crosstab(both.outcome_old, both.outcome_new), list(flips.index), list(dropped.index)


def confirm_losses(deals, variant: dict, budget: int) -> dict:
    """Each deal's verdict (a deal number, or a deal written out) by the complete search
    without the new ideas (``WITHOUT_NEW_IDEAS``) within ``budget`` nodes: ``loss`` confirms a
    loss, ``unknown`` leaves it unconfirmed, and ``win`` would be a bug."""
    game = get_game("impossible")
    options = {**WITHOUT_NEW_IDEAS, "budget": budget}
    return {deal: game.solve(deal, variant, "thoughtful", **options).outcome for deal in deals}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--old", required=True, help="a checkout of the old commit")
    parser.add_argument("--old-label", default="66ee6c5", help="how the table names it")
    parser.add_argument("--n", type=int, default=2000, help="deals 1..n")
    parser.add_argument("--confirm-budget", type=int, default=5_000_000,
                        help="nodes of the search that confirms each new loss")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--runs-dir", default=str(ROOT / "runs"))
    parser.add_argument("--results-dir", default=str(ROOT / "results"))
    args = parser.parse_args()
    scripts_stop_in_one_line()
    runs_dir = Path(args.runs_dir)
    text = [f"# Impossible thoughtful: commit {args.old_label} against this version, deals "
            f"1-{args.n:,} under each rule set\n",
            "Rows: the old verdict; columns: the new one (this version at its defaults; deals "
            "its runs left unknown and a later sample escalated carry that verdict). Each "
            "loss the new version proves is searched again without its new ideas "
            f"(`--option {' --option '.join(f'{k}={v}' for k, v in WITHOUT_NEW_IDEAS.items())} "
            f"--option budget={args.confirm_budget}`).\n"]
    summary = []
    for combo in combinations("impossible", GRID):
        variant = combo.values
        label = get_game("impossible").rules(variant).label
        new = solve_run("impossible", args.n, variant, "thoughtful", runs_dir=runs_dir,
                        workers=args.workers)
        old = old_run(Path(args.old).resolve(), args.old_label, args.n, variant, runs_dir)
        cross, flips, dropped = compare(old, new)
        losses = [int(seed) for seed in new.seed[new.outcome == "loss"]]
        confirmed = confirm_losses(losses, variant, args.confirm_budget)
        verdicts = pd.Series(confirmed.values(), dtype=object).value_counts().to_dict()
        summary.append({"rules": label, "flips": len(flips), "new losses": len(losses),
                        "confirmed": verdicts.get("loss", 0),
                        "unconfirmed (search unfinished)": verdicts.get("unknown", 0),
                        "won without the new ideas": verdicts.get("win", 0),
                        "old decided, new unknown": len(dropped)})
        cross.index.name, cross.columns.name = "old \\ new", None
        text += [f"## {label}\n", markdown(cross.reset_index(),
                                          {c: c for c in ["old \\ new", *cross.columns]}),
                 f"\nWon by one version and lost by the other: {len(flips)}"
                 + (f" ({', '.join(map(str, flips))})." if flips else ".")
                 + f" New losses: {len(losses)}" + (f" ({', '.join(map(str, losses))}: "
                                                    + ", ".join(f"{s} {v}" for s, v in
                                                                confirmed.items()) + ")."
                                                    if losses else ".") + "\n"]
        print(summary[-1], flush=True)
    table = pd.DataFrame(summary)
    text.insert(2, markdown(table, {c: c for c in table.columns}) + "\nMade by `python "
                f"experiments/impossible_versions.py --old CHECKOUT --n {args.n} "
                f"--confirm-budget {args.confirm_budget}`, CHECKOUT a checkout of commit "
                f"{args.old_label}.\n")
    out = Path(args.results_dir) / "impossible" / "versions.md"
    out.write_text("\n".join(text))
    print("\n".join(text))


if __name__ == "__main__":
    main()

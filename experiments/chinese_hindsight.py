"""Chinese Solitaire: the `hindsight` no-peek player against `sampling` and `strategy` on the
same deals (issue 39): win rates, the paired differences with their McNemar-style 95% intervals,
and seconds per game.  Ranges: strict deals 1..N (tuning), easy deals 1..N_EASY, and strict
deals from 200,001 (held out: looked at once, with the tuned defaults).  Each run is a
resumable solve-batch file in --runs-dir; rerunning reads them back.  Writes
results/chinese/hindsight.{csv,md}.

    python experiments/chinese_hindsight.py --n 2000 --easy-n 1000 --held-out-n 2000 --workers 1
"""

from pathlib import Path

import pandas as pd

from common import arguments
from winnable.report import markdown
from winnable.runs.batch import solve_batch
from winnable.stats import paired_difference, wilson_interval

HELD_OUT = 200_001  # the first deal of the held-out range
PAIR = ("sampling", "hindsight")


def run(solver, variant, start, n, args):
    label = "easy" if variant.get("easy") else "strict"
    out = Path(args.runs_dir) / f"chinese_{solver}_{label}_{start}-{start + n - 1}.parquet"
    return solve_batch("chinese", n, start=start, variant=variant, solver=solver, out=out,
                       workers=args.workers).set_index("seed")


def pct(x):
    return f"{100 * x:.2f}%"


def paired(base, this):
    """(only base, only this, 'difference [interval]' in points) of two runs on the same deals."""
    won_a, won_b = (df.outcome == "win" for df in (base, this))
    won_a, won_b = won_a.align(won_b, join="inner")
    only_a, only_b = int((won_a & ~won_b).sum()), int((won_b & ~won_a).sum())
    d, low, high = paired_difference(only_a, only_b, len(won_a))
    return only_a, only_b, f"{100 * d:+.2f} [{100 * low:+.2f}, {100 * high:+.2f}]"


def compare(name, variant, start, n, args):
    """One table row: the three players on deals start..start+n-1."""
    a, b, c = (run(solver, variant, start, n, args) for solver in PAIR + ("strategy",))
    only_a, only_b, diff = paired(a, b)
    _, _, diff_strategy = paired(c, b)

    def rate(df):
        won = df.outcome == "win"
        lo, hi = wilson_interval(int(won.sum()), len(won))
        return f"{pct(won.mean())} [{pct(lo)}, {pct(hi)}]"

    return {"deals": name, "games": f"{len(b):,}", "strategy": rate(c), "sampling": rate(a),
            "hindsight": rate(b), "won by hindsight only": only_b,
            "won by sampling only": only_a,
            "difference (95% CI), points": diff,
            "difference vs strategy (95% CI), points": diff_strategy,
            "s/game sampling": f"{a.seconds.mean():.3f}",
            "s/game hindsight": f"{b.seconds.mean():.3f}",
            "nodes/game hindsight": f"{b.nodes.mean():,.0f}"}


NOTES = """
The players see only what a person sees; `sampling` and `hindsight` draw their samples the same
way from each deal's play stream, and `hindsight` (version 2, the defaults: `judge=3`) plays
`sampling`'s move except where strategy rollouts on the samples choose another (where sampling
vetoes `strategy`'s move, or a won sample proves it lost). The difference is hindsight's win
rate minus sampling's (or strategy's) on the same games, with the paired (McNemar-style) 95%
interval from the deals won by one player only (`winnable.stats.paired_difference`). Seconds per
game: the wall-clock time each game took in its worker (`seconds` column), run with one worker
on a machine shared with other work, so an upper bound on the CPU time (results/NOTES.md
gives CPU seconds). The held-out range, when it has a row, was run once with the final defaults
and not looked at while tuning.
"""


if __name__ == "__main__":
    args = arguments(2000, __doc__, easy_n=1000, held_out_n=2000)
    rows = [compare(f"strict 1-{args.n:,}", {}, 1, args.n, args)]
    if args.easy_n:
        rows.append(compare(f"easy 1-{args.easy_n:,}", {"easy": True}, 1, args.easy_n, args))
    if args.held_out_n:
        rows.append(compare(f"strict {HELD_OUT:,}-{HELD_OUT + args.held_out_n - 1:,} (held out)",
                            {}, HELD_OUT, args.held_out_n, args))
    table = pd.DataFrame(rows)
    out = Path(args.results_dir) / "chinese"
    out.mkdir(parents=True, exist_ok=True)
    table.to_csv(out / "hindsight.csv", index=False)
    text = ("# Chinese Solitaire: `hindsight` against `sampling` and `strategy` (the same "
            "deals)\n\n"
            + markdown(table, {c: c for c in table.columns}) + NOTES)
    (out / "hindsight.md").write_text(text)
    print(text)

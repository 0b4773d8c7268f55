"""Chinese Solitaire, strict: whole deals the engine proves lost, checked by a plain search
written apart from it (issue 61 item 4).

The deals: those that results/chinese/catalogue_winnable.csv grades ``lost`` under the strict
rules (deals ``--first``-``--last`` of 1-10,000), and with ``--run`` those lost in a thoughtful
strict run (deals beyond 10,000: raise ``--last``), each solved again by the engine at the default
settings (``get_game("chinese").solve(seed)``), which must say "loss".  Each is then searched by
tests/reference/chinese_plain.py (its own move generator, every reachable position visited
once, no reduction but pile symmetry) with at most ``--limit`` positions: per deal the
positions visited, seconds and verdict ("loss", "win" or "unknown": the limit reached), and the
process's peak memory so far.

From the deals whose plain search finished (verdict "loss"), ``--sample`` are drawn with
``numpy.random.default_rng(--seed)`` (``choice`` without replacement over the finished deals in
seed order) for tests/test_chinese_plain.py.  The sample is biased by design: only deals whose
reachable space is small can be checked whole.

Deals are searched in the order ``--order``: ``seed`` or ``engine`` (fewest engine nodes first,
the engine's count read in the first step); a search stops taking new deals after ``--minutes``
of wall time (the deals not reached are written as not tried).  Per-deal rows are kept in
runs/chinese_plain_losses.csv, so a second run resumes.  Writes
results/chinese/plain_losses.{csv,md}."""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from common import ROOT
from winnable import get_game, read_runs
from winnable.report import markdown
from winnable.stopping import scripts_stop_in_one_line

sys.path.insert(0, str(ROOT))
from tests.reference import chinese_plain as plain  # noqa: E402

GAME = get_game("chinese")
COLUMNS = ["deal", "engine", "engine_nodes", "engine_s", "plain", "positions", "plain_s",
           "peak_mb", "limit"]


CATALOGUE = "results/chinese/catalogue_winnable.csv"


def lost_deals(first: int, last: int, run: str | None = None) -> list[int]:
    """The strict deals first-last graded lost in the catalogue (deals 1-10,000), and with
    ``run`` (a thoughtful run file of the strict rules, e.g. of a million deals) those lost in
    that run too: the deals a checkpoint already holds stay in the tables."""
    catalogue = pd.read_csv(ROOT / CATALOGUE)
    lost = catalogue[(catalogue["strict"] == "lost") & catalogue["seed"].between(first, last)]
    deals = {int(s) for s in lost["seed"]}
    if run is not None:
        rows = read_runs([run], columns=["seed", "outcome"])
        runs = rows[["game", "solver", "variant", "numbering"]].drop_duplicates()
        if len(runs) != 1 or tuple(runs.iloc[0]) != ("chinese", "thoughtful", "default",
                                                     "winnable"):
            raise SystemExit(f"error: --run {run}: expected one Chinese thoughtful run of the "
                             "strict rules (default) in the project's numbering")
        lost = rows[(rows["outcome"] == "loss") & rows["seed"].between(first, last)]
        deals |= {int(s) for s in lost["seed"]}
    return sorted(deals)


def peak_mb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024  # kB on Linux


def engine_rows(deals: list[int]) -> pd.DataFrame:
    """The engine's verdict, nodes and seconds on each deal, default settings."""
    rows = []
    for seed in deals:
        start = time.perf_counter()
        result = GAME.solve(seed)
        rows.append({"deal": seed, "engine": result.outcome, "engine_nodes": result.nodes,
                     "engine_s": round(time.perf_counter() - start, 3)})
    return pd.DataFrame(rows)


def plain_row(seed: int, limit: int) -> dict:
    deal = GAME.format_deal(GAME.deal(seed)).split()
    start = time.perf_counter()
    verdict, positions = plain.solve(deal, limit=limit)
    return {"deal": seed, "plain": verdict, "positions": positions,
            "plain_s": round(time.perf_counter() - start, 2), "peak_mb": peak_mb(),
            "limit": limit}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, default=10_000)
    parser.add_argument("--run", default=None,
                        help="also the deals lost in this thoughtful strict run file (e.g. "
                             "deals beyond the catalogue's 10,000; raise --last)")
    parser.add_argument("--limit", type=int, default=1 << 21,
                        help="positions at most per deal (2^21: the plain search's table of "
                             "2^22 positions half full, about 300 MB)")
    parser.add_argument("--order", choices=("seed", "engine"), default="seed")
    parser.add_argument("--minutes", type=float, default=float("inf"),
                        help="take no new deal after this much wall time")
    parser.add_argument("--sample", type=int, default=50)
    parser.add_argument("--seed", type=int, default=61)
    parser.add_argument("--results-dir", default=str(ROOT / "results"))
    parser.add_argument("--runs-dir", default=str(ROOT / "runs"))
    args = parser.parse_args()
    scripts_stop_in_one_line()
    began = time.monotonic()

    checkpoint = Path(args.runs_dir) / "chinese_plain_losses.csv"
    checkpoint.parent.mkdir(parents=True, exist_ok=True)
    done = pd.read_csv(checkpoint) if checkpoint.exists() else pd.DataFrame(columns=COLUMNS)
    deals = lost_deals(args.first, args.last, args.run)
    engine = done.dropna(subset=["engine"])[["deal", "engine", "engine_nodes", "engine_s"]]
    missing = [s for s in deals if s not in set(engine["deal"])]
    if missing:
        print(f"engine: {len(missing)} deals", flush=True)
        engine = pd.concat([engine, engine_rows(missing)], ignore_index=True)
    engine = engine[engine["deal"].isin(deals)].drop_duplicates("deal")
    plains = done.dropna(subset=["plain"])
    # a deal searched before with a lower limit and not finished is searched again
    plains = plains[(plains["plain"] != "unknown") | (plains["limit"] >= args.limit)]
    plains = plains[["deal", "plain", "positions", "plain_s", "peak_mb", "limit"]]
    resumed = len(plains)

    order = engine.sort_values("engine_nodes" if args.order == "engine" else "deal")
    for seed in order["deal"]:
        if seed in set(plains["deal"]) or order.set_index("deal").at[seed, "engine"] != "loss":
            continue
        if (time.monotonic() - began) / 60 > args.minutes:
            break
        row = plain_row(int(seed), args.limit)
        print(row, flush=True)
        plains = pd.concat([plains, pd.DataFrame([row])], ignore_index=True)
        engine.merge(plains, on="deal", how="left")[COLUMNS].to_csv(checkpoint, index=False)
    table = engine.merge(plains, on="deal", how="left")[COLUMNS].sort_values("deal")
    table.to_csv(checkpoint, index=False)
    for column in ("engine_nodes", "positions", "peak_mb", "limit"):
        table[column] = table[column].astype("Int64")
    write(table, args, resumed)


def write(table: pd.DataFrame, args: argparse.Namespace, resumed: int) -> None:
    """results/chinese/plain_losses.{csv,md}: every deal tried, the sample marked; ``resumed``:
    the deals whose plain search an earlier run made (read from the checkpoint)."""
    finished = table[table["plain"] == "loss"].sort_values("deal")
    count = min(args.sample, len(finished))
    rng = np.random.default_rng(args.seed)
    sample = sorted(int(s) for s in rng.choice(finished["deal"].to_numpy(), count,
                                                replace=False))
    table = table.copy()
    table["sample"] = table["deal"].isin(sample)
    stem = Path(args.results_dir) / "chinese" / "plain_losses"
    table.to_csv(stem.with_suffix(".csv"), index=False)
    tried = table.dropna(subset=["plain"])
    wins = tried[tried["plain"] == "win"]
    engine_not_lost = table[table["engine"] != "loss"]
    picked = table[table["sample"]]
    command = " ".join(["python experiments/chinese_plain_losses.py", *sys.argv[1:]])
    lines = [
        "# Chinese Solitaire, strict: whole lost deals against the plain search",
        "",
        f"Made by `{command}` (experiments/chinese_plain_losses.py)"
        + (f", resuming runs/chinese_plain_losses.csv ({resumed} deals searched before)"
           if resumed else "") + ".",
        "",
        f"- Deals graded lost (strict) in {CATALOGUE}"
        + (f" or lost in the run {args.run}" if args.run else "") + ", "
        f"{args.first:,}-{args.last:,}: {len(table):,}; the engine (default settings) says "
        f"loss on {int((table['engine'] == 'loss').sum()):,}"
        + (f", not on {', '.join(map(str, engine_not_lost['deal']))}" if len(engine_not_lost)
           else "") + ".",
        f"- Plain search (tests/reference/chinese_plain.py), at most {args.limit:,} positions "
        f"a deal, order `{args.order}`: {len(tried):,} deals tried, {len(finished):,} finished "
        f"(every reachable position visited, none won), "
        f"{int((tried['plain'] == 'unknown').sum()):,} reached the limit, "
        f"{len(wins):,} won" + (f" (**deals {', '.join(map(str, wins['deal']))}: the engine "
                               "says lost**)" if len(wins) else "") + ".",
        f"- Peak memory of the process: {int(tried['peak_mb'].max()) if len(tried) else 0:,} MB;"
        f" plain seconds in all: {tried['plain_s'].sum():,.0f}.",
        f"- The sample: {count} of the {len(finished)} finished deals, "
        f"`numpy.random.default_rng({args.seed}).choice` without replacement over them in deal "
        f"order: {', '.join(map(str, sample))}.  Biased by design: only deals whose reachable "
        "space is small (at most the limit) can be checked whole.",
        "",
        "The finished deals (the sample marked):",
        "",
        markdown(finished.assign(sample=finished["deal"].isin(sample))
                 [["deal", "engine_nodes", "positions", "plain_s", "sample"]],
                 {"deal": "deal", "engine_nodes": "engine nodes", "positions": "positions",
                  "plain_s": "plain seconds", "sample": "in sample"}),
    ]
    stem.with_suffix(".md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines[:9]))
    if len(picked) and (picked["plain"] != "loss").any():
        raise SystemExit("a sampled deal is not a loss to the plain search")


if __name__ == "__main__":
    main()

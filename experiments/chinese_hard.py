"""Chinese Solitaire, issue 37: the strict deals of 1-2,000 that the ladder leaves undecided
(``chinese/ladder.md``: 11 after 4,000,000 nodes), each searched once from its deal with a large
budget on one core, and every loss found searched again without the critical-path tests
(``learn=0``: no h^2, no h^3) to confirm it by a search that does not use them.

Each search is ``winnable solve --game chinese --seed D --option budget=B --option
memory_mb=M [--option learn=0] --json`` in a process of its own, stopped after ``--timeout``
seconds of wall clock; what it printed, its CPU seconds and its peak memory (the process's own
``wait4`` figures) go to ``<runs-dir>/hard/D.<label>.json`` and are reused by a rerun (delete a
file to search that deal again). A search stopped by the timeout counts as undecided.

Writes results/chinese/hard.{csv,md}. Run:
``python experiments/chinese_hard.py [--deals 230,250] [--budget 250000000] [--memory-mb 4096]``.
The issue's target: at least 20 of the 27 deals version 6 left after 100,000,000 nodes
settled, each within 10 minutes and 4 GB on one core; the 27 are among version 6's 67 unknowns
of deals 1-2,000, which contain these 11, so the other 16 of the 27 are settled already.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

from common import ROOT
from winnable.report import markdown
from winnable.stopping import scripts_stop_in_one_line

HARD_DEALS = (230, 250, 332, 420, 485, 489, 900, 1076, 1506, 1740, 1895)
COLUMN_TYPES = {"nodes": "Int64", "nodes_without": "Int64", "peak_mb": "Int64",
                "cpu_s": "Float64"}


def parse_deals(text: str) -> list[int]:
    """--deals: deal numbers separated by commas (else a one-line error)."""
    try:
        return [int(d) for d in text.split(",") if d.strip()]
    except ValueError:
        raise SystemExit(f"--deals: expected deal numbers separated by commas, got "
                         f"{text!r}") from None


def search(seed: int, budget: int, memory_mb: int, learn: bool, timeout: float,
           out: Path, stored_only: bool = False) -> dict:
    """One search in a process of its own; its record (stored in ``out``).  With
    ``stored_only``, a search not stored yet is not made: its record says so."""
    if out.exists():
        return json.loads(out.read_text())
    if stored_only:
        return {"seed": seed, "outcome": "not searched"}
    command = [sys.executable, "-m", "winnable", "solve", "--game", "chinese", "--seed",
               str(seed), "--option", f"budget={budget}", "--option", f"memory_mb={memory_mb}",
               "--json"] + ([] if learn else ["--option", "learn=0"])
    started = time.perf_counter()
    with tempfile.TemporaryFile("w+") as printed_file:
        child = subprocess.Popen(command, stdout=printed_file, stderr=subprocess.DEVNULL)
        timed_out = False
        try:
            while True:  # reaped here, not by subprocess: wait4 gives this child's own usage
                pid, _, usage = os.wait4(child.pid, os.WNOHANG)
                if pid:
                    break
                if time.perf_counter() - started > timeout and not timed_out:
                    child.kill()
                    timed_out = True
                time.sleep(0.2)
        except BaseException:  # Ctrl-C, SIGTERM: no search left behind
            child.kill()
            os.waitpid(child.pid, 0)
            raise
        printed_file.seek(0)
        printed = "" if timed_out else printed_file.read()
    record = {"seed": seed, "budget": budget, "memory_mb": memory_mb, "learn": int(learn),
              "wall_s": round(time.perf_counter() - started, 1), "timed_out": timed_out,
              "cpu_s": round(usage.ru_utime + usage.ru_stime, 1),
              "peak_mb": round(usage.ru_maxrss / 1024)}
    if printed.strip():
        solved = json.loads(printed)
        record.update(outcome=solved["outcome"], nodes=solved["nodes"],
                      search_s=round(solved["seconds"], 1))
    else:
        record.update(outcome="unknown", nodes=None, search_s=None)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(record) + "\n")
    return record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", default=",".join(map(str, HARD_DEALS)))
    parser.add_argument("--budget", type=int, default=250_000_000)
    parser.add_argument("--memory-mb", type=int, default=4096)
    parser.add_argument("--timeout", type=float, default=660.0,
                        help="wall-clock seconds a search may take, start-up included")
    parser.add_argument("--stored-only", action="store_true",
                        help="write the tables from the searches stored so far, make no more")
    parser.add_argument("--runs-dir", default=str(ROOT / "runs"))
    parser.add_argument("--results-dir", default=str(ROOT / "results"))
    args = parser.parse_args()
    scripts_stop_in_one_line()
    deals = parse_deals(args.deals)
    where = Path(args.runs_dir) / "hard"
    rows = []
    for seed in deals:
        found = search(seed, args.budget, args.memory_mb, True, args.timeout,
                       where / f"{seed}.learn1.json", args.stored_only)
        row = {"deal": seed, **{k: found.get(k) for k in
                                ("outcome", "nodes", "search_s", "cpu_s", "peak_mb")}}
        if found["outcome"] == "loss":
            again = search(seed, args.budget, args.memory_mb, False, args.timeout,
                           where / f"{seed}.learn0.json", args.stored_only)
            row.update(without_prover=again["outcome"], nodes_without=again.get("nodes"),
                       search_s_without=again.get("search_s"))
        rows.append(row)
        print(row, flush=True)
    table = pd.DataFrame(rows).sort_values("deal")
    # Blanks (no search, or no second search) would turn the counts into floats.
    table = table.astype({c: t for c, t in COLUMN_TYPES.items() if c in table})
    out = Path(args.results_dir) / "chinese/hard"
    table.to_csv(out.with_suffix(".csv"), index=False)
    settled = int(table.outcome.isin(["win", "loss"]).sum())
    headers = {"deal": "deal", "outcome": "verdict", "nodes": "nodes", "search_s": "search s",
               "cpu_s": "CPU s", "peak_mb": "peak MB", "without_prover": "without h^2/h^3",
               "nodes_without": "nodes", "search_s_without": "search s"}
    shown = table.astype(object).where(table.notna(), "")
    lines = [f"# Chinese Solitaire, strict: the deals of 1-2,000 the ladder leaves, at "
             f"{args.budget:,} nodes", "", markdown(shown, headers), "",
             f"{settled} of {len(table)} settled. Each deal searched once from its start "
             f"(`winnable solve --game chinese --seed D --option budget={args.budget} --option "
             f"memory_mb={args.memory_mb} --json`, one core, stopped after {args.timeout:g} s "
             "of wall clock); search s: the solver's own seconds (wall clock, compiling left "
             "out), CPU s and peak MB: the process's. Every loss is searched again with "
             "`--option learn=0` (no critical-path test: the search of version 6's loss tests "
             "alone) to confirm it; unknown there: that search did not finish within the "
             "budget or the time.", "",
             f"Made by `python experiments/chinese_hard.py --budget {args.budget} --memory-mb "
             f"{args.memory_mb}`."]
    out.with_suffix(".md").write_text("\n".join(lines) + "\n")
    print(out.with_suffix(".md").read_text())


if __name__ == "__main__":
    main()

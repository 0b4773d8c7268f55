"""PySolFC's first Chinese Discipline (strict) and Chinese Solitaire (easy=1) games: thoughtful and
no-peek win rates, and catalogues of deals by difficulty for both numberings.

Runs (resumable, one per solver and rule set, in --runs-dir):
* PySolFC numbering (``--numbering pysol``), games 1..--n: thoughtful and strategy; sampling on
  games 1..--sampling-n only (it costs about 0.3 CPU s a game).
* The project's own numbering, deals 1..--n: read from the runs of experiments/chinese.py
  (thoughtful) and experiments/chinese_nopeek.py (strategy, sampling) where they exist; this
  script does not solve them (those scripts do), so a missing run leaves its verdicts out;
  with none of them there, catalogue_winnable.csv stays as it is and is counted as it stands.

Writes results/chinese/pysol.{csv,md} (win rates with intervals),
results/chinese/catalogue_{pysol,winnable}.csv (seed and grade under strict and easy rules)
and results/chinese/catalogue.md (deals per grade)."""

from pathlib import Path

import pandas as pd

from chinese import DEALS as THOUGHTFUL_DEALS
from common import arguments, player_table
from winnable.catalogue import GRADINGS, catalogue, grade_counts
from winnable.implication import apply_implications
from winnable.numbering import PYSOL, WINNABLE
from winnable.report import markdown, write_tables
from winnable.runs.batch import solve_run
from winnable.runs.read import read_runs
from winnable.runs.spec import RunSpec, run_file

RULES = {"strict": {}, "easy": {"easy": True}}
PLAYERS = ("thoughtful", "strategy", "sampling")
# The own numbering's runs, made by the other experiment scripts: solver -> deals per run.
OWN_RUNS = {"thoughtful": THOUGHTFUL_DEALS, "strategy": 10_000, "sampling": 10_000}

NOTES = """
PySolFC plays our strict rules as "Chinese Discipline" and `easy=1` as "Chinese Solitaire";
game N is the layout PySolFC deals for game number N (`winnable/numbering.py`;
`winnable solve --game chinese --pysol N`). `thoughtful` knows every card (the upper bound);
`strategy` and `sampling` see only what a player sees. Unknowns (thoughtful, not decided within
its budget) leave the rate between two bounds (`(bounds)`: unknowns lost / won), count as losses
at the low end of the interval and as wins at the high end, and are settled by rule-set
implication where the other rule set decides them.
"""


def pysol_n(args, solver: str) -> int:
    """Games of a PySolFC-numbered run of ``solver``."""
    return args.sampling_n if solver == "sampling" else args.n


def make_pysol_runs(args) -> None:
    """The PySolFC-numbered runs of ``--players`` (resumable batches): ``solver`` (both rule
    sets) or ``solver@strict`` / ``solver@easy``."""
    wanted = [p.strip().split("@") for p in args.players.split(",")]
    for name, variant in RULES.items():
        for solver in [w[0] for w in wanted if len(w) == 1 or w[1] == name]:
            solve_run("chinese", pysol_n(args, solver), variant, solver, runs_dir=args.runs_dir,
                      workers=args.workers, numbering=PYSOL)


def existing_runs(args, deals: dict[str, int], numbering: str | None = None,
                  say_missing: bool = False) -> list[Path]:
    """The run files in --runs-dir of each solver (-> its deals) under both rule sets."""
    files = []
    for variant in RULES.values():
        for solver, n in deals.items():
            path = run_file(RunSpec.make("chinese", variant, solver, None, numbering), n,
                            args.runs_dir)
            if path.exists():
                files.append(path)
            elif say_missing:
                print(f"not there (yet): {path}; its verdicts are left out", flush=True)
    return files


def grades(rows: pd.DataFrame, n: int) -> tuple[pd.DataFrame, dict]:
    """Seed and grade under each rule set for deals 1..n, and the deals per grade."""
    rows = rows[rows["seed"] <= n]
    table, counts = None, {}
    for name, variant in RULES.items():
        label = "easy=1" if variant else "default"
        if not (rows["variant"] == label).any():
            continue  # no run of this rule set yet
        graded = catalogue(rows[rows["variant"] == label], "chinese")
        counts[name] = grade_counts(graded, "chinese")
        column = graded[["seed", "grade"]].rename(columns={"grade": name})
        table = column if table is None else table.merge(column, on="seed", how="outer")
    return table, counts


if __name__ == "__main__":
    args = arguments(10_000, __doc__, sampling_n=200,
                     players=(",".join(PLAYERS), "the PySolFC-numbered runs to make: solver "
                                                 "(both rule sets) or solver@strict, "
                                                 "solver@easy, separated by commas"))
    out = Path(args.results_dir) / "chinese"
    make_pysol_runs(args)  # the tables use every PySolFC-numbered run there is, not only these
    raw = read_runs(existing_runs(args, {solver: pysol_n(args, solver) for solver in PLAYERS},
                                  PYSOL))
    df, settled = apply_implications(raw)
    table = player_table(df, PLAYERS)
    sampled = f" (sampling: 1-{args.sampling_n:,})" if (raw.solver == "sampling").any() else ""
    write_tables(table, out / "pysol",
                 f"Chinese Solitaire: PySolFC's games 1-{args.n:,}{sampled}",
                 NOTES + f"\n{settled} unknown games were settled by implication.\n")

    catalogues = {PYSOL: df}
    own = existing_runs(args, OWN_RUNS, say_missing=True)
    if own:
        catalogues[WINNABLE] = apply_implications(read_runs(own, columns=["deal"]))[0]
    previous = (out / "catalogue.md").read_text() if (out / "catalogue.md").exists() else ""
    lines = [f"# Chinese Solitaire: deals 1-{args.n:,} by difficulty", "",
             "Grades (`winnable deals`, docs/deals.md): "
             + "; ".join(f"`{g}`: {what}" for g, what in GRADINGS["chinese"].grades) + ".", "",
             "Thoughtful unknowns are settled by implication between the rule sets first.", ""]
    counts_rows = []
    for numbering in (PYSOL, WINNABLE):
        stem = f"- `catalogue_{numbering}.csv` (numbering {numbering})"
        if numbering in catalogues:
            rows = catalogues[numbering]
            graded, counts = grades(rows, args.n)
            graded.to_csv(out / f"catalogue_{numbering}.csv", index=False)
            held = rows[rows.seed <= args.n].groupby(["solver", "variant"]).size()
            lines.append(stem + ", deals of each run used: " + "; ".join(
                f"{solver} {variant} {count:,}" for (solver, variant), count in held.items()))
        elif (out / f"catalogue_{numbering}.csv").exists():
            # Its runs are not here: the catalogue made from them stays, counted as it is.
            kept = pd.read_csv(out / f"catalogue_{numbering}.csv")
            counts = {name: grade_counts(kept.rename(columns={name: "grade"}), "chinese")
                      for name in RULES if name in kept.columns}
            said = [line for line in previous.splitlines() if line.startswith(stem)]
            lines.append(said[0] if said else stem + ": kept from its last regeneration")
        else:
            continue
        for name, per_grade in counts.items():
            counts_rows.append({"numbering": numbering, "rules": name,
                                **{g: f"{c:,}" for g, c in per_grade.items()}})
    counts_table = pd.DataFrame(counts_rows)
    lines += ["", markdown(counts_table, {c: c for c in counts_table.columns})]
    (out / "catalogue.md").write_text("\n".join(lines))
    print("\n".join(lines))

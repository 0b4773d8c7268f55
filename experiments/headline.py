"""Collect the summary tables under results/ into results/README.md (the headline table)."""

from pathlib import Path

import pandas as pd

from winnable.report import headline, markdown

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results"
TABLES = ["nineball/thoughtful.csv", "nineball/nopeek.csv", "addario/summary.csv",
          "chinese/thoughtful.csv", "chinese/nopeek.csv", "impossible/players.csv"]

INTRO = """# Results

Every number below comes with its 95% interval (Wilson; unknowns counted as losses for the low
end and as wins for the high end), the number of deals N, the rules and the solver, and the
command that reproduces it from nothing (the experiment scripts in `experiments/` run them all:
`python experiments/<game>.py`). Per-deal data stays out of git (`runs/`).
"""

if __name__ == "__main__":
    frames = [pd.read_csv(RESULTS / t) for t in TABLES if (RESULTS / t).exists()]
    table = headline(pd.concat(frames, ignore_index=True)
                     .drop_duplicates(["game", "solver", "variant", "deals"]))
    text = INTRO + "\n" + markdown(table, {c: c for c in table.columns})
    notes = RESULTS / "NOTES.md"
    if notes.exists():
        text += "\n" + notes.read_text()
    (RESULTS / "README.md").write_text(text)
    print(text)

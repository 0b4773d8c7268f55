"""Solitario di Addario: as dealt (first), best choices (thoughtful) and the no-peek player,
under both tier rules.  Writes results/addario/summary.{csv,md} and the headline figures
results/addario/*.png, .svg."""

from pathlib import Path

from common import arguments, headline_figures, pick, rows_of, run_all

NOTES = """
`first` plays each deal as written (the first pair of the top tier); `thoughtful` searches every
choice of pair with every card known (an upper bound); `nopeek` sees only the table.
`column_free_equal=1` is the author's variant (column and free pairs form one tier).
"""

if __name__ == "__main__":
    args = arguments(1_000_000, __doc__)
    runs = [("addario", solver, variant)
            for variant in ({}, {"column_free_equal": True})
            for solver in ("first", "thoughtful", "nopeek")]
    files = run_all(runs, args, "addario/summary", "Solitario di Addario: win rates", NOTES)
    rows = rows_of(files)
    variant = {"column_free_equal": True}
    headline_figures(rows, Path(args.results_dir) / "addario",
                     scores_of=rows[rows.variant == "default"], pairs={
                         "rules": (pick(rows, "thoughtful"), pick(rows, "thoughtful", variant)),
                         "nopeek": (pick(rows, "thoughtful"), pick(rows, "nopeek"))})

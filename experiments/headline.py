"""Collect the summary tables under results/ into results/README.md (the headline table), and
show the headline figures the experiment scripts drew (those that exist).

Every figure is computed again from the tables' counts (``winnable.report.headline``), so a table
written by an earlier version, whose ``win_rate`` was wins / decided deals, shows the honest
figures.  A run with a stratified estimate (``experiments/stratified.py``) is shown with it, in
place of its bounds.  First, the tables written by the experiment scripts are brought to today's
columns from their committed CSVs (``REFRESH``; nothing is solved)."""

import argparse
from pathlib import Path

import pandas as pd

from winnable.report import headline, markdown, recount, refresh_tables
from winnable.stopping import scripts_stop_in_one_line

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results"
TABLES = ["nineball/thoughtful.csv", "nineball/nopeek.csv", "addario/summary.csv",
          "chinese/thoughtful.csv", "chinese/stratified.csv", "chinese/nopeek.csv",
          "impossible/players.csv", "impossible/stratified.csv"]
RUN_KEYS = ["game", "solver", "variant", "deals", "numbering"]


def refresh(results: Path) -> None:
    """The committed summary tables with today's columns, recomputed from their counts: those
    of ``write_tables`` (their Markdown table drawn again), and the CSVs of the custom ones."""
    from chinese_nopeek import nopeek_markdown_table
    from chinese_solvitaire import write_report as solvitaire_report
    stems = ["nineball/thoughtful", "nineball/nopeek", "addario/summary", "chinese/thoughtful",
             "chinese/pysol", "impossible/players",
             *(str(p.relative_to(results).with_suffix(""))
               for p in sorted((results / "impossible/grid").glob("*.csv")))]
    for stem in stems:
        if (results / f"{stem}.csv").exists():
            refresh_tables(results / stem)
    if (results / "chinese/nopeek.csv").exists():
        refresh_tables(results / "chinese/nopeek", nopeek_markdown_table)
    if (results / "impossible/variants_all.csv").exists():
        path = results / "impossible/variants_all.csv"
        recount(pd.read_csv(path)).to_csv(path, index=False)
    if (results / "chinese/solvitaire.csv").exists():
        deal_lists = {"undecided_ours_deals": str, "undecided_solvitaire_deals": str}
        solvitaire_report(pd.read_csv(results / "chinese/solvitaire.csv", dtype=deal_lists),
                          results / "chinese/solvitaire")


def headline_rows(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """The rows of the headline table, each run once, in the order the runs first appear: a
    run's row with a stratified estimate (a sample of its unknowns escalated) in place of the
    same run's row without one."""
    rows = pd.concat(frames, ignore_index=True)
    if "numbering" in rows.columns:
        rows["numbering"] = rows["numbering"].fillna("winnable")
    keys = [k for k in RUN_KEYS if k in rows.columns]
    size = rows["sample_size"].fillna(0) if "sample_size" in rows.columns else 0
    order = rows.groupby(keys, sort=False, dropna=False).ngroup()
    return (rows.assign(_run=order, _sample=size)
            .sort_values(["_run", "_sample"], ascending=[True, False], kind="stable")
            .drop_duplicates("_run").drop(columns=["_run", "_sample"]))


# (figure, what it shows), per game, in the order shown; drawn by experiments/<game>.py.
FIGURES = {
    "Nineball Solitaire": [
        ("nineball/winrate.png", "win rate of every solver and rule set, with its 95% interval"),
        ("nineball/paired_rules.png", "the same deals under the default rule and one kitchen "
         "card per group (thoughtful)"),
        ("nineball/paired_nopeek.png", "the no-peek player (`nopeek-win`) against thoughtful on "
         "the same deals, one kitchen card per group"),
        ("nineball/nopeek_means.png", "no peeking against thoughtful: the exact probability of "
         "clearing the rack and the expected score, mean per deal"),
        ("nineball/scores.png", "score distributions (thoughtful)"),
    ],
    "Solitario di Addario": [
        ("addario/winrate.png", "win rate of every solver and tier rule, with its 95% interval"),
        ("addario/paired_rules.png", "the same deals under the default tiers and the author's "
         "variant (thoughtful)"),
        ("addario/paired_nopeek.png", "the no-peek player against thoughtful on the same deals"),
        ("addario/scores.png", "score distributions (default tiers)"),
    ],
    "Chinese Solitaire": [
        ("chinese/winrate.png", "thoughtful win rate, strict and easy, with its 95% interval"),
        ("chinese/paired_rules.png", "strict against easy on the same deals (thoughtful)"),
        ("chinese/nopeek_winrate.png", "every no-peek player beside thoughtful"),
        ("chinese/nopeek_paired_sampling.png", "the best no-peek player (`sampling`) against "
         "thoughtful on the same deals (strict)"),
        ("chinese/scores.png", "score distributions (thoughtful)"),
        ("chinese/nopeek_scores.png", "score distributions of every player (strict)"),
    ],
    "Impossible": [
        ("impossible/winrate.png", "win rate of each player under the default rules "
         "(thoughtful's bound in `impossible/players.md`)"),
        ("impossible/variants_greedy.png", "greedy's win rate under every fifteen rule and "
         "new-pile penalty"),
        ("impossible/variants_lookahead.png", "lookahead's win rate under every rule set"),
        ("impossible/variants_thoughtful.png", "the thoughtful bound under every rule set "
         "(unknown deals counted both ways)"),
        ("impossible/variants_random.png", "random's win rate under every rule set"),
        ("impossible/means.png", "piles picked up, new piles and decisions per game"),
        ("impossible/scores.png", "score distributions"),
    ],
}

# Tables shown whole after the headline table: (file, section title).
SECTIONS = [("chinese/pysol.md", "Chinese Solitaire: PySolFC's game numbers"),
            ("chinese/catalogue.md", "Chinese Solitaire: deals 1-10,000 per difficulty grade "
             "(`winnable deals`; grades in the main README)"),
            ("chinese/solvitaire.md", "Chinese Solitaire beside Solvitaire (the rules both "
             "play: `blocks=sequence`)")]

INTRO = """# Results

Every number below comes with its 95% interval, the number of deals N, the rules and the solver,
and the command that reproduces it from nothing (the experiment scripts in `experiments/` run
them all: `python experiments/<game>.py`). Per-deal data stays out of git (`runs/`).

A win rate is a share of all N deals. Where no deal is `unknown` (not decided within the solver's
budget) it is wins / N with its Wilson interval. Where deals are unknown, the table gives the pair
of bounds (`(bounds)`: every unknown lost, every unknown won) and the interval around the pair
(Wilson's lower bound of the first, Wilson's upper bound of the second), never wins / decided
deals: the unknown deals are the hard ones, mostly lost, so that share is biased upwards. Where a
sample of the unknowns was escalated (`(estimate)`, `experiments/stratified.py`, README:
*Estimating the win rate from a sample*), the stratified estimate and its interval. A mean score
over a run with unknowns is a lower bound (an unknown deal counts the best score found).
"""

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--results-dir", default=str(RESULTS))
    results = Path(parser.parse_args().results_dir)
    scripts_stop_in_one_line()
    refresh(results)
    frames = [pd.read_csv(results / t) for t in TABLES if (results / t).exists()]
    table = headline(headline_rows(frames))
    text = INTRO + "\n" + markdown(table, {c: c for c in table.columns})
    for name, title in SECTIONS:
        if (results / name).exists():
            lines = (results / name).read_text().splitlines()
            rows = [line for line in lines if line.startswith("|")]
            text += f"\n## {title}\n\nFrom `{name}`:\n\n" + "\n".join(rows) + "\n"
    shown = {game: [(f, what) for f, what in figures if (results / f).exists()]
             for game, figures in FIGURES.items()}
    if any(shown.values()):
        text += ("\n## Figures\n\nEach figure is also an SVG beside it; its caption gives N, "
                 "the rules and the solver of every run.\n")
        for game, figures in shown.items():
            if figures:
                text += f"\n### {game}\n\n" + "".join(
                    f"![{what}]({f})\n\n*{what[0].upper() + what[1:]}.*\n\n"
                    for f, what in figures)
    notes = results / "NOTES.md"
    if notes.exists():
        text += "\n" + notes.read_text()
    (results / "README.md").write_text(text)
    print(text)

"""Collect the summary tables under results/ into results/README.md (the headline table), and
show the headline figures the experiment scripts drew (those that exist)."""

from pathlib import Path

import pandas as pd

from winnable.report import headline, markdown

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results"
TABLES = ["nineball/thoughtful.csv", "nineball/nopeek.csv", "addario/summary.csv",
          "chinese/thoughtful.csv", "chinese/nopeek.csv", "impossible/players.csv"]

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
    for name, title in SECTIONS:
        if (RESULTS / name).exists():
            lines = (RESULTS / name).read_text().splitlines()
            rows = [line for line in lines if line.startswith("|")]
            text += f"\n## {title}\n\nFrom `{name}`:\n\n" + "\n".join(rows) + "\n"
    shown = {game: [(f, what) for f, what in figures if (RESULTS / f).exists()]
             for game, figures in FIGURES.items()}
    if any(shown.values()):
        text += ("\n## Figures\n\nEach figure is also an SVG beside it; its caption gives N, "
                 "the rules and the solver of every run.\n")
        for game, figures in shown.items():
            if figures:
                text += f"\n### {game}\n\n" + "".join(
                    f"![{what}]({f})\n\n*{what[0].upper() + what[1:]}.*\n\n"
                    for f, what in figures)
    notes = RESULTS / "NOTES.md"
    if notes.exists():
        text += "\n" + notes.read_text()
    (RESULTS / "README.md").write_text(text)
    print(text)

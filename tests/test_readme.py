"""The README is the front door (issue 41): short, the headline table on the first screen with
every figure taken from the committed tables under results/, the two commands CI runs, links
that lead somewhere.  A figure in the README's table that no results table holds fails here."""

import re
import sys
from pathlib import Path

import pandas as pd
import pytest

from winnable.stats import rate_of_row, rate_text

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
# The README's rows: (game, rules) of the default rules, one per game, Chinese in both modes.
ROWS = {"Chinese Solitaire, strict": ("chinese", "default"),
        "Chinese Solitaire, easy": ("chinese", "easy=1"),
        "Nineball Solitaire": ("nineball", "default"),
        "Solitario di Addario": ("addario", "default"),
        "Impossible": ("impossible", "default")}


def source_figures() -> set[str]:
    """The figures of the Chinese Solitaire source text (Jonte's "roughly 33%", Rasa's 179 wins
    in 355 games, 50.42%) as docs/chinese.md records them in its row "The text's figures": the
    only figures that the README and the results page quote and no results table holds."""
    row = next(line for line in (ROOT / "docs/chinese.md").read_text().splitlines()
               if line.startswith("| The text's figures |"))
    return set(NUMBER.findall(row.split("|")[2]))


def section(title: str) -> str:
    text = README.read_text()
    start = text.index(f"## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end >= 0 else len(text)]


def table(text: str) -> dict[str, list[str]]:
    """The rows of the first Markdown table of ``text``, keyed by their first cell."""
    lines = [line for line in text.splitlines() if line.startswith("|")][2:]
    return {cells[0]: cells[1:] for cells in
            ([c.strip() for c in line.strip("|").split("|")] for line in lines)}


@pytest.fixture(scope="module")
def results():
    """Each run of the committed tables once, as experiments/headline.py shows them (a run's
    stratified estimate in place of its bounds)."""
    sys.path.insert(0, str(ROOT / "experiments"))
    try:
        from headline import TABLES, headline_rows
    finally:
        sys.path.remove(str(ROOT / "experiments"))
    frames = [pd.read_csv(ROOT / "results" / t) for t in TABLES if (ROOT / "results" / t).exists()]
    return headline_rows(frames)


def cell(row) -> str:
    return f"{rate_text(rate_of_row(row))} of {int(row['deals']):,} deals"


def expected_cells(results, game: str, rules: str) -> tuple[str, str]:
    """What the README must show for a game and rules: thoughtful's largest run, and the best
    player that does not peek (every solver but thoughtful) by the low end of its interval."""
    runs = results[(results.game == game) & (results.variant == rules)]
    thoughtful = runs[runs.solver == "thoughtful"].sort_values("deals").iloc[-1]
    players = runs[runs.solver != "thoughtful"]
    best = max((row for _, row in players.iterrows()),
               key=lambda row: (rate_of_row(row).least, row["deals"]))
    return cell(thoughtful), f"`{best['solver']}`: {cell(best)}"


def test_the_readme_is_short_and_in_the_issues_order():
    text = README.read_text()
    assert len(text.encode()) <= 12 * 1024, f"README is {len(text.encode())} bytes"
    titles = [line[3:] for line in text.splitlines() if line.startswith("## ")]
    assert titles == ["What it found", "Two commands that do everything on a fresh machine",
                      "A five-minute tour", "Where to read on"]
    lines = text.splitlines()
    first_row = next(i for i, line in enumerate(lines) if line.startswith("| Chinese"))
    commands = [i for i, line in enumerate(lines) if line.startswith("python3 -m venv")]
    assert first_row < 40, "the headline table is not on the first screen"
    assert len(commands) == 2 and commands[-1] < 80, "the two commands are not on the second"


def test_headline_figures_are_the_results_tables(results):
    rows = {name.split(" (")[0]: cells for name, cells in table(section("What it found")).items()}
    assert set(rows) == set(ROWS), sorted(rows)
    assert {game for game, _ in ROWS.values()} == set(results.game)
    allowed = set()
    for name, (game, rules) in ROWS.items():
        thoughtful, player = expected_cells(results, game, rules)
        assert rows[name][0] == thoughtful, (name, rows[name][0], thoughtful)
        assert rows[name][1] == player, (name, rows[name][1], player)
        allowed |= set(NUMBER.findall(thoughtful + " " + player))
    # Every other figure of the table is the source's: the strict row quotes each one that
    # docs/chinese.md records, the easy row some of them (Rasa's, both modes in the mix).
    source = source_figures()
    assert set(NUMBER.findall(rows["Chinese Solitaire, strict"][2])) == source
    assert set(NUMBER.findall(rows["Chinese Solitaire, easy"][2])) <= source
    assert rows["Chinese Solitaire, easy"][2] != "no figure"
    allowed |= source
    shown = NUMBER.findall(" ".join(" | ".join(cells) for cells in rows.values()))
    assert set(shown) <= allowed, set(shown) - allowed


NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?%?")


def test_the_two_commands_are_the_ones_ci_runs():
    text = section("Two commands that do everything on a fresh machine")
    main_job, tests = re.findall(r"```bash\n(.*?)\n```", text, re.S)
    assert main_job == ("python3 -m venv .venv && . .venv/bin/activate && pip install -e . && "
                        "solve-batch --game nineball --n 1000000")
    ci = (ROOT / ".ci/run").read_text().splitlines()
    test_line = next(line for line in ci if "pytest" in line)
    assert tests == test_line.split(" | tee ")[0].replace("pip install -q ", "pip install ")
    assert any(line.startswith("python -m pytest -q -m slow") for line in ci)
    assert any(line.strip().endswith("mkdocs build --strict") for line in ci)


def test_readme_links_lead_somewhere():
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README.read_text()):
        if "://" not in target:
            assert (ROOT / target).exists(), target

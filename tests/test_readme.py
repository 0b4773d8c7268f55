"""The README is the front door (issue 41): short, the headline table on the first screen with
every figure taken from the committed tables under results/, the two commands CI runs, links
that lead somewhere.  A figure in the README's table that no results table holds fails here."""

import re
import sys
from pathlib import Path

import pandas as pd
import pytest

from winnable.report import rate_text
from winnable.stats import rate_of_row

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
# The README's rows: (game, rules) of the default rules, one per game, Chinese in both modes.
ROWS = {"Chinese Solitaire, strict": ("chinese", "default"),
        "Chinese Solitaire, easy": ("chinese", "easy=1"),
        "Nineball Solitaire": ("nineball", "default"),
        "Solitario di Addario": ("addario", "default"),
        "Impossible": ("impossible", "default")}
# The source's own figures (Chinese Solitaire: Jonte's "roughly 33%", Rasa's 179 of 355).
SOURCE_WINS, SOURCE_GAMES = 179, 355


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
    # Every other figure of the table is the source's.
    strict = rows["Chinese Solitaire, strict"][2]
    share = f"{100 * SOURCE_WINS / SOURCE_GAMES:.2f}%"
    assert share == "50.42%" and share in strict and f"{SOURCE_WINS} of {SOURCE_GAMES}" in strict
    assert '"roughly 33%"' in strict and share in rows["Chinese Solitaire, easy"][2]
    allowed |= {"33%", share, str(SOURCE_WINS), str(SOURCE_GAMES)}
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
    assert tests == test_line.replace("pip install -q ", "pip install ")
    assert any(line.strip().endswith("mkdocs build --strict") for line in ci)


def test_readme_links_lead_somewhere():
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README.read_text()):
        if "://" not in target:
            assert (ROOT / target).exists(), target

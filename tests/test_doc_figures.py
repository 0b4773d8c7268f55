"""The figures of docs/speed.md, docs/statistics.md, docs/chinese-engine.md and the README are
taken from, or checked against, the committed tables under results/ (issue 59), and every
results table names the solver version that made it (results/versions.csv): a table of the
current headline older than the engine's version fails here unless it says why.

docs/speed.md's tables are results/speed.csv drawn as Markdown (``speed_tables``), each
measurement with its date and the version it measured, marked when the engine has moved on
since: to change a row, change the CSV and paste what the failing test prints.  Its profile of
a Chinese run quotes results/chinese/profile_*.md (``experiments/chinese_profile.py``)."""

import csv
import re
import sys
from pathlib import Path

import pandas as pd
import pytest

from winnable import GAME_NAMES, get_game

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results"
DOCS = ROOT / "docs"
SPEED_SECTIONS = {"other": "Nineball, Addario and Impossible", "chinese": "Chinese Solitaire",
                  "setup": "Installing and testing"}


def first_number(text: str) -> int:
    return int(re.match(r"\d+", str(text)).group())


def engine_version(game: str, solver: str) -> int:
    return get_game(game).engine_version(solver)


def version_cell(row: dict) -> str:
    """When a measurement was made and of which version, marked if the engine is newer."""
    if not row["game"]:  # the whole project (the tests, an install)
        return row["measured"]
    cell = f"{row['measured']}, {row['game']} `{row['solver']}` version {row['version']}"
    now = engine_version(row["game"], row["solver"])
    if first_number(row["version"]) < now:
        cell += f" (the engine is now version {now})"
    return cell


def speed_tables() -> dict[str, str]:
    """results/speed.csv as the Markdown tables of docs/speed.md, one per section."""
    rows = list(csv.DictReader((RESULTS / "speed.csv").open()))
    tables = {}
    for section in SPEED_SECTIONS:
        lines = ["| what | command | measured | figure |", "|---|---|---|---|"]
        lines += [f"| {r['what']} | {r['command']} | {version_cell(r)} | {r['figure']} |"
                  for r in rows if r["section"] == section]
        tables[section] = "\n".join(lines) + "\n"
    return tables


def profile_tables() -> list[str]:
    """The tables of results/chinese/profile_*.md (where a Chinese run's CPU goes), their
    text from the line that names the deals on, as docs/speed.md quotes them."""
    texts = []
    for rules in ("strict", "easy"):
        text = (RESULTS / f"chinese/profile_{rules}.md").read_text()
        texts.append(text[text.index("Chinese thoughtful, "):])
    return texts


def test_speed_md_is_results_speed_csv():
    text = (DOCS / "speed.md").read_text()
    for section, table in speed_tables().items():
        assert f"## {SPEED_SECTIONS[section]}\n" in text
        assert table in text, f"docs/speed.md's {section} table should read:\n{table}"
    for profile in profile_tables():
        assert profile in text, f"docs/speed.md should quote results/chinese:\n{profile}"
    rows = [line for line in text.splitlines() if line.startswith("| ")]
    drawn = sum(len(t.splitlines()) - 1 for t in speed_tables().values())
    drawn += sum(line.startswith("| ") for t in profile_tables() for line in t.splitlines())
    assert len(rows) == drawn, "docs/speed.md has a table row that results/ has not"


def test_the_readme_quotes_the_setup_rows():
    """How long the README's commands take is results/speed.csv's, word for word."""
    readme = " ".join((ROOT / "README.md").read_text().split())
    for row in csv.DictReader((RESULTS / "speed.csv").open()):
        if row["section"] == "setup":
            assert row["figure"] in readme, row["figure"]


def test_no_peek_seconds_in_speed_csv_are_the_nopeek_table():
    """The no-peek row's seconds a game are results/chinese/nopeek.csv's, as it rounds them."""
    row = next(r for r in csv.DictReader((RESULTS / "speed.csv").open())
               if r["what"].startswith("Chinese no-peek players"))
    table = pd.read_csv(RESULTS / "chinese/nopeek.csv").set_index(["solver", "variant"])
    for solver in ("sampling", "strategy", "random", "thoughtful"):
        strict, easy = (table.loc[(solver, v), "seconds_per_game"] for v in ("default", "easy=1"))
        shown = " / ".join(f"{s:.4f}" if s < 0.01 else f"{s:.3f}" for s in (strict, easy))
        assert f"`{solver}` {shown}" in row["figure"], (solver, shown)
    assert first_number(row["version"]) == engine_version("chinese", "sampling")


# --- every results table names the version that made it --------------------------------------

def manifest() -> pd.DataFrame:
    return pd.read_csv(RESULTS / "versions.csv", dtype=str, keep_default_na=False)


def table_stems() -> set[str]:
    """Every table under results/ (CSV or Markdown), as its path without the suffix."""
    return {p.relative_to(RESULTS).with_suffix("").as_posix()
            for p in [*RESULTS.rglob("*.csv"), *RESULTS.rglob("*.md")]
            if p.name not in ("README.md", "NOTES.md") and p.name != "versions.csv"
            and p.name != "speed.csv"}


def headline_tables() -> list[str]:
    sys.path.insert(0, str(ROOT / "experiments"))
    try:
        from headline import TABLES
    finally:
        sys.path.remove(str(ROOT / "experiments"))
    return [t.removesuffix(".csv") for t in TABLES]


def test_every_results_table_names_the_version_that_made_it():
    listed = set(manifest()["table"])
    assert table_stems() <= listed, f"not in results/versions.csv: {table_stems() - listed}"
    assert listed <= table_stems(), f"no such table: {listed - table_stems()}"
    for row in manifest().itertuples():
        assert row.game in GAME_NAMES and row.solver in get_game(row.game).solvers, row
        assert re.fullmatch(r"\d{4}-\d\d-\d\d", row.made), row
        assert first_number(row.version) <= engine_version(row.game, row.solver), row


def test_a_headline_table_older_than_the_engine_says_why():
    rows = manifest()
    for stem in headline_tables():
        for row in rows[rows.table == stem].itertuples():
            now = engine_version(row.game, row.solver)
            if first_number(row.version) < now:
                assert row.note.strip(), (
                    f"results/{stem}: {row.game} {row.solver} version {row.version} made it "
                    f"and the engine is version {now}: regenerate it, or say why in "
                    "results/versions.csv (note)")


# --- docs/statistics.md and docs/chinese-engine.md ----------------------------------------------

def stratified_strict() -> pd.Series:
    table = pd.read_csv(RESULTS / "chinese/stratified.csv")
    return table[table.variant == "default"].iloc[0]


def test_statistics_md_quotes_the_stratified_table():
    text = (DOCS / "statistics.md").read_text()
    s = stratified_strict()
    sample = (f"of a seeded sample of {int(s.sample_size)} of the {int(s.sample_stratum)} "
              "strict Chinese deals left")
    assert sample in " ".join(text.split())
    won, lost, left = int(s.sample_wins), int(s.sample_losses), int(s.sample_unknowns)
    assert f"won {won}, proved {lost} lost and left {left}" in " ".join(text.split())


def test_chinese_engine_md_section_5_is_the_tables():
    text = " ".join((DOCS / "chinese-engine.md").read_text().split())
    section = text[text.index("## 5. What is still hard"):]
    strict = pd.read_csv(RESULTS / "chinese/thoughtful.csv").set_index("variant").loc["default"]
    unknown = int(strict.unknowns)
    made = manifest().set_index(["table", "solver"]).loc[("chinese/thoughtful", "thoughtful")]
    assert f"{unknown:,} of deals 1-{int(strict.deals):,} stay `unknown` " \
           f"({100 * unknown / strict.deals:.2f}%, solver version {made.version};" in section
    ladder = pd.read_csv(RESULTS / "chinese/ladder.csv")
    first, last = int(ladder["unknown left"].iloc[0]), int(ladder["unknown left"].iloc[-1])
    assert f"{first} of deals 1-2,000, of which a beam search" in section
    assert f"win {first - last} (`winnable resolve`" in section
    hard = pd.read_csv(RESULTS / "chinese/hard.csv")
    assert len(hard) == last and f"Of the {last} left" in section
    nodes = int(hard.nodes.max())
    assert f"a search of {nodes:,} nodes" in section
    lost = hard[hard.outcome == "loss"]
    assert f"proves {len(lost)} lost ({', '.join(map(str, lost.deal))})" in section
    assert (lost.cpu_s < 600).all() and f"under {hard.peak_mb.max() / 1000:.1f} GB" in section
    ratio = lost.nodes_without / lost.nodes
    assert f"{ratio.min():.1f}-{ratio.max():.1f} times the nodes" in section
    left = hard[hard.outcome == "unknown"].deal.tolist()
    assert (", ".join(map(str, left[:-1])) + f" and {left[-1]} stay unknown") in section

"""Issue 38's acceptance: no output of the project shows wins / decided deals under the name "win
rate".  Each output path (the CLI summary of a batch and of `winnable summary`, --json, --csv,
the Markdown tables of `winnable.report`, the `winrate` and `running` figures, a sweep's tables
and experiments/headline.py's results README) runs on a run with wins, losses and unknowns,
and the figure it prints under "win rate" is checked against wins / decided."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from winnable import plot, solve_batch, summarize
from winnable.runs.read import read_runs
from winnable.report import summary_table, write_tables
from winnable.stats import headline
from winnable.runs.sweep import sweep

ROOT = Path(__file__).resolve().parent.parent
OPTIONS = {"budget": 1000, "strategy": 0}  # deals 180-209: 22 wins, 4 losses, 4 unknown
WINNABLE = [sys.executable, "-m", "winnable"]


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("honest") / "strict.parquet"
    rows = solve_batch("chinese", n=30, start=180, options=OPTIONS, workers=1, out=out,
                       progress=False)
    counts = rows.outcome.value_counts()
    assert counts["win"] and counts["loss"] and counts["unknown"], counts
    return out, counts["win"] / (counts["win"] + counts["loss"]), counts


def decided_texts(share: float) -> list[str]:
    """wins / decided as the outputs would print it (percent with 2 or 3 decimals, a fraction
    with 3 to 6)."""
    return ([f"{100 * share:.{d}f}" for d in (2, 3)] + [f"{share:.{d}f}" for d in (3, 4, 6)])


def assert_no_decided_rate(lines, share: float, where: str) -> None:
    for line in lines:
        if "win rate" in line:
            found = [t for t in decided_texts(share) if t in line]
            assert not found, f"{where}: {line!r} shows wins / decided ({found})"


def test_cli_summaries_show_bounds_not_the_decided_share(run):
    out, share, counts = run
    for command in (["summary", str(out)],
                    ["batch", "--game", "chinese", "--n", "30", "--start", "180", "--option",
                     "budget=1000", "--option", "strategy=0", "--out", str(out), "--quiet"]):
        p = subprocess.run(WINNABLE + command, capture_output=True, text=True, timeout=300)
        assert p.returncode == 0, p.stderr
        lines = p.stdout.splitlines()
        assert_no_decided_rate(lines, share, " ".join(command[:1]))
        n = sum(counts)
        assert any(f"win rate between {100 * counts['win'] / n:.2f}% (unknowns lost) and "
                   f"{100 * (counts['win'] + counts['unknown']) / n:.2f}% (unknowns won)" in line
                   for line in lines), p.stdout
        labelled = [line for line in lines if f"{100 * share:.2f}%" in line]
        assert labelled and all("share of decided deals won" in line for line in labelled)
        assert any("mean score" in line and "a lower bound" in line for line in lines)


def test_json_and_csv_carry_no_decided_rate_as_the_win_rate(run):
    out, share, counts = run
    for command in (["summary", "--json", str(out)],
                    ["batch", "--json", "--game", "chinese", "--n", "30", "--start", "180",
                     "--option", "budget=1000", "--option", "strategy=0", "--out", str(out),
                     "--quiet"]):
        p = subprocess.run(WINNABLE + command, capture_output=True, text=True, timeout=300)
        assert p.returncode == 0, p.stderr
        (row,) = json.loads(p.stdout)
        assert row["win_rate"] is None
        assert row["decided_win_share"] == pytest.approx(share)
        n = sum(counts)
        assert row["win_min"] == pytest.approx(counts["win"] / n)
        assert row["win_max"] == pytest.approx((counts["win"] + counts["unknown"]) / n)
        assert row["win_low"] <= row["win_min"] < row["win_max"] <= row["win_high"]
        assert row["score_lower_bound"] is True
    p = subprocess.run(WINNABLE + ["summary", "--csv", str(out)], capture_output=True,
                       text=True, timeout=300)
    table = pd.read_csv(pd.io.common.StringIO(p.stdout))
    assert table.win_rate.isna().all()
    assert not np.isclose(table[[c for c in table.columns if c.startswith("win_")]],
                          share).any()


def test_tables_and_figures_show_bounds_not_the_decided_share(run, tmp_path):
    out, share, counts = run
    rows = read_runs([out])
    (s,) = summarize(rows)
    table = headline(summary_table([s]))
    cell = table["win rate (95% CI)"].iloc[0]
    assert "(bounds)" in cell
    assert_no_decided_rate([f"win rate {cell}"], share, "headline")
    write_tables(summary_table([s]), tmp_path / "t", "title")
    assert_no_decided_rate(["win rate " + line for line in
                            (tmp_path / "t.md").read_text().splitlines() if line.startswith("|")],
                           share, "write_tables")
    fig = plot.winrate(rows)
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_yticklabels()] + [ax.get_xlabel()]
    assert_no_decided_rate(["win rate " + label for label in labels], share, "winrate figure")
    assert "% of all deals" in ax.get_xlabel()
    drawn = np.concatenate([np.ravel(line.get_xdata()) for line in ax.get_lines()])
    assert not np.isclose(drawn, 100 * share).any()
    fig = plot.running(rows)
    ax = fig.axes[0]
    assert "decided" not in ax.get_ylabel() and "% of all deals" in ax.get_ylabel()
    ends = [float(np.ravel(line.get_ydata())[-1]) for line in ax.get_lines()]
    n = sum(counts)
    assert sorted(ends) == pytest.approx([100 * counts["win"] / n,
                                          100 * (counts["win"] + counts["unknown"]) / n])


def test_sweep_tables_show_bounds_not_the_decided_share(tmp_path):
    result = sweep("chinese", 30, {"blocks": ["any", "sequence"]}, start=180, options=OPTIONS,
                   workers=1, out_dir=tmp_path / "sweep", progress=False)
    checked = 0
    for s in result.summary.itertuples():
        if s.wins and s.unknowns and s.losses:  # wins / decided then lies between the bounds
            checked += 1
            decided = s.wins / (s.wins + s.losses)
            assert s.win_rate != s.win_rate  # NaN: no point
            md = (tmp_path / "sweep/summary.md").read_text().splitlines()
            rows = [line for line in md if f"| {s.rules} |" in line]
            assert rows and "(bounds)" in rows[0]
            assert_no_decided_rate(["win rate " + line for line in rows], decided, "sweep")
    assert checked


def test_headline_readme_shows_bounds_not_the_decided_share(run, tmp_path):
    out, share, _ = run
    (s,) = summarize(read_runs([out]))
    results = tmp_path / "results"
    write_tables(summary_table([s]), results / "chinese/thoughtful", "title")
    p = subprocess.run([sys.executable, str(ROOT / "experiments/headline.py"), "--results-dir",
                        str(results)], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    lines = [line for line in (results / "README.md").read_text().splitlines()
             if line.startswith("| chinese")]
    assert lines and "(bounds)" in lines[0]
    assert_no_decided_rate(["win rate " + line for line in lines], share, "headline.py")

"""Variant sweeps: the same deals under every combination of rule flags, one table, one table of
paired differences, one figure; resumable; one-line errors."""

import itertools

import pandas as pd
import pytest
from click.testing import CliRunner

from winnable.cli import cli
from winnable.runs.sweep import combinations, format_grid, parse_grid, sweep
from winnable.variants import VariantError

N = 300
OUTPUTS = ["paired.csv", "paired.md", "summary.csv", "summary.md", "winrate.png", "winrate.svg"]


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    out = tmp_path_factory.mktemp("sweep") / "kpg"
    result = CliRunner().invoke(cli, ["sweep", "--game", "nineball", "--n", str(N), "--grid",
                                      "kitchen_per_group=1,3", "--workers", "1", "--quiet",
                                      "--out-dir", str(out)])
    assert result.exit_code == 0, result.output
    return out, result.output


def test_sweep_writes_tables_and_figure(swept):
    out, output = swept
    assert sorted(p.name for p in out.iterdir() if p.is_file()) == OUTPUTS
    assert all((out / name).stat().st_size > 0 for name in OUTPUTS)
    assert sorted(p.name for p in (out / "runs").iterdir()) == [
        "nineball_thoughtful.parquet", "nineball_thoughtful_kitchen_per_group-1.parquet"]
    for name in OUTPUTS:
        assert f"wrote {out / name}" in output
    summary = pd.read_csv(out / "summary.csv")
    assert list(summary["rules"]) == ["kitchen_per_group=1", "default"]
    assert list(summary["kitchen_per_group"]) == [1, 3]
    assert (summary[["wins", "losses", "unknowns"]].sum(axis=1) == N).all()
    assert (summary["deals"] == N).all()
    assert ((summary.win_low <= summary.win_min) & (summary.win_max <= summary.win_high)).all()
    exact = summary.unknowns == 0
    assert (summary.win_rate[exact] == summary.win_min[exact]).all()
    md = (out / "summary.md").read_text()
    assert "| kitchen_per_group=1 |" in md and "win rate (95% CI)" in md
    assert "winnable sweep --game nineball --n 300 --grid kitchen_per_group=1,3" in md


def test_paired_counts_match_the_runs(swept):
    out, _ = swept
    runs = {df.variant.iloc[0]: df.set_index("seed").outcome
            for df in map(pd.read_parquet, sorted((out / "runs").iterdir()))}
    paired = pd.read_csv(out / "paired.csv")
    assert len(paired) == 1
    row = paired.iloc[0]
    a, b = runs[row.rules_a], runs[row.rules_b]
    assert (row.rules_a, row.rules_b) == ("kitchen_per_group=1", "default")
    assert row.deals == N
    assert row.won_a_not_b == ((a == "win") & (b != "win")).sum()
    assert row.won_b_not_a == ((b == "win") & (a != "win")).sum()
    assert row.both_won == ((a == "win") & (b == "win")).sum()
    assert row.neither_won == ((a != "win") & (b != "win")).sum()
    assert row.changed == (a != b).sum()
    # One kitchen card per group allows fewer moves: nothing is won under it that the default
    # rules lose, and some deals are won only under the default rules.
    assert row.won_a_not_b == 0 and row.won_b_not_a > 0
    assert f"| kitchen_per_group=1 | default | {N} |" in (out / "paired.md").read_text()


def test_rerun_resumes_without_solving(swept):
    out, _ = swept
    stored = {p: p.stat().st_mtime_ns for p in (out / "runs").iterdir()}
    tables = {name: (out / name).read_bytes() for name in OUTPUTS if name != "winrate.png"}
    result = sweep("nineball", n=N, grid={"kitchen_per_group": ["1", "3"]}, workers=1,
                   out_dir=out, progress=False)
    assert result.solved == {"kitchen_per_group=1": 0, "default": 0}
    assert {p: p.stat().st_mtime_ns for p in (out / "runs").iterdir()} == stored
    assert {name: (out / name).read_bytes() for name in tables} == tables


def test_grid_values_split_on_bar_when_a_value_holds_commas():
    assert parse_grid(["targets=9,19|9", "kitchen_per_group=1,3"]) == {
        "targets": ["9,19", "9"], "kitchen_per_group": ["1", "3"]}
    assert parse_grid(["targets=9|19"]) == {"targets": ["9", "19"]}
    grid = {"targets": ["9,19", "9"], "kitchen_bonus": ["on_clear", "always"]}
    assert parse_grid(format_grid(grid)) == grid
    combos = combinations("nineball", grid, variant=["kitchen_per_group=1"])
    assert [c.spec.variant for c in combos] == [
        "kitchen_per_group=1", "kitchen_bonus=always kitchen_per_group=1",
        "kitchen_per_group=1 targets=9", "kitchen_bonus=always kitchen_per_group=1 targets=9"]
    assert [c.values for c in combos] == [dict(zip(grid, v))
                                          for v in itertools.product(*grid.values())]


@pytest.mark.parametrize("items, needle", [
    (["kitchen_per_group"], "is not key=v1,v2"),
    (["kitchen_per_group=1,,3"], "has an empty value"),
    (["targets=9", "targets=19"], "given twice"),
    ([], "at least one --grid"),
])
def test_bad_grid_text(items, needle):
    with pytest.raises(VariantError, match=needle):
        parse_grid(items)


@pytest.mark.parametrize("grid, needle", [
    ("colour=red,blue", "unknown variant key 'colour' for nineball"),
    ("kitchen_per_group=1,7", "bad value '7' for variant kitchen_per_group"),
    ("kitchen_per_group=3,any", "the grid gives the same rules (default) twice"),
])
def test_cli_bad_grid_is_one_line(grid, needle, tmp_path, monkeypatch, run_cli):
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli("sweep", "--game", "nineball", "--n", "10", "--grid", grid, "--quiet")
    assert code != 0
    assert needle in err and len(err.strip().splitlines()) == 1, err
    assert list(tmp_path.iterdir()) == []          # nothing solved, nothing written

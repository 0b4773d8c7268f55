"""Figures: every kind draws from small real runs and writes PNG and SVG; the CLI wraps it with
one-line errors for bad input."""

from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner
from matplotlib.figure import Figure

from winnable import get_game, plot
from winnable.runs.batch import solve_batch
from winnable.runs.read import load_rows
from winnable.cli import PLOT_KINDS, cli
from winnable.stats import outcome_crosstab, paired_outcomes, summarize

N = 300


@pytest.fixture(scope="module")
def run_files(tmp_path_factory):
    """Nineball, deals 1-300, under both kitchen rules (exact solver: no unknowns)."""
    folder = tmp_path_factory.mktemp("runs")
    files = []
    for name, variant in (("nb_kpg3", None), ("nb_kpg1", {"kitchen_per_group": 1})):
        files.append(folder / f"{name}.parquet")
        solve_batch("nineball", n=N, variant=variant, workers=1, out=files[-1], progress=False)
    return files


@pytest.fixture(scope="module")
def rows(run_files):
    return pd.concat([load_rows(f) for f in run_files], ignore_index=True)


def texts(fig: Figure) -> str:
    return "\n".join(t.get_text() for t in fig.texts)


@pytest.mark.parametrize("kind", plot.KINDS)
def test_each_kind_draws_and_saves(kind, rows, tmp_path):
    fig = plot.PLOTS[kind](rows)
    assert isinstance(fig, Figure)
    assert fig._suptitle.get_text().startswith("Nineball Solitaire: ")
    for ax in fig.axes:
        if ax.get_label() == "<colorbar>":
            continue
        assert ax.get_xlabel() and ax.get_ylabel()
    caption = texts(fig)
    for needle in ("N = 300", "solver thoughtful", "default", "kitchen_per_group=1",
                   "deals 1-300"):
        assert needle in caption, (needle, caption)
    png, svg = plot.save(fig, tmp_path / kind)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 5000
    assert b"<svg" in svg.read_bytes()[:1000] and svg.stat().st_size > 5000


def test_save_strips_extension_and_svg_is_reproducible(rows, tmp_path):
    fig = plot.winrate(rows)
    first = plot.save(fig, tmp_path / "a.png")
    assert [p.name for p in first] == ["a.png", "a.svg"]
    again = plot.save(plot.winrate(rows), tmp_path / "b.svg")
    assert first[1].read_bytes() == again[1].read_bytes()


def test_winrate_labels_carry_the_intervals(rows):
    fig = plot.winrate(rows)
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    summaries = {s.variant: s for s in summarize(rows)}
    s = summaries["kitchen_per_group=1"]
    assert any(label.startswith("kitchen_per_group=1\n") and f"{100 * s.win_rate:.3f}%" in label
               and f"{100 * s.win_low:.3f}" in label for label in labels)
    assert "% of all deals" in fig.axes[0].get_xlabel()


def test_winrate_draws_reference_lines_at_their_rates(rows):
    fig = plot.winrate(rows, references={"33%": 0.33, "50.42%": 179 / 355})
    ax = fig.axes[0]
    dashed = [line.get_xdata()[0] for line in ax.get_lines() if line.get_linestyle() == "--"]
    assert dashed == pytest.approx([33.0, 100 * 179 / 355])
    assert {"33%", "50.42%"} <= {text.get_text() for text in ax.texts}


def test_running_interval_ends_at_the_summary(rows):
    """What the running figure draws after all N deals, its line and its band, is the summary's
    win rate and interval (the rate's textbook figures: tests/test_stats.py)."""
    part = rows[rows.variant == "kitchen_per_group=1"].sort_values("seed")
    s = summarize(part)[0]
    ax = plot.running(part).axes[0]
    line = ax.get_lines()[0]
    assert line.get_xdata()[-1] == N and line.get_ydata()[-1] == pytest.approx(100 * s.rate.least)
    band = ax.collections[0].get_paths()[0].vertices
    at_end = band[band[:, 0] == N][:, 1]
    assert (at_end.min(), at_end.max()) == pytest.approx((100 * s.win_low, 100 * s.win_high))


def test_paired_uses_common_seeds_only(run_files, tmp_path):
    a, b = load_rows(run_files[0], 1, 200), load_rows(run_files[1], 101, 300)
    pairs = paired_outcomes(a, b)
    assert list(pairs.index) == list(range(101, 201))
    table = outcome_crosstab(pairs)
    assert table.to_numpy().sum() == 100 and list(table.index) == ["win", "loss"]
    fig = plot.paired(pd.concat([a, b]))
    assert "Common deals: N = 100" in texts(fig)


def test_paired_refuses_other_than_two_runs(rows):
    with pytest.raises(plot.PlotError, match="exactly two runs"):
        plot.paired(rows[rows.variant == "default"])


def test_cli_plot_writes_png_and_svg(run_files, tmp_path):
    runner = CliRunner()
    out = tmp_path / "fig"
    result = runner.invoke(cli, ["plot", "paired", *map(str, run_files), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [f"wrote {out}.png", f"wrote {out}.svg"]
    folder = tmp_path / "figs"
    result = runner.invoke(cli, ["plot", "effort", str(run_files[0]), "--out", f"{folder}/"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in folder.iterdir()) == ["effort_nb_kpg3.png", "effort_nb_kpg3.svg"]
    assert all(p.stat().st_size > 0 for p in folder.iterdir())


def test_cli_plot_draws_a_table_of_summaries(run_files, tmp_path, run_cli):
    """`winnable summary --csv` of two runs, then `winnable plot winrate` of that table."""
    code, table, err = run_cli("summary", "--csv", *map(str, run_files))
    assert code == 0, err
    (tmp_path / "summaries.csv").write_text(table)
    out = tmp_path / "from_table"
    code, printed, err = run_cli("plot", "winrate", str(tmp_path / "summaries.csv"), "--out",
                                 str(out))
    assert code == 0, err
    assert printed.splitlines() == [f"wrote {out}.png", f"wrote {out}.svg"]


def test_cli_kinds_are_the_library_kinds():
    assert PLOT_KINDS == plot.KINDS


@pytest.mark.parametrize("args, needle", [
    (["plot", "winrate", "no-such.parquet"], "no such file: no-such.parquet"),
    (["plot", "bars", "x.parquet"], "'bars' is not one of 'winrate', 'scores'"),
    (["plot", "winrate", "{text}"], "cannot read"),
    (["plot", "winrate", "{table}"], "is not a winnable run file"),
    (["plot", "paired", "{run}"], "paired needs exactly two runs"),
    (["plot", "winrate"], "Missing argument 'FILES...'"),
    (["plot", "winrate", "{csv}"], "is not a table of summaries (no column(s) game"),
    (["plot", "winrate", "{csv}", "{run}"], "either run files or tables of summaries"),
    (["plot", "scores", "{summaries}"], "needs per-deal rows"),
])
def test_cli_bad_input_is_one_line(args, needle, run_files, tmp_path, monkeypatch, run_cli):
    (tmp_path / "notes.parquet").write_text("not parquet\n")
    pd.DataFrame({"x": [1]}).to_parquet(tmp_path / "table.parquet")
    pd.DataFrame({"x": [1]}).to_csv(tmp_path / "other.csv")
    pd.DataFrame([s.as_row() for s in summarize(load_rows(run_files[0]))]).to_csv(
        tmp_path / "summaries.csv", index=False)
    names = {"text": tmp_path / "notes.parquet", "table": tmp_path / "table.parquet",
             "run": run_files[0], "csv": tmp_path / "other.csv",
             "summaries": tmp_path / "summaries.csv"}
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli(*[a.format(**names) for a in args])
    assert code != 0
    assert needle in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "plots").exists()


def test_runs_apart_by_solver_options_are_labelled_by_them(rows):
    one = rows[rows.variant == "default"]
    both = pd.concat([one.assign(options="budget=10 prune=1"),
                      one.assign(options="budget=20 prune=1")])
    runs = plot.runs_of(both)
    assert [r.label for r in runs] == ["budget=10", "budget=20"]
    assert "options prune=1" in plot.caption(runs)
    with pytest.raises(plot.PlotError, match="appears twice"):
        plot.runs_of(pd.concat([one, one]))


def test_means_draws_one_panel_per_column_given(rows):
    gaps = rows.assign(gap=rows["thoughtful_score"] - rows["expected_score"])
    fig = plot.means(gaps, {"win_probability": "clear probability", "gap": "gap (points)"})
    assert [ax.get_xlabel().splitlines()[0] for ax in fig.axes] == ["clear probability",
                                                                    "gap (points)"]
    assert "mean ± 1.96 standard errors" in texts(fig)
    with pytest.raises(plot.PlotError, match="no column"):
        plot.means(rows, ["no_such_column"])


def test_a_table_of_summaries_draws_the_same_winrate_and_means(rows):
    """A results table (one summary a run, as ``summary --csv`` writes) draws what a summary
    holds, with the figures the per-deal rows give; the figures that need the deals refuse it
    in one line."""
    means = get_game("nineball").summary_means
    table = pd.DataFrame([s.as_row() for s in summarize(rows, means)])
    assert plot.is_summaries(table) and not plot.is_summaries(rows)
    from_rows, from_table = plot.means(rows), plot.means(table)
    assert ([ax.get_xlabel() for ax in from_rows.axes]
            == [ax.get_xlabel() for ax in from_table.axes])
    for a, b in zip(from_rows.axes, from_table.axes):
        assert [t.get_text() for t in a.texts] == [t.get_text() for t in b.texts]  # the means
    assert ([t.get_text() for t in plot.winrate(rows).axes[0].get_yticklabels()]
            == [t.get_text() for t in plot.winrate(table).axes[0].get_yticklabels()])
    assert texts(plot.winrate(rows)) == texts(plot.winrate(table))  # the caption: N, counts
    for kind in ("scores", "paired", "running", "effort"):
        with pytest.raises(plot.PlotError, match="needs per-deal rows"):
            plot.PLOTS[kind](table)
    with pytest.raises(plot.PlotError, match="mean_no_such_column"):
        plot.means(table, ["no_such_column"])


def test_experiments_draw_small_headline_figures(run_files, tmp_path, monkeypatch):
    """The experiment scripts' headline figures (experiments/common.py): every one written,
    each PNG and SVG small enough for results/ (tens of kB)."""
    experiments = str(Path(__file__).resolve().parent.parent / "experiments")
    monkeypatch.syspath_prepend(experiments)
    import common
    rows = common.rows_of(run_files)
    written = common.headline_figures(rows, tmp_path, pairs={
        "rules": (common.pick(rows, "thoughtful"),
                  common.pick(rows, "thoughtful", {"kitchen_per_group": 1}))})
    assert sorted(p.name for p in written) == sorted(
        f"{name}.{ext}" for name in ("winrate", "scores", "paired_rules") for ext in ("png", "svg"))
    for path in written:
        assert 5_000 < path.stat().st_size < 100_000, (path, path.stat().st_size)
    assert "moves" not in rows.columns  # figures read only the columns they draw

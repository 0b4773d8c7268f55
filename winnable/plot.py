"""Figures of runs: win rates, score distributions, paired outcomes, running win rates, solver
effort and the means of per-deal columns.

Each function takes the per-deal rows of one or more runs (a DataFrame from
``runs.read.read_runs``, ``runs.read.load_rows`` or ``solve_batch``; a run is one game, solver and rule
set) and returns a matplotlib ``Figure`` drawn with the Agg renderer (no window, no pyplot
state; a notebook shows it as the cell's value).  ``save`` writes it as PNG and SVG.  Every
figure has a title, labelled axes with units and a caption giving N, the rules and the solver
of each run.  Win rates are those of ``winnable.stats``: the rate with its 95% Wilson interval,
or, where a run has unknown deals, the pair of bounds (unknowns lost / won) with the interval
around the pair, or the stratified estimate of a sample of the unknowns; never wins / decided.

Examples:
    >>> from winnable import plot, solve_batch
    >>> rows = solve_batch("nineball", n=200, workers=1, progress=False,
    ...                    out="runs/nineball_200.parquet")
    >>> figure = plot.winrate(rows)
    >>> [path.name for path in plot.save(figure, "plots/nineball_winrate")]
    ['nineball_winrate.png', 'nineball_winrate.svg']
"""

from __future__ import annotations

import io
import os
import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator, StrMethodFormatter
from PIL import Image

from .runs.read import read_runs
from .runs.spec import BatchError
from .games import get_game
from .numbering import WINNABLE
from .stats import (Summary, mean_interval, outcome_crosstab, paired_outcomes, rate_bounds,
                    rate_text, summarize)

COLUMNS = ("seed", "game", "solver", "variant", "outcome", "score", "nodes", "seconds")
INTERVAL_NOTE = ("Win rates are shares of all deals. 95% intervals: Wilson; with unknown deals "
                 "(not decided within the budget) the rate lies between two bounds, unknowns "
                 "counted as losses and as wins (a thick bar), and the interval runs from "
                 "Wilson's lower bound of the first to Wilson's upper bound of the second; a "
                 "sample of the unknowns escalated (winnable resolve --sample) gives the "
                 "stratified estimate and its interval instead.")
CAPTION_WIDTH = 120       # characters per caption line
CAPTION_CHARS_PER_INCH = 15
MAX_POINTS = 2000         # points per curve: enough for the eye, small SVG files at any N


class PlotError(BatchError):
    """A figure cannot be drawn from the runs given (the message is one line for the user)."""


# What tells runs apart: game, solver, rules and (where the rows carry them) solver options.
RUN_KEYS = ("game", "solver", "variant", "options", "numbering")
KEY_NAMES = ("game", "solver", "rules", "options", "numbering")
LABEL_WIDTH = 38  # characters per line of a run's label on an axis


@dataclass
class Run:
    """The rows of one run (sorted by seed), its summary, its key (game, solver, rules, solver
    options) and the label that tells it apart from the other runs in the same figure."""

    rows: pd.DataFrame
    summary: Summary
    key: tuple[str, str, str, str]
    label: str = ""

    @property
    def options(self) -> dict[str, str]:
        return dict(word.split("=", 1) for word in self.key[3].split())


SUMMARY_COLUMNS = ("game", "solver", "variant", "deals", "wins", "losses", "unknowns",
                   "mean_score", "score_low", "score_high")


def is_summaries(df: pd.DataFrame) -> bool:
    """Whether ``df`` is a table of run summaries (``Summary.as_row`` rows: ``summary --csv``,
    a results table) rather than per-deal rows."""
    return "seed" not in df.columns and all(c in df.columns for c in SUMMARY_COLUMNS)


def runs_of(df: pd.DataFrame, summaries_ok: bool = False) -> list[Run]:
    """Split per-deal rows into runs (game, solver, rules and the ``options`` column if there is
    one), in the order they first appear.  A figure shows one game.  With ``summaries_ok`` (the
    figures that draw only what a summary holds: win rates, means) a table of summaries is
    accepted too, one run a row."""
    if summaries_ok and is_summaries(df):
        return _label(_runs_of_summaries(df))
    if is_summaries(df):
        raise PlotError("this figure needs per-deal rows (a run's file), not a table of "
                        "summaries: only winrate and means are drawn from summaries")
    missing = [c for c in COLUMNS if c not in df.columns]
    if missing:
        raise PlotError(f"not winnable run rows: missing column(s) {', '.join(missing)}")
    _one_game(df, "deals")
    df = df if "options" in df.columns else df.assign(options="")
    df = df if "numbering" in df.columns else df.assign(numbering=WINNABLE)
    runs = []
    for key, part in df.groupby(list(RUN_KEYS), sort=False):
        part = part.sort_values("seed", ignore_index=True)
        twice = part["seed"][part["seed"].duplicated()]
        if len(twice):
            raise PlotError(f"deal {twice.iloc[0]} appears twice in the runs of {key[0]}, solver "
                            f"{key[1]}, rules {key[2]} (the same run given twice?)")
        runs.append(Run(part, summarize(part)[0], tuple(map(str, key))))
    return _label(runs)


def _one_game(df: pd.DataFrame, what: str) -> None:
    """Refuse rows of no run (``what``: deals or runs) or of several games."""
    if df.empty:
        raise PlotError(f"no {what} to plot")
    games = list(dict.fromkeys(df["game"]))
    if len(games) > 1:
        raise PlotError(f"a figure shows the runs of one game, got {', '.join(games)}: plot each "
                        "game's runs on its own")


def _runs_of_summaries(df: pd.DataFrame) -> list[Run]:
    """One run a summary row (no per-deal rows: ``Run.rows`` is empty)."""
    _one_game(df, "runs")
    runs = []
    for _, row in df.iterrows():
        summary = Summary.from_row(row)
        options = row.get("options", "")
        key = (summary.game, summary.solver, summary.variant,
               options if isinstance(options, str) else "", summary.numbering)
        runs.append(Run(pd.DataFrame(), summary, key))
    return runs


def _label(runs: list[Run]) -> list[Run]:
    """Label each run by what differs between the runs (the caption states what they share)."""
    varying, options = _varying(runs), _varying_options(runs)
    for run in runs:
        parts = [run.key[i] for i in varying if i < 3]
        parts += [f"{k}={v}" for k, v in run.options.items() if k in options]
        parts += [f"{run.key[4]} numbering" for i in varying if i == 4]
        run.label = ", ".join(parts) or run.key[2]
    return runs


def _varying_options(runs: Sequence[Run]) -> set[str]:
    """The solver options whose value differs between the runs that have them."""
    values: dict[str, set[str]] = {}
    for run in runs:
        for key, value in run.options.items():
            values.setdefault(key, set()).add(value)
    return {k for k, v in values.items() if len(v) > 1}


def _varying(runs: Sequence[Run]) -> list[int]:
    """Which parts of the runs' keys (game, solver, rules, options) differ between them, the
    options counting only where an option's value differs."""
    parts = [i for i in (1, 2) if len({r.key[i] for r in runs}) > 1]
    return (parts + ([3] if _varying_options(runs) else [])
            + ([4] if len({r.key[4] for r in runs}) > 1 else []))


def _axis_name(runs: Sequence[Run]) -> str:
    """What the runs' labels say, for the axis that lists them."""
    return ", ".join(KEY_NAMES[i] for i in _varying(runs)) or "rules"


def _quiet_options(runs: Sequence[Run]) -> str:
    """The options no label shows that differ from their solver's default, e.g.
    ``sampling samples=3`` (the solver's name only where the runs have several solvers)."""
    shown = _varying_options(runs)
    by_solver: dict[str, list[str]] = {}
    for run in runs:
        defaults = get_game(run.key[0]).solvers[run.key[1]].defaults
        for key, value in run.options.items():
            word = f"{key}={value}"
            if key not in shown and str(defaults.get(key)) != value:
                by_solver.setdefault(run.key[1], [])
                if word not in by_solver[run.key[1]]:
                    by_solver[run.key[1]].append(word)
    if len({r.key[1] for r in runs}) == 1:
        return " ".join(w for words in by_solver.values() for w in words)
    return "; ".join(f"{solver} {' '.join(words)}" for solver, words in by_solver.items())


def _shared(runs: Sequence[Run]) -> str:
    """What every run of a figure has in common: game, solver, rules, options, deals."""
    bits = [f"game {runs[0].key[0]}"]
    for i in (1, 2, 4):
        values = {r.key[i] for r in runs}
        if len(values) == 1 and (i < 4 or values != {WINNABLE}):
            bits.append(f"{KEY_NAMES[i]} {values.pop()}")
    if quiet := _quiet_options(runs):
        bits.append(f"options {quiet}")
    ranges = {(r.summary.first_seed, r.summary.last_seed, r.summary.deals) for r in runs}
    if len(ranges) == 1:
        first, last, n = ranges.pop()
        each = " each" if len(runs) > 1 else ""
        bits.append(f"N = {n:,} deals{each} (deals {first}-{last})")
    return "; ".join(bits) + "."


def _counts(run: Run, with_n: bool) -> str:
    s = run.summary
    n = f"N = {s.deals:,} (deals {s.first_seed}-{s.last_seed}), " if with_n else ""
    return f"{n}{s.wins:,} wins, {s.losses:,} losses, {s.unknowns:,} unknown"


def caption(runs: Sequence[Run], *notes: str, width: int = CAPTION_WIDTH) -> str:
    """The caption of a figure: what the runs share, then each run's N and outcome counts
    (lines of at most ``width`` characters)."""
    with_n = len({(r.summary.first_seed, r.summary.last_seed) for r in runs}) > 1
    if len(runs) == 1:
        per_run = [_counts(runs[0], with_n) + "."]
    else:
        per_run = ["; ".join(f"{r.label}: {_counts(r, with_n)}" for r in runs) + "."]
    lines = []
    for paragraph in [_shared(runs), *per_run, *notes]:
        lines += textwrap.wrap(paragraph, width) or [""]
    return "\n".join(lines)


def _title(runs: Sequence[Run], what: str) -> str:
    return f"{get_game(runs[0].key[0]).title}: {what}"


def _wrapped(label: str, width: int = LABEL_WIDTH) -> str:
    return "\n".join(textwrap.wrap(label, width)) or label


def _figure(width: float, height: float, panels: int = 1,
            stacked: bool = False) -> tuple[Figure, list]:
    """A figure of ``panels`` axes side by side (``stacked``: one above the other)."""
    fig = Figure(figsize=(width, height))
    FigureCanvasAgg(fig)
    grid = fig.subplots(panels, 1, squeeze=False) if stacked else fig.subplots(1, panels,
                                                                               squeeze=False)
    return fig, list(grid.ravel())


def _finish(fig: Figure, title: str, runs: Sequence[Run], *notes: str) -> Figure:
    """Title on top, the caption (``caption(runs, *notes)``) below the axes, inside the figure:
    the figure grows by the caption's measured height and the axes are fitted above it."""
    width, height = fig.get_size_inches()
    renderer = fig.canvas.get_renderer()
    chars = int(CAPTION_CHARS_PER_INCH * width)
    while True:  # wrap the caption until it fits the figure's width
        text = fig.text(0, 0, caption(runs, *notes, width=chars), fontsize=8, ha="left",
                        va="bottom", color="0.2")
        box = text.get_window_extent(renderer)
        if box.width <= 0.97 * width * fig.dpi or chars <= 40:
            break
        text.remove()
        chars -= 5
    margin = 0.08  # inches around the caption
    extra = box.height / fig.dpi + 2 * margin
    total = height + extra
    fig.set_size_inches(width, total)
    text.set_position((margin / width, margin / total))
    # The title hangs a fixed distance from the top (a fraction of the height would leave a
    # tall figure's title on its axes), wrapped to the figure's width; tight_layout keeps the
    # axes below it.
    heading = fig.suptitle(title, fontweight="bold", y=1 - 0.1 / total, va="top")
    chars = len(title)
    while heading.get_window_extent(renderer).width > 0.97 * width * fig.dpi and chars > 20:
        chars -= 5
        heading.set_text("\n".join(textwrap.wrap(title, chars)))
    fig.tight_layout(rect=(0, extra / total, 1, 1))
    return fig


def _colours(n: int) -> list:
    cycle = matplotlib.rcParams["axes.prop_cycle"].by_key()["color"]
    return [cycle[i % len(cycle)] for i in range(n)]


def _sample(n: int, log: bool) -> np.ndarray:
    """At most MAX_POINTS indices into 0..n-1, spread evenly (or evenly on a log scale), always
    including the first and the last."""
    if n <= MAX_POINTS:
        return np.arange(n)
    points = np.geomspace(1, n, MAX_POINTS) if log else np.linspace(1, n, MAX_POINTS)
    return np.unique(np.round(points).astype(np.int64)) - 1


def _percent(x) -> np.ndarray:
    return 100 * np.asarray(x, dtype=np.float64)


def _legend(ax, runs: Sequence[Run], **kwargs) -> None:
    """The runs' legend: inside the axes for up to three runs, to their right beyond that (where
    it covers nothing)."""
    if len(runs) > 3:
        kwargs.update(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    ax.legend(fontsize=8, **kwargs)


def _interval_rows(ax, runs: Sequence[Run], intervals: Sequence[tuple[float, float, float]],
                   labels: Sequence[str],
                   ranges: Sequence[tuple[float, float]] | None = None) -> None:
    """One row per run (the first on top): its point and 95% interval, labelled on the left;
    where ``ranges`` gives a run two different ends (a win rate's bounds), a thick bar between
    them instead of the point."""
    y = np.arange(len(runs))[::-1]
    ranges = ranges or [(p, p) for p, _, _ in intervals]
    for yi, (point, low, high), (a, b), colour in zip(y, intervals, ranges,
                                                     _colours(len(runs))):
        ax.hlines(yi, low, high, color=colour, lw=2.5)
        ax.plot([low, high], [yi, yi], "|", color=colour, ms=12, mew=2)
        if a == b:
            ax.plot(point, yi, "o", color=colour, ms=7)
        else:
            ax.hlines(yi, a, b, color=colour, lw=9, alpha=0.6)
    ax.set_yticks(y, labels)
    ax.set_ylim(-0.6, len(runs) - 0.4)
    ax.set_ylabel(_axis_name(runs))
    ax.grid(axis="x", alpha=0.3)


# --- the figures -------------------------------------------------------------------------------

def _rate_range(s: Summary) -> tuple[float, float]:
    """Where a run's win rate is drawn: its point, else the stratified estimate's two ends,
    else the pair of bounds."""
    r = s.rate
    if r.point == r.point:
        return r.point, r.point
    return (r.estimate_min, r.estimate_max) if r.sample else (r.least, r.most)


def winrate(df: pd.DataFrame, title: str | None = None,
            references: Mapping[str, float] | None = None) -> Figure:
    """Win rate of each run with its 95% interval: a point where the counts (or a sample of
    the unknowns) give one, the pair of bounds as a thick bar where unknowns leave only
    bounds; never wins / decided deals.  ``references`` (label -> rate, 0-1) are drawn as
    dashed vertical lines, e.g. figures a source reports.  ``df``: per-deal rows, or a table of
    summaries (one run a row)."""
    runs = runs_of(df, summaries_ok=True)
    fig, (ax,) = _figure(8, 1.3 + 0.6 * len(runs))
    summaries = [r.summary for r in runs]
    ranges = [tuple(_percent(_rate_range(s))) for s in summaries]
    _interval_rows(ax, runs, [(a, *_percent([s.win_low, s.win_high]))
                              for (a, _), s in zip(ranges, summaries)],
                   [f"{_wrapped(r.label)}\n{rate_text(s.rate)}" for r, s in zip(runs, summaries)],
                   ranges)
    for label, rate in (references or {}).items():
        ax.axvline(100 * rate, color="0.35", ls="--", lw=1, zorder=0)
        ax.annotate(label, (100 * rate, 1), xycoords=("data", "axes fraction"),
                    xytext=(3, -3), textcoords="offset points", ha="left", va="top",
                    fontsize=8, color="0.25")
    ax.set_xlabel("win rate, % of all deals (line: 95% interval;\nthick bar: bounds, unknowns "
                  "lost / won)")
    return _finish(fig, title or _title(runs, "win rate"), runs, INTERVAL_NOTE)


def scores(df: pd.DataFrame, title: str | None = None) -> Figure:
    """The distribution of scores of each run (share of deals at each score)."""
    runs = runs_of(df)
    fig, (ax,) = _figure(8, 4.2)
    width = 0.8 / len(runs)
    for i, run in enumerate(runs):
        counts = run.rows["score"].value_counts().sort_index()
        ax.bar(counts.index + (i - (len(runs) - 1) / 2) * width,
               _percent(counts.to_numpy() / len(run.rows)), width, label=_wrapped(run.label))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("score (points; undecided deals: the best score found)")
    ax.set_ylabel("share of deals (%)")
    ax.grid(axis="y", alpha=0.3)
    if len(runs) > 1:
        _legend(ax, runs)
    return _finish(fig, title or _title(runs, "score distribution"), runs)


def paired(df: pd.DataFrame, title: str | None = None) -> Figure:
    """Two runs of the same game on the same deals: how many deals have each pair of outcomes
    (the seeds both runs hold; e.g. strict rules against easy ones)."""
    runs = runs_of(df)
    if len(runs) != 2:
        raise PlotError(f"paired needs exactly two runs (game, solver, rules), got {len(runs)}: "
                        + "; ".join(r.label for r in runs))
    a, b = runs
    pairs = paired_outcomes(a.rows, b.rows)
    if pairs.empty:
        raise PlotError(f"the two runs share no deal numbers ({a.label}: deals "
                        f"{a.summary.first_seed}-{a.summary.last_seed}; {b.label}: deals "
                        f"{b.summary.first_seed}-{b.summary.last_seed})")
    table = outcome_crosstab(pairs)
    counts = table.to_numpy()
    fig, (ax,) = _figure(6.5, 4.6)
    image = ax.imshow(counts, cmap="Blues", vmin=0)
    for (i, j), count in np.ndenumerate(counts):
        dark = count > 0.6 * counts.max()
        ax.text(j, i, f"{count:,}\n{100 * count / len(pairs):.2f}%", ha="center", va="center",
                color="white" if dark else "black", fontsize=9)
    ax.set_xticks(range(len(table.columns)), table.columns)
    ax.set_yticks(range(len(table.index)), table.index)
    # The labels wrap to the axes' size: a long one would run into the ticks and the title.
    ax.set_xlabel(_wrapped(f"outcome under {b.label}", 50))
    ax.set_ylabel(_wrapped(f"outcome under {a.label}", 30))
    fig.colorbar(image, ax=ax, label="deals (count)", format=StrMethodFormatter("{x:,.0f}"))
    changed = int((pairs["a"] != pairs["b"]).sum())
    note = (f"Common deals: N = {len(pairs):,} (deal numbers held by both runs); outcome "
            f"changed on {changed:,} ({100 * changed / len(pairs):.2f}%).")
    return _finish(fig, title or _title(runs, "outcome of the same deals in two runs"),
                   runs, note)


def running(df: pd.DataFrame, title: str | None = None) -> Figure:
    """The win rate and its 95% interval after the first 1, 2, ... N deals (in seed order):
    where deals are unknown, the pair of bounds (unknowns lost, solid; won, dashed)."""
    runs = runs_of(df)
    fig, (ax,) = _figure(8, 4.2)
    for run, colour in zip(runs, _colours(len(runs))):
        outcome = run.rows["outcome"].to_numpy()
        totals = [np.cumsum(outcome == o) for o in ("win", "loss", "unknown")]
        keep = _sample(len(outcome), log=True)
        least, most, low, high = (_percent(x[keep]) for x in rate_bounds(*totals))
        deals = keep + 1
        ax.fill_between(deals, low, high, color=colour, alpha=0.2, lw=0)
        ax.plot(deals, least, color=colour, lw=1.5, label=_wrapped(run.label))
        if run.summary.unknowns:
            ax.plot(deals, most, color=colour, lw=1.5, ls="--")
    ax.set_xscale("log")
    ax.set_xlabel("deals solved (first N deal numbers; log scale)")
    ax.set_ylabel("win rate (% of all deals)")
    ax.grid(alpha=0.3)
    _legend(ax, runs, title="line: win rate (with unknowns, its bounds: solid, unknowns lost;\n"
            "dashed, unknowns won); band: 95% interval", title_fontsize=8)
    return _finish(fig, title or _title(runs, "running win rate as deals accumulate"),
                   runs, INTERVAL_NOTE)


EFFORT_PANELS = (("nodes", "search nodes per deal (count; log scale)"),
                 ("seconds", "solve time per deal (seconds; log scale)"))


def effort(df: pd.DataFrame, title: str | None = None) -> Figure:
    """How much work the solver did per deal: the cumulative distributions (ECDF) of search
    nodes and of seconds, on log scales.  A measure that is 0 on every deal of every run (the
    no-peek players count no search nodes) gets no panel, only a note."""
    runs = runs_of(df)
    panels = [(c, x) for c, x in EFFORT_PANELS if any((r.rows[c] > 0).any() for r in runs)]
    notes = [f"No panel for {c}: 0 on every deal." for c, _ in EFFORT_PANELS
             if (c, _) not in panels]
    if not panels:
        raise PlotError("effort needs deals with search nodes or seconds above 0; every deal "
                        "of these runs has 0 of both")
    fig, axes = _figure(5.5 * len(panels), 4.2, panels=len(panels))
    hidden = []
    for ax, (column, xlabel) in zip(axes, panels):
        for run, colour in zip(runs, _colours(len(runs))):
            values = np.sort(run.rows[column].to_numpy(dtype=np.float64))
            if (values <= 0).any():
                hidden.append(f"{run.label}: {int((values <= 0).sum()):,} deals with 0 {column}")
            keep = _sample(len(values), log=False)
            keep = keep[values[keep] > 0]
            if len(keep) == 0:
                continue
            at_most = np.searchsorted(values, values[keep], side="right")
            share = np.concatenate([[0], at_most]) / len(values)
            x = values[np.concatenate([keep[:1], keep])]      # the curve starts from 0%
            ax.step(x, _percent(share), where="post", color=colour, label=_wrapped(run.label))
        ax.set_xscale("log")
        ax.set_xlabel(xlabel)
        ax.set_ylabel("deals with at most this effort (%)")
        ax.set_ylim(0, 101)
        ax.grid(alpha=0.3)
    if len(runs) > 1:
        _legend(axes[-1], runs)
    if hidden:
        notes.append(f"Not on the log axes (counted in the shares): {'; '.join(hidden)}.")
    return _finish(fig, title or _title(runs, "solver effort per deal"), runs, *notes)


MEAN_NOTE = "95% intervals: mean ± 1.96 standard errors over the deals of each run."


def _mean_of(run: Run, column: str) -> tuple[float, float, float]:
    """A run's mean of ``column`` with its 95% interval: over its rows, or from its summary
    where the run is a summary only."""
    if not run.rows.empty:
        return mean_interval(run.rows[column])
    s = run.summary
    if column == "score":
        return s.mean_score, s.score_low, s.score_high
    if column not in s.means:
        raise PlotError(f"the summary of {run.label or run.key[1]} has no mean_{column}")
    return s.means[column]


def means(df: pd.DataFrame, columns: Sequence[str] | Mapping[str, str] | None = None,
          title: str | None = None) -> Figure:
    """The mean per deal of numeric columns, one panel per column, each run's mean with its 95%
    interval (e.g. Nineball's ``win_probability`` and ``expected_score`` of each player, or a
    per-deal difference between two players).  ``columns``: names, or {name: axis label};
    default: the game's summary columns the rows hold (``Game.summary_means``, named by
    ``Game.column_names``), each quantity once (a column equal to an earlier one on every deal,
    as the thoughtful solver's ``thoughtful_score`` is its ``expected_score``, is left out),
    else ``score``.  ``df``: per-deal rows, or a table of summaries (one run a row, its means
    in ``mean_<column>``, ``_low``, ``_high``: ``Summary.as_row``)."""
    runs = runs_of(df, summaries_ok=True)
    game = get_game(runs[0].key[0])
    summaries = is_summaries(df)

    def held(c: str) -> str:  # where a column's means are read: the rows, or mean_<column>
        return c if not summaries else "mean_score" if c == "score" else f"mean_{c}"

    if columns is None:
        present = [c for c in game.summary_means
                   if held(c) in df.columns and df[held(c)].notna().any()]
        distinct = [c for i, c in enumerate(present)
                    if not any(df[held(c)].astype(float).equals(df[held(e)].astype(float))
                               for e in present[:i])]
        columns = {c: game.column_names.get(c, c) for c in distinct} or {"score": "score"}
    labels = dict(columns) if isinstance(columns, Mapping) else {c: c for c in columns}
    missing = [held(c) for c in labels if held(c) not in df.columns]
    if missing:
        raise PlotError(f"the {'summaries' if summaries else 'rows'} have no column(s) "
                        f"{', '.join(missing)}")
    fig, axes = _figure(8, len(labels) * (1.2 + 0.5 * len(runs)), panels=len(labels),
                        stacked=True)
    for ax, (column, label) in zip(axes, labels.items()):
        intervals = [_mean_of(run, column) for run in runs]
        _interval_rows(ax, runs, intervals, [_wrapped(r.label) for r in runs])
        for yi, (mean, _, _) in zip(np.arange(len(runs))[::-1], intervals):
            ax.annotate(f"{mean:.4g}", (mean, yi), xytext=(0, 7), textcoords="offset points",
                        ha="center", fontsize=8)
        ax.set_xlabel(f"{label}\n(mean per deal, with its 95% interval)")
    return _finish(fig, title or _title(runs, "mean per deal"), runs, MEAN_NOTE)


PLOTS: dict[str, Callable[..., Figure]] = {
    "winrate": winrate, "scores": scores, "paired": paired, "running": running, "effort": effort,
    "means": means,
}
KINDS = tuple(PLOTS)


# --- files -------------------------------------------------------------------------------------

def save(fig: Figure, path: str | os.PathLike, dpi: int = 150) -> list[Path]:
    """Write ``fig`` as ``path.png`` (``dpi`` dots per inch) and ``path.svg`` (a .png or .svg
    suffix on ``path`` is dropped) and return the two paths.  The SVG is byte-for-byte
    reproducible."""
    path = Path(path)
    if path.suffix.lower() in (".png", ".svg"):
        path = path.with_suffix("")
    png, svg = path.with_name(f"{path.name}.png"), path.with_name(f"{path.name}.svg")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # SVG text stays text (a tenth of the size of glyphs drawn as paths, and searchable).
        with matplotlib.rc_context({"svg.hashsalt": "winnable", "svg.fonttype": "none"}):
            fig.savefig(svg, format="svg", metadata={"Date": None})
        drawn = io.BytesIO()
        fig.savefig(drawn, format="png", dpi=dpi)
        # A figure has few colours: a 256-colour palette looks the same at a third of the size.
        Image.open(drawn).convert("RGB").quantize(256).save(png, optimize=True)
    except OSError as exc:
        raise PlotError(f"cannot write the figure {path}: {exc.strerror or exc}") from None
    return [png, svg]


def default_stem(kind: str, files: Sequence[str | os.PathLike],
                 out: str | os.PathLike | None = None) -> Path:
    """Where ``plot_files`` writes: ``out`` (without extension), or ``<kind>_<run names>`` in the
    directory ``out`` (default ``plots/``)."""
    if out is not None and not (Path(out).is_dir() or str(out).endswith(("/", os.sep))):
        return Path(out)
    stems = [Path(f).stem for f in files]
    name = "+".join(stems) if len(stems) <= 2 else f"{stems[0]}+{len(stems) - 1}_more"
    return Path(out if out is not None else "plots") / f"{kind}_{name}"


def plot_files(kind: str, files: Sequence[str | os.PathLike],
               out: str | os.PathLike | None = None) -> list[Path]:
    """Draw one kind of figure from run files and save it (PNG and SVG); returns the paths.
    Files ending in ``.csv`` are tables of summaries (``summary --csv``, a results table such
    as results/impossible/players.csv), which draw ``winrate`` and ``means``."""
    if kind not in PLOTS:
        raise PlotError(f"unknown plot kind {kind!r}: choose one of {', '.join(KINDS)}")
    tables = [f for f in files if str(f).lower().endswith(".csv")]
    if tables and len(tables) < len(files):
        raise PlotError("give either run files or tables of summaries (.csv), not both")
    if tables:
        try:
            df = pd.concat([pd.read_csv(f) for f in tables], ignore_index=True)
        except (OSError, ValueError) as err:
            raise PlotError(f"cannot read {tables[0]}: {err}") from None
        if not is_summaries(df):
            missing = [c for c in SUMMARY_COLUMNS if c not in df.columns]
            raise PlotError(f"{tables[0]} is not a table of summaries (no column(s) "
                            f"{', '.join(missing) or 'of one'}; `winnable summary --csv` writes "
                            "one)")
        fig = PLOTS[kind](df)
    else:
        fig = PLOTS[kind](read_runs(files))
    return save(fig, default_stem(kind, files, out))

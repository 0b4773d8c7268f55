"""Tables of results for `results/`: CSV for machines, Markdown for people."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pandas as pd

from .stats import Summary


def reproduce_command(s: Summary) -> str:
    """The command that reproduces a summary's run (deals 1..N)."""
    flags = "".join(f" --variant {kv}" for kv in s.variant.split()) if s.variant != "default" else ""
    start = f" --start {s.first_seed}" if s.first_seed not in (None, 1) else ""
    numbering = f" --numbering {s.numbering}" if s.numbering != "winnable" else ""
    return (f"solve-batch --game {s.game} --solver {s.solver}{numbering} --n {s.deals}{start}"
            f"{flags}")


def summary_table(summaries: Iterable[Summary]) -> pd.DataFrame:
    return pd.DataFrame([{**s.as_row(), "command": reproduce_command(s)} for s in summaries])


def markdown(df: pd.DataFrame, columns: dict[str, str]) -> str:
    """A Markdown table of the chosen columns (name -> header)."""
    lines = ["| " + " | ".join(columns.values()) + " |",
             "|" + "---|" * len(columns)]
    for _, row in df.iterrows():
        lines.append("| " + " | ".join(str(row[c]) for c in columns) + " |")
    return "\n".join(lines) + "\n"


def rate_text(point: float, low: float, high: float) -> str:
    """A win rate and its 95% interval as text, e.g. ``97.471% [97.440, 97.502]``."""
    return f"{100 * point:.3f}% [{100 * low:.3f}, {100 * high:.3f}]"


def mean_text(mean: float, low: float, high: float, digits: int = 3) -> str:
    return f"{mean:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


def headline(df: pd.DataFrame, means: Iterable[str] | bool = ()) -> pd.DataFrame:
    """Win rates and mean scores as printable text with their intervals (``df``: rows of
    ``summary_table``), plus the means of the named extra per-deal columns (``True``: every
    one the summaries carry), each as ``mean <column> (95% CI)``."""
    out = pd.DataFrame({
        "game": df["game"], "solver": df["solver"], "rules": df["variant"],
        "deals": df["deals"].map(lambda n: f"{n:,}"),
        "win rate (95% CI)": list(map(rate_text, df.win_rate, df.win_low, df.win_high)),
        "unknown": df["unknowns"],
        "mean score (95% CI)": list(map(mean_text, df.mean_score, df.score_low,
                                        df.score_high)),
    })
    if means is True:
        means = [c[len("mean_"):] for c in df.columns
                 if c.startswith("mean_") and f"{c}_low" in df.columns]
    for name in means or ():
        out[f"mean {name} (95% CI)"] = [
            mean_text(*values, digits=4) for values in
            zip(df[f"mean_{name}"], df[f"mean_{name}_low"], df[f"mean_{name}_high"])]
    if "command" in df.columns:
        out["command"] = df["command"].map(lambda c: f"`{c}`")
    return out


def summaries_frame(summaries: Iterable[Summary]) -> pd.DataFrame:
    """Summaries as a printable table (one row per run: deals, win rate, unknowns, mean score
    and the mean of every extra column, each with its 95% interval), e.g. for a notebook."""
    return headline(pd.DataFrame([s.as_row() for s in summaries]), means=True)


def write_tables(df: pd.DataFrame, stem: str | Path, title: str, notes: str = "",
                 means: Iterable[str] = ()) -> None:
    stem = Path(stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(stem.with_suffix(".csv"), index=False)
    table = headline(df, means)
    text = f"# {title}\n\n" + markdown(table, {c: c for c in table.columns})
    if notes:
        text += "\n" + notes.strip() + "\n"
    stem.with_suffix(".md").write_text(text)

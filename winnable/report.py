"""Tables of results for `results/`: CSV for machines, Markdown for people."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path

import pandas as pd

from .stats import Summary, headline, rate_of_row, rate_row


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


def recount(df: pd.DataFrame) -> pd.DataFrame:
    """Summary rows (e.g. a results CSV written by an earlier version, whose ``win_rate`` was
    wins / decided deals) with their rate columns computed again from the counts, in today's
    columns; the other columns are kept."""
    rates = pd.DataFrame([rate_row(rate_of_row(row)) for _, row in df.iterrows()],
                         index=df.index)
    rest = df.drop(columns=[c for c in [*rates.columns, "score_lower_bound"] if c in df.columns])
    at = list(rest.columns).index("unknowns") + 1
    out = pd.concat([rest.iloc[:, :at], rates, rest.iloc[:, at:]], axis=1)
    out.insert(list(out.columns).index("score_high") + 1, "score_lower_bound",
               df["unknowns"] > 0)
    return out


TABLE = re.compile(r"^\|.*\|\n\|(?:---\|)+\n(?:\|.*\|\n)*", re.MULTILINE)


def refresh_tables(stem: str | Path,
                   build: Callable[[pd.DataFrame], pd.DataFrame] | None = None) -> None:
    """Bring a results table written earlier (``stem``.csv and .md) to today's figures without
    solving anything: the CSV's rates are recomputed from its counts (``recount``), and the
    first Markdown table of ``stem``.md is drawn again from it, by ``build`` (default:
    ``headline`` with the means the table showed); the title and the notes are kept."""
    stem = Path(stem)
    df = recount(pd.read_csv(stem.with_suffix(".csv")))
    df.to_csv(stem.with_suffix(".csv"), index=False)
    text = stem.with_suffix(".md").read_text()
    found = TABLE.search(text)
    if found is None:
        raise ValueError(f"{stem.with_suffix('.md')} holds no Markdown table")
    if build is None:
        header = found.group(0).splitlines()[0]
        shown = [m for m in re.findall(r"mean (\S+) \(95% CI\)", header) if m != "score"]
        table = headline(df, shown)
    else:
        table = build(df)
    fresh = markdown(table, {c: c for c in table.columns})
    stem.with_suffix(".md").write_text(text[:found.start()] + fresh + text[found.end():])

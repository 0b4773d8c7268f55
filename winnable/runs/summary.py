"""What `winnable summary` prints for run files (and `solve-batch --json`, `resolve --sample`):
the summary of each run, unknowns settled by rule-set implication, the escalations."""

from __future__ import annotations

import json

from ..games import get_game
from ..implication import apply_implications
from ..stats import summarize
from .read import read_runs
from .resolve import escalation_lines
from .spec import BatchError


def summary_json(summaries) -> str:
    """Summaries as a JSON list of objects with the keys of ``Summary.as_row`` (docs/batch.md,
    Summary keys); a figure that does not exist (NaN, e.g. the win rate of a run with
    unknowns and no sample) is null."""
    def plain(value):
        if isinstance(value, float) and value != value:
            return None
        return value.item() if hasattr(value, "item") else value

    return json.dumps([{k: plain(v) for k, v in s.as_row().items()} for s in summaries])


def summarized_runs(files):
    """The summaries of run files (``winnable summary``), their rows (implications applied)
    and how many unknowns rule-set implication settled."""
    df = read_runs(files)
    options = df.groupby(["game", "solver", "variant", "numbering"])["options"].unique()
    mixed = options[options.map(len) > 1]
    if len(mixed):
        (game, solver, variant, _), values = mixed.index[0], mixed.iloc[0]
        raise BatchError(f"the files hold runs of {game} solver {solver} rules '{variant}' with "
                         f"different solver options ({' / '.join(v or 'none' for v in values)}): "
                         "summarize them with separate commands")
    df, settled = apply_implications(df)
    summaries = [s for name in df["game"].unique()
                 for s in summarize(df[df["game"] == name], get_game(name).summary_means)]
    return summaries, df, settled


def summary_texts(files) -> str:
    """The text ``winnable summary`` prints for run files."""
    summaries, df, settled = summarized_runs(files)
    blocks = []
    if settled:
        blocks.append(f"{settled:,} unknown deals settled by rule-set implication "
                      "(a win under stricter rules is a win under looser ones; a loss under "
                      "looser rules is a loss under stricter ones)\n")
    blocks.append("\n\n".join(s.text() for s in summaries))
    for key, rows in df.groupby(["game", "solver", "variant", "numbering"], sort=True):
        lines = escalation_lines(rows)
        if lines:
            numbered = f" | {key[3]} numbering" if key[3] != "winnable" else ""
            blocks.append(f"\n{key[0]} | {key[1]} | {key[2]}{numbered}: escalations (winnable "
                          "resolve)\n" + "\n".join(lines))
    return "\n".join(blocks)

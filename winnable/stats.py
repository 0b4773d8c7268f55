"""Win rates with honest intervals, and the summary of a run.

Win rate: ``wins / decided`` where decided = wins + losses.  Its 95% interval is the Wilson
score interval, made conservative about unknown deals (the solver's budget ran out): the lower
bound is Wilson's lower bound of ``wins / N`` (every unknown counted as a loss) and the upper
bound is Wilson's upper bound of ``(wins + unknowns) / N`` (every unknown counted as a win).
With no unknowns this is the ordinary Wilson interval.  Means carry a normal-approximation 95%
interval (mean +- 1.96 standard errors).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

Z95 = 1.959963984540054


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    low, high = wilson_bounds(successes, n, z)
    return float(low), float(high)


def wilson_bounds(successes, n, z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson's 95% bounds for arrays of success counts out of ``n`` (``(0, 1)`` where n = 0)."""
    s = np.asarray(successes, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = s / n
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = np.where((s == 0) | (n <= 0), 0.0, np.maximum(0.0, centre - half))
    high = np.where((s == n) | (n <= 0), 1.0, np.minimum(1.0, centre + half))
    return low, high


def win_rate_interval(wins: int, losses: int, unknowns: int, z: float = Z95) -> tuple[float, float, float]:
    """(point estimate, lower, upper) with unknowns counted as losses for the lower bound and
    as wins for the upper bound."""
    point, low, high = win_rate_intervals(wins, losses, unknowns, z)
    return float(point), float(low), float(high)


def win_rate_intervals(wins, losses, unknowns, z: float = Z95):
    """``win_rate_interval`` for arrays of counts (e.g. running totals as deals accumulate):
    arrays of point estimates (NaN while nothing is decided), lower and upper bounds."""
    wins, losses, unknowns = (np.asarray(x, dtype=np.float64) for x in (wins, losses, unknowns))
    n = wins + losses + unknowns
    decided = wins + losses
    with np.errstate(divide="ignore", invalid="ignore"):
        point = np.where(decided > 0, wins / decided, np.nan)
    return point, wilson_bounds(wins, n, z)[0], wilson_bounds(wins + unknowns, n, z)[1]


def mean_interval(values: pd.Series, z: float = Z95) -> tuple[float, float, float]:
    values = values.dropna().astype(float)
    n = len(values)
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    mean = float(values.mean())
    half = z * float(values.std(ddof=1)) / math.sqrt(n) if n > 1 else float("nan")
    return mean, mean - half, mean + half


@dataclass
class Summary:
    game: str
    solver: str
    variant: str
    deals: int
    wins: int
    losses: int
    unknowns: int
    win_rate: float
    win_low: float
    win_high: float
    mean_score: float
    score_low: float
    score_high: float
    first_seed: int | None
    last_seed: int | None
    score_counts: dict[int, int] = field(default_factory=dict)
    means: dict[str, tuple[float, float, float]] = field(default_factory=dict)
    numbering: str = "winnable"  # which deals the seeds are (winnable.numbering)

    def as_row(self) -> dict:
        row = {k: v for k, v in self.__dict__.items() if k not in ("score_counts", "means")}
        for name, (mean, low, high) in self.means.items():
            row[f"mean_{name}"] = mean
            row[f"mean_{name}_low"] = low
            row[f"mean_{name}_high"] = high
        return row

    def text(self) -> str:
        which = "deals" if self.numbering == "winnable" else f"{self.numbering} numbers"
        seeds = (f", {which} {self.first_seed}-{self.last_seed}"
                 if self.first_seed is not None else "")
        lines = [
            f"{self.game} | solver {self.solver} | rules {self.variant}{seeds}",
            f"  deals {self.deals:,}: {self.wins:,} wins, {self.losses:,} losses, "
            f"{self.unknowns:,} unknown",
            f"  win rate {_pct(self.win_rate)}, 95% CI [{_pct(self.win_low)}, "
            f"{_pct(self.win_high)}] (Wilson; unknowns counted as losses / as wins)",
            f"  mean score {self.mean_score:.3f}, 95% CI [{self.score_low:.3f}, "
            f"{self.score_high:.3f}]",
        ]
        for name, (mean, low, high) in self.means.items():
            lines.append(f"  mean {name} {mean:.4f}, 95% CI [{low:.4f}, {high:.4f}]")
        if self.score_counts:
            lines.append("  score distribution (score: deals, share):")
            cells = [f"{s:>3}: {c:>9,} {100 * c / self.deals:6.2f}%"
                     for s, c in sorted(self.score_counts.items())]
            for i in range(0, len(cells), 3):
                lines.append("    " + "   ".join(cells[i:i + 3]))
        return "\n".join(lines)


def _pct(x: float) -> str:
    if x != x:
        return "n/a"
    return f"{100 * x:.2f}%" if x == 0 or x >= 0.01 else f"{100 * x:.4f}%"


GROUP_KEYS = ("game", "solver", "variant", "numbering")


def summarize(df: pd.DataFrame, mean_columns: tuple[str, ...] = ()) -> list[Summary]:
    """One Summary per (game, solver, variant, numbering) in the frame of per-deal rows (rows
    without a ``numbering`` column are the project's own numbering)."""
    out = []
    if "numbering" in df.columns:  # rows of files without the column mixed in
        df = df.assign(numbering=df["numbering"].fillna("winnable"))
    keys = [k for k in GROUP_KEYS if k in df.columns]
    groups = df.groupby(keys, sort=True, dropna=False) if keys else [((), df)]
    for key, part in groups:
        key = key if isinstance(key, tuple) else (key,)
        labels = dict(zip(keys, key))
        counts = part["outcome"].value_counts()
        wins, losses, unknowns = (int(counts.get(o, 0)) for o in ("win", "loss", "unknown"))
        point, low, high = win_rate_interval(wins, losses, unknowns)
        mean, mlow, mhigh = mean_interval(part["score"])
        seeds = part["seed"] if "seed" in part.columns else None
        means = {c: mean_interval(part[c]) for c in mean_columns if c in part.columns}
        out.append(Summary(
            game=str(labels.get("game", "")), solver=str(labels.get("solver", "")),
            variant=str(labels.get("variant", "")), deals=len(part), wins=wins,
            losses=losses, unknowns=unknowns, win_rate=point, win_low=low, win_high=high,
            mean_score=mean, score_low=mlow, score_high=mhigh,
            first_seed=int(seeds.min()) if seeds is not None and len(seeds) else None,
            last_seed=int(seeds.max()) if seeds is not None and len(seeds) else None,
            score_counts={int(s): int(c) for s, c in part["score"].value_counts().items()},
            means=means, numbering=str(labels.get("numbering", "winnable")),
        ))
    return out


OUTCOME_ORDER = ("win", "loss", "unknown")


def paired_outcomes(a: pd.DataFrame, b: pd.DataFrame) -> pd.DataFrame:
    """The outcomes of the deals two runs share: one row per common seed (sorted), columns
    ``a`` and ``b``.  Seeds in only one run are left out."""
    return pd.concat({"a": a.set_index("seed")["outcome"], "b": b.set_index("seed")["outcome"]},
                     axis=1, join="inner").sort_index()


def outcome_crosstab(pairs: pd.DataFrame) -> pd.DataFrame:
    """Deals by outcome under run a (rows) and run b (columns), from ``paired_outcomes``: win
    and loss always, unknown for a run that has any (so 2x2, 2x3, 3x2 or 3x3)."""
    def order(side: str) -> list[str]:
        return [o for o in OUTCOME_ORDER if o != "unknown" or (pairs[side] == o).any()]

    return (pd.crosstab(pairs["a"], pairs["b"])
            .reindex(index=order("a"), columns=order("b"), fill_value=0).astype(int))

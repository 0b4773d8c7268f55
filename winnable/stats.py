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

import pandas as pd

Z95 = 1.959963984540054


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return (low, high)


def win_rate_interval(wins: int, losses: int, unknowns: int, z: float = Z95) -> tuple[float, float, float]:
    """(point estimate, lower, upper) with unknowns counted as losses for the lower bound and
    as wins for the upper bound."""
    n = wins + losses + unknowns
    decided = wins + losses
    point = wins / decided if decided else float("nan")
    low = wilson_interval(wins, n, z)[0]
    high = wilson_interval(wins + unknowns, n, z)[1]
    return point, low, high


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

    def as_row(self) -> dict:
        row = {k: v for k, v in self.__dict__.items() if k not in ("score_counts", "means")}
        for name, (mean, low, high) in self.means.items():
            row[f"mean_{name}"] = mean
            row[f"mean_{name}_low"] = low
            row[f"mean_{name}_high"] = high
        return row

    def text(self) -> str:
        seeds = (f", deals {self.first_seed}-{self.last_seed}"
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


GROUP_KEYS = ("game", "solver", "variant")


def summarize(df: pd.DataFrame, mean_columns: tuple[str, ...] = ()) -> list[Summary]:
    """One Summary per (game, solver, variant) in the frame of per-deal rows."""
    out = []
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
            means=means,
        ))
    return out

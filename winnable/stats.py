"""Win rates with honest intervals, and the summary of a run.

A run's deals are won, lost or ``unknown`` (not decided within the solver's budget: never a
loss).  ``win_rate`` turns the counts into the figures every output prints:

* **No unknowns**: the win rate is ``wins / N`` with its 95% Wilson score interval.
* **Unknowns**: the rate lies between the pair of bounds ``wins / N`` (every unknown lost) and
  ``(wins + unknowns) / N`` (every unknown won); its 95% interval runs from Wilson's lower
  bound of the first to Wilson's upper bound of the second.  There is no point estimate:
  ``wins / decided`` is biased upwards (the unknown deals are the hard ones, mostly lost) and is
  shown only as the "share of decided deals won".
* **A sample of the unknowns escalated** (``winnable resolve RUN --sample K``): the stratified
  estimate of ``stratified_estimate``, a point where no sampled deal is still unknown.

Means carry a normal-approximation 95% interval (mean +- 1.96 standard errors); a mean score
over a run with unknowns is a lower bound (an unknown deal carries the best score found).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

Z95 = 1.959963984540054


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a share of ``successes`` in ``n`` trials (95% by default:
    ``z`` is the normal quantile): ``(low, high)``.

    Examples:
        >>> from winnable import wilson_interval
        >>> low, high = wilson_interval(90, 100)
        >>> round(low, 4), round(high, 4)
        (0.8256, 0.9448)
    """
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


def rate_bounds(wins, losses, unknowns, z: float = Z95):
    """The pair of bounds and the 95% interval around it, for counts or arrays of counts (e.g.
    running totals as deals accumulate): ``(least, most, low, high)`` where ``least = wins / N``
    (every unknown lost), ``most = (wins + unknowns) / N`` (every unknown won), ``low`` is
    Wilson's lower bound of ``least`` and ``high`` Wilson's upper bound of ``most``.  With no
    unknowns ``least == most`` is the win rate and (low, high) its Wilson interval."""
    wins, losses, unknowns = (np.asarray(x, dtype=np.float64) for x in (wins, losses, unknowns))
    n = wins + losses + unknowns
    with np.errstate(divide="ignore", invalid="ignore"):
        least, most = wins / n, (wins + unknowns) / n
    return least, most, wilson_bounds(wins, n, z)[0], wilson_bounds(wins + unknowns, n, z)[1]


@dataclass(frozen=True)
class Sample:
    """A seeded uniform sample of a run's unknown deals, escalated (``winnable resolve RUN
    --sample K``): how the run stood when the sample was drawn, and the sampled deals now.
    ``summarize`` reads it from a run's rows; ``win_rate`` and ``stratified_estimate`` take it.

    Examples:
        >>> from winnable import Sample
        >>> Sample(stratum=50, decided_wins=900, wins=4, losses=5, unknowns=1).size
        10
    """

    stratum: int        # deals unknown when the sample was drawn (the unknown stratum, M)
    decided_wins: int   # wins among the deals decided then (the decided stratum, counted)
    wins: int           # the sampled deals now: won, lost, still unknown
    losses: int
    unknowns: int

    @property
    def size(self) -> int:
        return self.wins + self.losses + self.unknowns


def stratified_estimate(deals: int, sample: Sample, z: float = Z95
                        ) -> tuple[float, float, float, float]:
    """The stratified estimate of the win rate from a run of ``deals`` deals and a sample of its
    unknown stratum: ``(estimate_min, estimate_max, low, high)``.

    Estimator: the decided stratum is counted, the unknown stratum (M deals) is estimated by
    the sample's share of wins: ``(decided_wins + M * wins_in_sample / K) / N``.  It is unbiased
    for a uniform sample.  Sampled deals still unknown are counted both ways: as losses for
    ``estimate_min``, as wins for ``estimate_max`` (equal when none is left).

    95% interval: the union of the intervals of the two completions (the lower end from the
    first, the upper from the second), each carrying two independent errors combined by
    square-and-add (the MOVER method of Newcombe and of Zou & Donner):
    * the N deals as a sample of the game's deals: Wilson's interval for the completed share of
      wins among N (with no unknown left, exactly the interval of a run without unknowns);
    * the sample as a part of the unknown stratum: Wilson's interval for the sample's share of
      wins with the finite population correction (effective size ``K (M - 1) / (M - K)``;
      none when the sample is the whole stratum), scaled by ``M / N``.
    ``tests/test_stats.py`` measures its coverage on synthetic runs with a known rate.

    Examples:
        >>> from winnable import Sample, stratified_estimate
        >>> low_end, high_end, low, high = stratified_estimate(
        ...     1000, Sample(stratum=50, decided_wins=900, wins=4, losses=5, unknowns=1))
        >>> round(low_end, 3), round(high_end, 3)      # the one sampled unknown lost / won
        (0.92, 0.925)
        >>> round(low, 4), round(high, 4)
        (0.8986, 0.9441)
    """
    n, m, k = deals, sample.stratum, sample.size
    share = np.array([sample.wins, sample.wins + sample.unknowns], dtype=np.float64) / k
    estimate = (sample.decided_wins + m * share) / n
    run_low, run_high = wilson_bounds(estimate * n, n, z)
    if k < m:  # the finite population correction: the sample is drawn without replacement
        effective = k * (m - 1) / (m - k)
        part_low, part_high = wilson_bounds(share * effective, effective, z)
    else:  # the whole stratum: no sampling error
        part_low, part_high = share, share
    low = estimate[0] - math.hypot(estimate[0] - run_low[0],
                                   m / n * (share[0] - part_low[0]))
    high = estimate[1] + math.hypot(run_high[1] - estimate[1],
                                    m / n * (part_high[1] - share[1]))
    return float(estimate[0]), float(estimate[1]), float(max(0.0, low)), float(min(1.0, high))


@dataclass(frozen=True)
class WinRate:
    """The figures of a run's win rate (``win_rate``).  ``point`` is NaN wherever no unbiased
    point exists: with unknowns and no sample, or with sampled deals still unknown.

    Examples:
        >>> from winnable import win_rate
        >>> r = win_rate(wins=90, losses=5, unknowns=5)
        >>> r.kind, r.least, r.most, r.point != r.point   # no point: NaN
        ('bounds', 0.9, 0.95, True)
        >>> round(r.decided_share, 4)                      # not the win rate: biased upwards
        0.9474
    """

    deals: int
    wins: int
    losses: int
    unknowns: int
    point: float         # the win rate, where unbiased
    low: float           # its 95% interval
    high: float
    least: float         # the pair of bounds: wins / N, (wins + unknowns) / N
    most: float
    decided_share: float  # wins / decided deals: NOT the win rate (biased where unknowns)
    sample: Sample | None = None
    estimate_min: float = math.nan  # the stratified estimate, sampled unknowns lost / won
    estimate_max: float = math.nan

    @property
    def kind(self) -> str:
        """``exact`` (no unknowns), ``estimate`` (stratified) or ``bounds``."""
        if self.unknowns == 0:
            return "exact"
        return "estimate" if self.sample is not None else "bounds"


def win_rate(wins: int, losses: int, unknowns: int, sample: Sample | None = None,
             z: float = Z95) -> WinRate:
    """The one place a run's counts become its win-rate figures (a ``WinRate``; the module
    docstring says which figures and why).  A sample (``Sample``: the unknown deals escalated
    by ``resolve_file(..., sample=K)``) counts only while the run has unknowns: once none is
    left the counts are exact.

    Examples:
        >>> from winnable import Sample, win_rate
        >>> exact = win_rate(wins=950, losses=50, unknowns=0)
        >>> exact.kind, exact.point, round(exact.low, 4), round(exact.high, 4)
        ('exact', 0.95, 0.9347, 0.9619)
        >>> sampled = win_rate(900, 50, 50, Sample(stratum=50, decided_wins=900, wins=4,
        ...                                        losses=6, unknowns=0))
        >>> sampled.kind, round(sampled.point, 3)
        ('estimate', 0.92)
    """
    least, most, low, high = (float(x) for x in rate_bounds(wins, losses, unknowns, z))
    decided = wins + losses
    share = wins / decided if decided else math.nan
    counts = dict(deals=wins + losses + unknowns, wins=wins, losses=losses, unknowns=unknowns,
                  least=least, most=most, decided_share=share)
    if unknowns == 0:
        return WinRate(point=least, low=low, high=high, **counts)
    if sample is None or sample.size == 0:
        return WinRate(point=math.nan, low=low, high=high, **counts)
    e_min, e_max, s_low, s_high = stratified_estimate(wins + losses + unknowns, sample, z)
    return WinRate(point=e_min if sample.unknowns == 0 else math.nan, low=s_low, high=s_high,
                   sample=sample, estimate_min=e_min, estimate_max=e_max, **counts)


SAMPLE_COLUMNS = ("sample_stratum", "stratum_decided_wins", "sample_wins", "sample_losses",
                  "sample_unknowns")


def rate_row(r: WinRate) -> dict:
    """A win rate's figures as the columns of a summary row (``Summary.as_row``)."""
    sample = r.sample
    return {"win_rate": r.point, "win_low": r.low, "win_high": r.high, "win_min": r.least,
            "win_max": r.most, "decided_win_share": r.decided_share,
            "sample_size": sample.size if sample else 0,
            **{c: getattr(sample, f) if sample else 0 for c, f in zip(
                SAMPLE_COLUMNS, ("stratum", "decided_wins", "wins", "losses", "unknowns"))},
            "estimate_min": r.estimate_min, "estimate_max": r.estimate_max}


def rate_of_row(row) -> WinRate:
    """``win_rate`` of a summary row (``Summary.as_row``, a CSV row of one): from its counts,
    never from a stored rate (tables written by earlier versions hold wins / decided)."""
    get = row.get if hasattr(row, "get") else row.__getitem__
    counts = [int(get(c)) for c in ("wins", "losses", "unknowns")]
    values = [get(c, None) for c in SAMPLE_COLUMNS]
    sample = None
    if all(v is not None and v == v for v in values) and int(values[0]) > 0:
        sample = Sample(*(int(v) for v in values))
    return win_rate(*counts, sample=sample)


def sample_of(rows: pd.DataFrame) -> tuple[Sample | None, str]:
    """The sample of one run's rows (their ``stratum`` column, written by ``winnable resolve
    --sample``: ``decided`` and ``unknown`` when it was drawn, ``sampled`` for the deals drawn),
    and why it cannot be used ("" if it can, or if there is none)."""
    if "stratum" not in rows.columns:
        return None, ""
    stratum = rows["stratum"].fillna("")
    if (stratum == "").all():
        return None, ""
    if (stratum == "").any():
        return None, (f"{int((stratum == '').sum()):,} deals were added after the sample was "
                      "drawn, so it does not describe the run: draw a new one")
    sampled = rows["outcome"][stratum == "sampled"]
    return Sample(stratum=int(stratum.isin(["unknown", "sampled"]).sum()),
                  decided_wins=int(((stratum == "decided") & (rows["outcome"] == "win")).sum()),
                  wins=int((sampled == "win").sum()), losses=int((sampled == "loss").sum()),
                  unknowns=int((sampled == "unknown").sum())), ""


def mean_interval(values: pd.Series, z: float = Z95) -> tuple[float, float, float]:
    values = values.dropna().astype(float)
    n = len(values)
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    mean = float(values.mean())
    half = z * float(values.std(ddof=1)) / math.sqrt(n) if n > 1 else float("nan")
    return mean, mean - half, mean + half


@dataclass(repr=False)
class Summary:
    """One run summed up (``summarize``): its counts, win rate (``rate``, a ``WinRate``), mean
    score and the means of the game's extra columns, each with its 95% interval.  ``text()``
    (also ``str``) is what ``winnable summary`` prints, ``as_row()`` one flat row of its
    figures (the keys of ``--json``).

    Examples:
        >>> import pandas as pd
        >>> from winnable import summarize
        >>> rows = pd.DataFrame({"game": "addario", "solver": "thoughtful", "variant":
        ...                      "default", "seed": [1, 2], "outcome": ["win", "unknown"],
        ...                      "score": [52, 40]})
        >>> (s,) = summarize(rows)
        >>> s.rate.kind, s.rate.least, s.rate.most
        ('bounds', 0.5, 1.0)
        >>> print(s.text().splitlines()[1])
          deals 2: 1 wins, 0 losses, 1 unknown
    """

    game: str
    solver: str
    variant: str
    deals: int
    wins: int
    losses: int
    unknowns: int
    rate: WinRate
    mean_score: float
    score_low: float
    score_high: float
    first_seed: int | None
    last_seed: int | None
    score_counts: dict[int, int] = field(default_factory=dict)
    means: dict[str, tuple[float, float, float]] = field(default_factory=dict)
    numbering: str = "winnable"  # which deals the seeds are (winnable.numbering)
    sample_problem: str = ""  # why the run's sample is not used ("" if it is, or if none)

    @property
    def win_rate(self) -> float:
        """The win rate where unbiased (NaN otherwise: read ``rate``'s bounds)."""
        return self.rate.point

    @property
    def win_low(self) -> float:
        return self.rate.low

    @property
    def win_high(self) -> float:
        return self.rate.high

    @property
    def score_lower_bound(self) -> bool:
        """Whether the mean score is only a lower bound (unknown deals carry the best score
        found, not the deal's best)."""
        return self.unknowns > 0

    def as_row(self) -> dict:
        """The summary as one flat row: the keys of ``summary --csv`` and ``--json`` (docs/batch.md,
        Summary keys)."""
        row = {"game": self.game, "solver": self.solver, "variant": self.variant,
               "deals": self.deals, "wins": self.wins, "losses": self.losses,
               "unknowns": self.unknowns, **rate_row(self.rate),
               "mean_score": self.mean_score, "score_low": self.score_low,
               "score_high": self.score_high, "score_lower_bound": self.score_lower_bound,
               "first_seed": self.first_seed, "last_seed": self.last_seed,
               "numbering": self.numbering}
        for name, (mean, low, high) in self.means.items():
            row[f"mean_{name}"] = mean
            row[f"mean_{name}_low"] = low
            row[f"mean_{name}_high"] = high
        return row

    @classmethod
    def from_row(cls, row: Mapping) -> "Summary":
        """A summary back from its flat row (``as_row``; a row of ``summary --csv`` or of a
        results table such as results/impossible/players.csv): the counts, the rate (from the
        counts and the sample, ``rate_of_row``), the mean score and the means of the extra
        columns.  The score distribution is not in the row, so ``score_counts`` is empty.

        Examples:
            >>> from winnable.stats import Summary
            >>> row = {"game": "addario", "solver": "thoughtful", "variant": "default",
            ...        "deals": 2, "wins": 1, "losses": 0, "unknowns": 1, "mean_score": 46.0,
            ...        "score_low": 34.2, "score_high": 57.8}
            >>> Summary.from_row(row)
            <Summary addario | thoughtful | default: 50.000% to 100.000% (bounds) [9.453, 100.000] of 2 deals>
        """
        get = row.get if hasattr(row, "get") else row.__getitem__

        def seed(name):
            value = get(name, None)
            return None if value is None or value != value else int(value)

        names = [c[len("mean_"):-len("_low")] for c in row.keys()
                 if c.startswith("mean_") and c.endswith("_low") and c != "mean_score_low"]
        means = {name: tuple(float(get(f"mean_{name}{end}")) for end in ("", "_low", "_high"))
                 for name in names if f"mean_{name}" in row.keys()}
        return cls(game=str(get("game")), solver=str(get("solver")),
                   variant=str(get("variant")), deals=int(get("deals")),
                   wins=int(get("wins")), losses=int(get("losses")),
                   unknowns=int(get("unknowns")), rate=rate_of_row(row),
                   mean_score=float(get("mean_score")), score_low=float(get("score_low")),
                   score_high=float(get("score_high")), first_seed=seed("first_seed"),
                   last_seed=seed("last_seed"), means=means,
                   numbering=numbering if isinstance(numbering := get("numbering", None), str)
                   else "winnable")

    def __repr__(self) -> str:
        return (f"<Summary {self.game} | {self.solver} | {self.variant}: "
                f"{rate_text(self.rate)} of {self.deals:,} deals>")

    def __str__(self) -> str:
        return self.text()

    def text(self) -> str:
        """The summary as ``winnable summary`` prints it."""
        which = "deals" if self.numbering == "winnable" else f"{self.numbering} numbers"
        seeds = (f", {which} {self.first_seed}-{self.last_seed}"
                 if self.first_seed is not None else "")
        lines = [
            f"{self.game} | solver {self.solver} | rules {self.variant}{seeds}",
            f"  deals {self.deals:,}: {self.wins:,} wins, {self.losses:,} losses, "
            f"{self.unknowns:,} unknown",
            *rate_lines(self.rate),
        ]
        if self.sample_problem:
            lines.append(f"  (the run's sample is not used: {self.sample_problem})")
        lower = (" (a lower bound: an unknown deal counts the best score found)"
                 if self.score_lower_bound else "")
        lines.append(f"  mean score {self.mean_score:.3f}{lower}, 95% CI "
                     f"[{self.score_low:.3f}, {self.score_high:.3f}]")
        for name, (mean, low, high) in self.means.items():
            lines.append(f"  mean {name} {mean:.4f}, 95% CI [{low:.4f}, {high:.4f}]")
        if self.score_counts:
            lines.append("  score distribution (score: deals, share):")
            cells = [f"{s:>3}: {c:>9,} {100 * c / self.deals:6.2f}%"
                     for s, c in sorted(self.score_counts.items())]
            for i in range(0, len(cells), 3):
                lines.append("    " + "   ".join(cells[i:i + 3]))
        return "\n".join(lines)


def rate_lines(r: WinRate) -> list[str]:
    """The win-rate lines of a summary's text: the rate and its interval where the counts or a
    sample give it, the pair of bounds otherwise; the share of decided deals only labelled."""
    interval = f"95% CI [{_pct(r.low)}, {_pct(r.high)}]"
    bounds = f"{_pct(r.least)} (unknowns lost) and {_pct(r.most)} (unknowns won)"
    if r.kind == "exact":
        return [f"  win rate {_pct(r.point)}, {interval} (Wilson)"]
    share = (f"  share of decided deals won {_pct(r.decided_share)} (biased upwards: the unknown "
             "deals are the hard ones)")
    if r.kind == "bounds":
        return [f"  win rate between {bounds}, {interval} (Wilson; unknowns counted as losses / "
                "as wins; `winnable resolve RUN --sample K` estimates it)", share]
    s = r.sample
    if s.unknowns:
        point = (f"between {_pct(r.estimate_min)} and {_pct(r.estimate_max)} (stratified "
                 f"estimate, its {s.unknowns:,} sampled deals still unknown lost / won)")
    else:
        point = f"{_pct(r.point)} (stratified estimate)"
    return [f"  win rate {point}, {interval}",
            f"    sample: {s.size:,} of the {s.stratum:,} deals unknown when it was drawn, "
            f"escalated: {s.wins:,} wins, {s.losses:,} losses, {s.unknowns:,} still unknown; "
            f"the {r.deals - s.stratum:,} deals decided then counted",
            f"  without the sample: between {bounds}", share]


def _pct(x: float) -> str:
    if x != x:
        return "n/a"
    return f"{100 * x:.2f}%" if x == 0 or x >= 0.01 else f"{100 * x:.4f}%"


GROUP_KEYS = ("game", "solver", "variant", "numbering")


class Summaries(list):
    """What ``summarize`` returns: a list of ``Summary``, one per run, that prints as a table
    (one row per run: deals, win rate, unknowns, mean score and the mean of every extra column,
    each with its 95% interval; in a notebook, an HTML table); ``str`` gives each summary's
    full text, as ``winnable summary`` prints it, and ``to_frame`` the table as a DataFrame.

    Examples:
        >>> import pandas as pd
        >>> from winnable import summarize
        >>> rows = pd.DataFrame({"game": "nineball", "solver": "thoughtful",
        ...                      "variant": "default", "seed": [1, 2, 3, 4],
        ...                      "outcome": ["win", "win", "loss", "win"],
        ...                      "score": [25, 24, 11, 25]})
        >>> summaries = summarize(rows)
        >>> summaries
            game     solver   rules deals        win rate (95% CI)  unknown     mean score (95% CI)
        nineball thoughtful default     4 75.000% [30.064, 95.441]        0 21.250 [14.538, 27.962]
        >>> summaries[0]
        <Summary nineball | thoughtful | default: 75.000% [30.064, 95.441] of 4 deals>
    """

    def to_frame(self) -> pd.DataFrame:
        """The summaries as a table with readable cells (``summaries_frame``)."""
        return summaries_frame(self)

    def __repr__(self) -> str:
        if not self:
            return "Summaries([])"
        with pd.option_context("display.width", 200, "display.max_columns", None,
                               "display.max_colwidth", None):
            return self.to_frame().to_string(index=False)

    def __str__(self) -> str:
        return "\n\n".join(s.text() for s in self)

    def _repr_html_(self) -> str:
        return self.to_frame().to_html(index=False)


def summarize(df: pd.DataFrame, mean_columns: tuple[str, ...] = ()) -> Summaries:
    """One ``Summary`` per (game, solver, variant, numbering) in the frame of per-deal rows
    (rows without a ``numbering`` column are the project's own numbering), as ``Summaries``,
    a list that prints as a table; ``mean_columns``: per-deal columns whose means (with 95%
    intervals) each summary reports too (a game's ``summary_means``).

    Examples:
        >>> import pandas as pd
        >>> from winnable import summarize
        >>> rows = pd.DataFrame({"game": "nineball", "solver": "thoughtful",
        ...                      "variant": "default", "seed": [1, 2, 3, 4],
        ...                      "outcome": ["win", "win", "loss", "win"],
        ...                      "score": [25, 24, 11, 25]})
        >>> (s,) = summarize(rows)
        >>> s.wins, s.losses, round(s.win_rate, 2)
        (3, 1, 0.75)
    """
    out = Summaries()
    if "numbering" in df.columns:  # rows of files without the column mixed in
        df = df.assign(numbering=df["numbering"].fillna("winnable"))
    keys = [k for k in GROUP_KEYS if k in df.columns]
    groups = df.groupby(keys, sort=True, dropna=False) if keys else [((), df)]
    for key, part in groups:
        key = key if isinstance(key, tuple) else (key,)
        labels = dict(zip(keys, key))
        counts = part["outcome"].value_counts()
        wins, losses, unknowns = (int(counts.get(o, 0)) for o in ("win", "loss", "unknown"))
        sample, problem = sample_of(part)
        mean, mlow, mhigh = mean_interval(part["score"])
        seeds = part["seed"] if "seed" in part.columns else None
        means = {c: mean_interval(part[c]) for c in mean_columns if c in part.columns}
        out.append(Summary(
            game=str(labels.get("game", "")), solver=str(labels.get("solver", "")),
            variant=str(labels.get("variant", "")), deals=len(part), wins=wins,
            losses=losses, unknowns=unknowns, rate=win_rate(wins, losses, unknowns, sample),
            mean_score=mean, score_low=mlow, score_high=mhigh,
            first_seed=int(seeds.min()) if seeds is not None and len(seeds) else None,
            last_seed=int(seeds.max()) if seeds is not None and len(seeds) else None,
            score_counts={int(s): int(c) for s, c in part["score"].value_counts().items()},
            means=means, numbering=str(labels.get("numbering", "winnable")),
            sample_problem=problem if unknowns else "",
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


def paired_difference(only_a: int, only_b: int, n: int, z: float = Z95
                      ) -> tuple[float, float, float]:
    """The difference of two players' win rates on the same n deals, b minus a, from the deals
    won by one only (the McNemar pairs), with its paired 95% interval: (difference, low, high).
    Normal approximation to the mean of the per-deal differences (+1 won by b only, -1 by a
    only, 0 otherwise), whose variance is (only_a + only_b) / n - d^2; deals both win or both
    lose carry no information on the difference, which is why pairing narrows the interval.

    Examples:
        >>> from winnable import paired_difference
        >>> d, low, high = paired_difference(only_a=12, only_b=30, n=1000)  # b won 18 more
        >>> round(d, 3), round(low, 4), round(high, 4)
        (0.018, 0.0053, 0.0307)
    """
    if n <= 0:
        raise ValueError("no deals in common")
    d = (only_b - only_a) / n
    se = math.sqrt(max(only_a + only_b - n * d * d, 0.0)) / n
    return d, d - z * se, d + z * se


def rate_text(r: WinRate) -> str:
    """A win rate and its 95% interval as a table cell: ``97.471% [97.440, 97.502]`` with no
    unknowns; the pair of bounds ``93.256% to 96.324% (bounds) [93.099, 96.439]`` with
    unknowns; the stratified estimate ``93.520% (estimate) [...]`` with a sample of them (a
    range where sampled deals are still unknown).  Never wins / decided deals."""
    interval = f"[{100 * r.low:.3f}, {100 * r.high:.3f}]"
    if r.kind == "exact":
        return f"{100 * r.point:.3f}% {interval}"
    if r.kind == "bounds":
        return f"{100 * r.least:.3f}% to {100 * r.most:.3f}% (bounds) {interval}"
    if r.point == r.point:
        return f"{100 * r.point:.3f}% (estimate) {interval}"
    return f"{100 * r.estimate_min:.3f}% to {100 * r.estimate_max:.3f}% (estimate) {interval}"


def mean_text(mean: float, low: float, high: float, digits: int = 3,
              lower_bound: bool = False) -> str:
    """A mean and its 95% interval; ``lower_bound``: the mean counts unknown deals at the best
    score found, so it is a lower bound."""
    text = f"{mean:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"
    return text + " (a lower bound)" if lower_bound else text


def headline(df: pd.DataFrame, means: Iterable[str] | bool = ()) -> pd.DataFrame:
    """Win rates and mean scores as printable text with their intervals (``df``: rows of
    ``summary_table``, or a CSV of them from any version: the rates are recomputed from the
    counts), plus the means of the named extra per-deal columns (``True``: every one the
    summaries carry), each as ``mean <column> (95% CI)``."""
    rates = [rate_of_row(row) for _, row in df.iterrows()]
    lower = df["unknowns"] > 0
    out = pd.DataFrame({
        "game": df["game"], "solver": df["solver"], "rules": df["variant"],
        "deals": df["deals"].map(lambda n: f"{n:,}"),
        "win rate (95% CI)": list(map(rate_text, rates)),
        "unknown": df["unknowns"],
        "mean score (95% CI)": list(map(mean_text, df.mean_score, df.score_low,
                                        df.score_high, [3] * len(df), lower)),
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

"""The win-rate figures of winnable.stats: the pair of bounds where deals are unknown, and the
stratified estimate from a sample of them, whose 95% interval must cover a known rate about 95%
of the time on synthetic runs without being absurdly wide."""

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from winnable.shuffle import sample_indices
from winnable.stats import (Sample, paired_difference, rate_bounds, rate_of_row, sample_of,
                            stratified_estimate, summarize, wilson_interval, win_rate)

REPETITIONS = 2000  # per scenario: a coverage of 95% is then measured to about +-1 point


# The paragraph of docs/statistics.md that quotes the coverage measured here.
DOC_COVERAGE = " ".join((Path(__file__).resolve().parent.parent / "docs" / "statistics.md")
                        .read_text().split("**Coverage**")[1].split("\n- ")[0].split())


def synthetic_runs(rng, rate, unknown_if_won, unknown_if_lost, deals, size, settle_won=1.0,
                   settle_lost=1.0):
    """``REPETITIONS`` runs of ``deals`` deals of a game won with probability ``rate``: a won
    deal is left unknown with probability ``unknown_if_won``, a lost one with
    ``unknown_if_lost`` (the unknowns are mostly the lost, hard deals, as in Chinese
    Solitaire); a uniform sample of ``size`` unknown deals (all where fewer) is escalated, which
    settles a sampled won deal with probability ``settle_won``, a lost one with
    ``settle_lost`` (the rest stay unknown).  Returns, per run, (wins, losses, unknowns now,
    Sample)."""
    runs = []
    wins = rng.binomial(deals, rate, REPETITIONS)
    won_unknown = rng.binomial(wins, unknown_if_won)
    lost_unknown = rng.binomial(deals - wins, unknown_if_lost)
    for w, wu, lu in zip(wins, won_unknown, lost_unknown):
        stratum = wu + lu
        if stratum == 0:
            continue
        k = min(size, stratum)
        drawn_won = rng.hypergeometric(wu, lu, k)
        settled_won = rng.binomial(drawn_won, settle_won)
        settled_lost = rng.binomial(k - drawn_won, settle_lost)
        sample = Sample(stratum=int(stratum), decided_wins=int(w - wu), wins=int(settled_won),
                        losses=int(settled_lost), unknowns=int(k - settled_won - settled_lost))
        runs.append((int(w - wu + settled_won), int(deals - w - lu + settled_lost),
                     int(stratum - settled_won - settled_lost), sample))
    return runs


def coverage(rate, runs):
    """(share of runs whose interval holds ``rate``, mean width, mean width of the bounds'
    interval without the sample)."""
    hits, widths, plain = [], [], []
    for wins, losses, unknowns, sample in runs:
        r = win_rate(wins, losses, unknowns, sample)
        hits.append(r.low <= rate <= r.high)
        widths.append(r.high - r.low)
        without = win_rate(sample.decided_wins, len_decided(wins, losses, unknowns, sample)
                           - sample.decided_wins, sample.stratum)
        plain.append(without.high - without.low)
    return float(np.mean(hits)), float(np.mean(widths)), float(np.mean(plain))


def len_decided(wins, losses, unknowns, sample):
    return wins + losses + unknowns - sample.stratum


SCENARIOS = {
    # name: (rate, unknown if won, unknown if lost, deals, sample size)
    # As solver version 5 left 3.07% of deals 1-100,000 unknown (3.4% here).
    "chinese strict, 100,000 deals, 300 sampled": (0.935, 0.005, 0.45, 100_000, 300),
    # As version 9 leaves 0.67% (results/chinese/thoughtful.csv; 0.68% here).
    "chinese strict now, 100,000 deals, 300 sampled": (0.935, 0.001, 0.09, 100_000, 300),
    "chinese strict, 2,000 deals, 40 sampled": (0.935, 0.005, 0.45, 2_000, 40),
    "chinese strict, 2,000 deals, 20 sampled": (0.935, 0.005, 0.45, 2_000, 20),
    "impossible, 100,000 deals, 200 sampled": (0.8, 0.25, 0.9, 100_000, 200),
    "half unknown, 10,000 deals, 100 sampled": (0.5, 0.3, 0.7, 10_000, 100),
}


@pytest.mark.parametrize("name", SCENARIOS)
def test_the_stratified_interval_covers_the_rate_about_95_percent_of_the_time(name):
    """Every sampled deal settled: the interval is the estimator's own (no bounds in it), so
    its coverage should be near 95%: at least 93% (2,000 seeded repetitions: about 4 standard
    errors below 95%) and at most 98.5% (not padded).  Its width is a fraction of the bounds'
    interval of the same runs without the sample."""
    rate, won, lost, deals, size = SCENARIOS[name]
    rng = np.random.default_rng(sum(map(ord, name)))
    runs = synthetic_runs(rng, rate, won, lost, deals, size)
    covered, width, plain = coverage(rate, runs)
    print(f"{name}: coverage {covered:.4f}, mean width {100 * width:.3f} points "
          f"(bounds without the sample: {100 * plain:.3f})")
    assert 0.93 <= covered <= 0.985, (covered, width)
    assert width < 0.6 * plain, (width, plain)
    assert f"{100 * covered:.1f}%" in DOC_COVERAGE, "docs/statistics.md quotes another coverage"


def test_sampled_deals_still_unknown_widen_the_interval_both_ways():
    """Escalation settles won deals more often than lost ones (a biased escalation): counting
    the rest both ways keeps the interval honest (coverage at least 95%), and it is still
    narrower than the bounds without the sample."""
    rng = np.random.default_rng(38)
    runs = synthetic_runs(rng, 0.935, 0.005, 0.45, 100_000, 300, settle_won=0.9, settle_lost=0.5)
    covered, width, plain = coverage(0.935, runs)
    print(f"biased escalation: coverage {covered:.4f}, mean width {100 * width:.3f} points "
          f"(bounds without the sample: {100 * plain:.3f})")
    assert covered >= 0.95 and width < plain


def test_a_sample_of_the_whole_stratum_settled_gives_the_plain_wilson_interval():
    """With every unknown deal sampled and settled there is no sampling error left: the
    estimate is the counted rate and the interval Wilson's for it."""
    # 1,000 deals: 960 decided (900 won), the 40 unknown all sampled: 10 won, 30 lost.
    e_min, e_max, low, high = stratified_estimate(1000, Sample(40, 900, 10, 30, 0))
    assert e_min == e_max == pytest.approx(0.91)
    assert (low, high) == pytest.approx(wilson_interval(910, 1000))
    e_min, e_max, low, high = stratified_estimate(1000, Sample(40, 900, 10, 25, 5))
    assert (e_min, e_max) == pytest.approx((0.91, 0.915))
    assert (low, high) == pytest.approx((wilson_interval(910, 1000)[0],
                                         wilson_interval(915, 1000)[1]))


def test_the_estimate_is_the_decided_stratum_plus_the_sample_share_of_the_unknown_one():
    s = Sample(stratum=3000, decided_wins=93_000, wins=30, losses=270, unknowns=0)
    r = win_rate(93_030, 0, 0 + 6_970, s)  # counts now; the estimate uses the strata
    assert r.kind == "estimate" and r.point == pytest.approx((93_000 + 3000 * 30 / 300) / 100_000)
    assert r.low < r.point < r.high and r.least <= r.low + 1  # a real interval
    with_unknowns = win_rate(93_030, 0, 6_970, Sample(3000, 93_000, 30, 260, 10))
    assert math.isnan(with_unknowns.point)
    assert with_unknowns.estimate_min == pytest.approx(0.933)
    assert with_unknowns.estimate_max == pytest.approx(0.934)
    # Once no deal is unknown, the counts are exact and the sample no longer matters.
    assert win_rate(93_100, 6_900, 0, s).kind == "exact"


def test_rows_recompute_from_counts_never_from_a_stored_rate():
    """A CSV row of an earlier version holds wins / decided as win_rate: ignored."""
    old = {"wins": 93256, "losses": 3676, "unknowns": 3068, "win_rate": 0.962}
    r = rate_of_row(old)
    assert r.kind == "bounds" and math.isnan(r.point)
    assert (r.least, r.most) == (0.93256, 0.96324)
    row = pd.Series({**old, "sample_stratum": 3068, "stratum_decided_wins": 93256,
                     "sample_wins": 3, "sample_losses": 60, "sample_unknowns": 0})
    assert rate_of_row(row).kind == "estimate"


def test_the_strata_come_from_the_rows_and_deals_added_later_void_the_sample():
    rows = pd.DataFrame({
        "game": "chinese", "solver": "thoughtful", "variant": "default", "seed": range(1, 11),
        "score": 1,
        "outcome": ["win"] * 6 + ["loss", "win", "unknown", "unknown"],
        "stratum": ["decided"] * 5 + ["unknown", "sampled", "sampled", "sampled", "unknown"]})
    sample, problem = sample_of(rows)
    assert problem == "" and sample == Sample(stratum=5, decided_wins=5, wins=1, losses=1,
                                              unknowns=1)
    (s,) = summarize(rows)
    assert s.rate.kind == "estimate" and s.rate.sample == sample
    assert "stratified estimate" in s.text() and "sample: 3 of the 5 deals" in s.text()
    grown = pd.concat([rows, rows.iloc[:1].assign(seed=11, stratum=None)], ignore_index=True)
    (s,) = summarize(grown)
    assert s.rate.kind == "bounds" and "deals were added after the sample" in s.text()


def test_the_sample_is_a_function_of_its_seed_alone():
    """Pinned: changing the draw changes which deals every stored sample escalated.  Drawn in
    another interpreter (another hash seed) and after the global random generators moved on,
    the sample is the same."""
    import os
    import random
    import subprocess
    import sys

    here = list(sample_indices(3068, 5, 1))
    random.seed(99)
    np.random.seed(99)
    np.random.random(1000)
    assert list(sample_indices(3068, 5, 1)) == here
    elsewhere = subprocess.run(
        [sys.executable, "-c", "from winnable.shuffle import sample_indices; "
         "print(*sample_indices(3068, 5, 1))"], capture_output=True, text=True, check=True,
        env={**os.environ, "PYTHONHASHSEED": "12345"}).stdout.split()
    assert [int(x) for x in elsewhere] == here
    assert list(sample_indices(67, 67, 9)) == list(range(67))
    assert list(sample_indices(3068, 10, 1)) == [264, 554, 732, 1227, 1299, 1671, 1818, 2180,
                                                 2399, 2606]
    assert list(sample_indices(3068, 10, 2)) != list(sample_indices(3068, 10, 1))
    counts = np.zeros(10)
    for seed in range(5000):
        counts[sample_indices(10, 3, seed)] += 1
    assert np.allclose(counts / 5000, 0.3, atol=0.03)  # uniform


def test_paired_difference_is_the_mean_per_deal_difference_with_its_interval():
    # 1,000 deals: b alone wins 60, a alone 20, the rest are ties.
    d, low, high = paired_difference(20, 60, 1000)
    per_deal = np.array([1] * 60 + [-1] * 20 + [0] * 920)
    assert d == pytest.approx(per_deal.mean())
    se = per_deal.std() / math.sqrt(1000)
    assert (low, high) == pytest.approx((d - 1.959963984540054 * se, d + 1.959963984540054 * se))
    assert low > 0
    # Symmetric in a and b up to the sign; no discordant deal: a zero-width interval at 0.
    assert paired_difference(60, 20, 1000) == pytest.approx((-d, -high, -low))
    assert paired_difference(0, 0, 50) == (0.0, 0.0, 0.0)
    with pytest.raises(ValueError):
        paired_difference(0, 0, 0)


def textbook_wilson(successes: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson's score interval as the textbooks write it (0 and 1 at the ends, where rounding
    would leave a hair)."""
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (0.0 if successes == 0 else centre - half, 1.0 if successes == n else centre + half)


def test_rate_bounds_of_arrays_are_the_textbook_figures_of_each_count():
    """``rate_bounds`` on arrays of counts (the running totals the plots draw): for each
    element, wins / N and (wins + unknowns) / N, Wilson's lower bound of the first and upper
    bound of the second, as written out here."""
    cases = [(w, l, u) for w in (0, 1, 7, 50) for l in (0, 2, 50) for u in (0, 3)
             if w + l + u > 0]
    least, most, low, high = rate_bounds(*np.array(cases).T)
    for k, (w, l, u) in enumerate(cases):
        n = w + l + u
        assert (least[k], most[k]) == pytest.approx((w / n, (w + u) / n), abs=1e-15), (w, l, u)
        assert low[k] == pytest.approx(textbook_wilson(w, n)[0], abs=1e-12), (w, l, u)
        assert high[k] == pytest.approx(textbook_wilson(w + u, n)[1], abs=1e-12), (w, l, u)


def test_a_summary_comes_back_whole_from_its_row():
    """Summary.from_row is as_row's inverse for what a row holds: counts, rate (with a sample),
    mean score, the extra columns' means, seeds and numbering."""
    from winnable.stats import Summary

    rows = pd.DataFrame({"game": "impossible", "solver": "thoughtful", "variant": "default",
                         "seed": [3, 4, 5, 6, 7], "outcome": ["win", "unknown", "loss", "win", "win"],
                         "score": [0, 7, 9, 0, 0], "pickups": [5, 3, 2, 6, 4],
                         "stratum": ["decided", "unknown", "decided", "decided", "sampled"]})
    (s,) = summarize(rows, ("pickups",))
    assert s.rate.sample is not None and s.means
    back = Summary.from_row(s.as_row())
    for name in ("game", "solver", "variant", "deals", "wins", "losses", "unknowns",
                 "mean_score", "score_low", "score_high", "first_seed", "last_seed",
                 "numbering", "means"):
        assert getattr(back, name) == getattr(s, name), name
    assert repr(back.rate) == repr(s.rate)  # NaN where there is no figure, on both sides
    assert back.as_row().keys() == s.as_row().keys()

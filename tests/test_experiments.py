"""The experiment scripts' own arithmetic (experiments/), on made-up rows."""

import re
from pathlib import Path

import pandas as pd
import pytest

from tests.test_readme import source_figures


def test_solvitaire_comparison_counts_each_deal_once_and_totals_deals_both_decide(monkeypatch):
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parent.parent / "experiments"))
    from chinese_solvitaire import row

    t = pd.DataFrame({
        "seed": [1, 2, 3, 4, 5],
        "ours": ["win", "loss", "unknown", "loss", "win"],
        "peer": ["win", "loss", "loss", "unknown", "loss"],
        "our_s": [1.0, 2.0, 50.0, 60.0, 3.0], "peer_s": [2.0, 2.0, 1.0, 70.0, 1.0],
        "our_nodes": [10, 20, 500, 600, 30], "peer_states": [100, 100, 5, 700, 10]})
    r = row("strict", t)
    assert (r["deals"], r["decided_by_both"], r["disagreements"], r["wins_ours"]) == (5, 3, 1, 2)
    assert (r["undecided_ours"], r["undecided_solvitaire"]) == (1, 1)
    assert (r["undecided_ours_deals"], r["undecided_solvitaire_deals"]) == ("3", "4")
    # Time and states only over deals 1, 2 and 5, which both decide.
    assert (r["seconds_ours"], r["seconds_solvitaire"], r["time_ratio"]) == (6.0, 5.0, 1.2)
    assert (r["states_ours"], r["states_solvitaire"], r["states_ratio"]) == (60, 210, 0.286)


def test_solvitaire_comparison_resolve_adds_both_searches_and_keeps_peer_answers(
        monkeypatch, tmp_path, unknowns_run):
    """--resolve: our unknown deals take the escalation's verdict, with the seconds and nodes
    of both searches; decided deals and Solvitaire's columns stay as they were."""
    import argparse

    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parent.parent / "experiments"))
    from chinese_solvitaire import parse_options, resolved

    run = unknowns_run(12, tmp_path / "run.parquet")
    first = pd.read_parquet(run)
    t = pd.DataFrame({"seed": first.seed, "ours": first.outcome, "peer": "win",
                      "our_s": first.seconds, "peer_s": 1.0, "our_nodes": first.nodes,
                      "peer_states": 7})
    args = argparse.Namespace(resolve="budget=3000", workers=1)
    after = resolved(args, t, run)
    again = pd.read_parquet(run.with_name("run_resolve.parquet")).set_index("seed")
    unknown = (first.outcome == "unknown").to_numpy()
    assert unknown.any() and (after.ours[unknown] != "unknown").any()
    for i in range(len(t)):
        seed = t.seed[i]
        if unknown[i]:
            assert after.ours[i] == again.outcome[seed]
            assert after.our_nodes[i] == first.nodes[i] + again.nodes[seed]
            assert abs(after.our_s[i] - (first.seconds[i] + again.seconds[seed])) < 1e-9
        else:
            assert (after.ours[i], after.our_nodes[i]) == (t.ours[i], t.our_nodes[i])
    assert (after.peer == "win").all() and (after.peer_states == 7).all()
    assert pd.read_parquet(run).outcome.tolist() == first.outcome.tolist()  # a copy resolved
    assert parse_options("budget=5,memory_mb=64") == {"budget": "5", "memory_mb": "64"}
    with pytest.raises(SystemExit, match="KEY=VALUE"):
        parse_options("budget")


def test_reductions_experiment_keeps_verdicts_on_positions_searched_completely(monkeypatch):
    """experiments/chinese_reductions.py: persistent sets keep every verdict of the search they
    reduce, and the twin abstraction, a relaxation, never calls lost what the game wins; on
    won positions (halfway along engine-found winning lines) and on lost ones (random walks)."""
    import numpy as np

    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parent.parent / "experiments"))
    import chinese_reductions as X
    from winnable.rules import chinese as R
    from winnable.solvers.chinese.thoughtful import Thoughtful

    positions = [X.walk(196, 10), X.walk(196, 20), X.walk(799, 30)]
    solver = Thoughtful(False, False)
    for seed in (1, 2, 3):
        deal = np.asarray(X.GAME.deal(seed), dtype=np.int8)
        outcome, _, _, line = solver.solve(deal)
        assert outcome == 1
        cards, length, down, found, misc = R.new_state(deal)
        for move in line[:len(line) // 2]:
            R.apply_move(cards, length, down, found, misc, deal, move)
        piles = tuple(tuple(int(c) for c in cards[p, :length[p]]) for p in range(R.PILES))
        positions.append(X.State(piles, tuple(int(d) for d in down),
                                 tuple(int(f) for f in found), bool(misc[R.STOCK_DEALT]),
                                 tuple(int(c) for c in deal)))
    verdicts = []
    for s in positions:
        plain = X.search(s, 50_000)[0]
        assert plain != "over"
        assert X.search(s, 50_000, dead=True)[0] == plain
        assert X.search(s, 50_000, dead=True, reduce=True)[0] == plain
        assert X.search(s, 50_000, reduce=True)[0] == plain
        if plain == "win":
            assert X.search(s, 50_000, abstract=True)[0] == "win"
        verdicts.append(plain)
    assert "win" in verdicts and "loss" in verdicts


def test_headline_shows_a_runs_stratified_estimate_in_place_of_its_bounds(monkeypatch):
    """experiments/headline.py: a run's row from stratified.csv (a sample of its unknowns)
    replaces the same run's row without one, where that row stood; other runs stay."""
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parent.parent / "experiments"))
    from headline import headline_rows

    base = {"game": "chinese", "solver": "thoughtful", "deals": 1000, "numbering": "winnable"}
    plain = pd.DataFrame([{**base, "variant": "default", "wins": 900, "losses": 50,
                           "unknowns": 50},
                          {**base, "variant": "easy=1", "wins": 990, "losses": 5,
                           "unknowns": 5}])
    sampled = pd.DataFrame([{**base, "variant": "default", "wins": 905, "losses": 60,
                             "unknowns": 35, "sample_size": 20}])
    rows = headline_rows([plain, sampled])
    assert list(rows.variant) == ["default", "easy=1"]
    assert list(rows.sample_size.fillna(0)) == [20, 0] and list(rows.wins) == [905, 990]


def test_the_stratified_experiment_escalates_a_sample_in_a_copy_and_writes_its_table(tmp_path):
    """experiments/stratified.py on a small strict run: the run keeps its answers, the copy's
    sample is escalated step by step, the table holds the estimate, and a rerun resumes (the
    steps recorded are not solved again)."""
    import subprocess
    import sys

    from winnable import solve_batch
    root = Path(__file__).resolve().parent.parent
    run = tmp_path / "strict.parquet"
    # Without h^3 (triples=0), which proves these small-budget unknowns lost at once: the
    # experiment needs a stratum of unknowns to sample.
    solve_batch("chinese", n=30, start=180, options={"budget": 1000, "strategy": 0, "triples": 0},
                workers=1, out=run, progress=False)
    before = pd.read_parquet(run)
    command = [sys.executable, str(root / "experiments/stratified.py"), "--source", str(run),
               "--sample", "3", "--seed", "2", "--steps", "budget=20000;budget=100000",
               "--workers", "1", "--runs-dir", str(tmp_path / "runs"), "--results-dir",
               str(tmp_path / "results")]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert pd.read_parquet(run).equals(before)
    copy = tmp_path / "runs/strict_sample-3_seed-2.parquet"
    from winnable.runs.resolve import escalations
    assert [h["options"] for h in escalations(copy)][:1] == [{"budget": 20000}]
    table = pd.read_csv(tmp_path / "results/chinese/stratified.csv")
    assert list(table.sample_size) == [3] and list(table.sample_stratum) == [4]
    md = (tmp_path / "results/chinese/stratified.md").read_text()
    assert "(estimate)" in md and "winnable resolve strict_sample-3_seed-2.parquet --sample 3" in md
    again = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0 and "step" not in again.stdout.split("#")[0], again.stdout


ROOT = Path(__file__).resolve().parent.parent
# Figures a results page may quote that are no table's: the 95% of every interval, and the
# source's own Chinese figures as docs/chinese.md records them (tests/test_readme.py).
NOT_FROM_TABLES = {"95%"} | source_figures()
NUMBER = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?%?")


def page_numbers(text: str) -> tuple[set[str], list[tuple[str, str]]]:
    """The numbers of a results page's tables (its table rows and the titles of the table files
    they come from), and (number, line) for every number of its prose, code spans left out."""
    tables, prose = set(), []
    for line in text.splitlines():
        if line.startswith("|") or line.startswith("From `"):
            tables |= set(NUMBER.findall(line))
        elif not line.startswith(("#", "![")):
            prose += [(n, line) for n in NUMBER.findall(re.sub(r"`[^`]*`", "", line))]
    return tables, prose


def test_every_number_of_the_results_page_is_one_of_its_tables():
    """results/README.md (experiments/headline.py): each number its findings quote is a number
    its tables show, so a finding cannot drift from the tables."""
    tables, prose = page_numbers((ROOT / "results/README.md").read_text())
    assert prose, "no findings"
    strays = [(n, line) for n, line in prose if n not in tables and n not in NOT_FROM_TABLES]
    assert not strays, strays


def test_the_results_page_is_what_headline_writes_and_links_the_notes(tmp_path):
    """The committed page is experiments/headline.py's output for the committed tables (which
    its refresh leaves as they are), and it links to NOTES.md instead of repeating it."""
    import shutil
    import subprocess
    import sys

    copy = tmp_path / "results"
    shutil.copytree(ROOT / "results", copy)
    done = subprocess.run([sys.executable, str(ROOT / "experiments/headline.py"),
                           "--results-dir", str(copy)], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    for path in sorted((ROOT / "results").rglob("*")):
        if path.suffix in (".md", ".csv"):
            assert (copy / path.relative_to(ROOT / "results")).read_text() == path.read_text(), \
                f"{path.relative_to(ROOT)}: rerun python experiments/headline.py and commit it"
    page = (ROOT / "results/README.md").read_text()
    assert "](NOTES.md)" in page
    notes = (ROOT / "results/NOTES.md").read_text()
    paragraphs = [p.strip() for p in notes.split("\n\n") if len(p.strip()) > 80]
    assert paragraphs and not [p for p in paragraphs if p[:80] in page]


def test_a_finding_that_no_longer_holds_stops_the_page(tmp_path):
    """experiments/headline.py checks what its findings claim: tables in which `first` beats
    `thoughtful` stop it with the finding named, rather than print a false sentence."""
    import shutil
    import subprocess
    import sys

    results = tmp_path / "results"
    (results / "addario").mkdir(parents=True)
    table = pd.read_csv(ROOT / "results/addario/summary.csv")
    first = table.solver == "first"
    table.loc[first, "wins"], table.loc[first, "losses"] = 900_000, 100_000
    table.to_csv(results / "addario/summary.csv", index=False)
    shutil.copy(ROOT / "results/addario/summary.md", results / "addario/summary.md")
    done = subprocess.run([sys.executable, str(ROOT / "experiments/headline.py"),
                           "--results-dir", str(results)], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)
    assert done.returncode != 0 and "first < nopeek < thoughtful" in done.stderr


def test_nopeek_pairs_and_ratio_to_thoughtful(monkeypatch):
    """experiments/chinese_nopeek.py: the paired difference counts the deals won by one player
    only, on the deals both played; the ratio to thoughtful spans its bounds."""
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parent.parent / "experiments"))
    from chinese_nopeek import player_pairs, ratio_to_thoughtful

    outcomes = {"sampling": ["win", "win", "loss", "win", "loss"],
                "strategy": ["win", "loss", "loss", "loss", "win"]}
    df = pd.DataFrame([{"variant": "default", "solver": s, "seed": i + 1, "outcome": o}
                       for s, column in outcomes.items() for i, o in enumerate(column)]
                      + [{"variant": "default", "solver": "strategy", "seed": 9,
                          "outcome": "win"}])  # a deal sampling did not play: left out
    pairs = player_pairs(df).iloc[0]
    assert (pairs.player, pairs.against, pairs.deals) == ("sampling", "strategy", 5)
    assert (pairs.won_by_player_only, pairs.won_by_other_only) == (2, 1)
    assert pairs.difference == pytest.approx(0.2) and pairs.low < 0.2 < pairs.high
    table = pd.DataFrame({"variant": ["default"] * 3 + ["easy=1"] * 2,
                          "solver": ["thoughtful", "sampling", "strategy", "thoughtful",
                                     "sampling"],
                          "win_min": [0.8, 0.6, 0.4, 1.0, 0.9],
                          "win_max": [1.0, 0.6, 0.4, 1.0, 0.9]})
    assert ratio_to_thoughtful(table).fillna("").tolist() == ["", "0.600-0.750", "0.400-0.500",
                                                              "", "0.900"]


def test_verdict_changes_sorts_the_deals_two_versions_disagree_on(monkeypatch):
    """experiments/common.py's verdict_changes, the one classification chinese_versions.py and
    chinese_side_by_side.py report: a win against a loss is a flip, a decided deal turned
    unknown a lost decision, an unknown turned decided a gain; deals of one verdict are none."""
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parent.parent / "experiments"))
    from common import verdict_changes

    both = pd.DataFrame({"outcome_old": ["win", "loss", "win", "unknown", "unknown", "loss"],
                         "outcome_new": ["loss", "unknown", "win", "win", "unknown", "loss"]},
                        index=[11, 12, 13, 14, 15, 16])
    flips, lost, gained = verdict_changes(both)
    assert list(flips.index) == [11] and list(lost.index) == [12] and list(gained.index) == [14]


def test_the_impossible_versions_check_finds_flips_and_confirms_losses(monkeypatch):
    """experiments/impossible_versions.py: a deal won by one version and lost by the other is
    listed, as is a deal the old one decided and the new one leaves unknown; a proven loss is
    confirmed by the search without the new ideas, and a won deal would show as won there."""
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parent.parent / "experiments"))
    from impossible_versions import compare, confirm_losses
    from tests.test_impossible_thoughtful import LOST_DEAL

    old = pd.DataFrame({"seed": [1, 2, 3, 4], "outcome": ["win", "unknown", "win", "unknown"]})
    new = pd.DataFrame({"seed": [1, 2, 3, 4], "outcome": ["win", "loss", "loss", "unknown"]})
    cross, flips, dropped = compare(old, new)
    assert flips == [3] and dropped == [] and int(cross.loc["unknown", "loss"]) == 1
    _, flips, dropped = compare(new, old)
    assert flips == [3] and dropped == [2]
    verdicts = confirm_losses([LOST_DEAL, 1], {}, 20_000)
    assert verdicts[LOST_DEAL] == "loss" and verdicts[1] == "win"


def test_hard_phases_bands_cover_every_phase_once(monkeypatch):
    """experiments/chinese_hard_phases.py: the bands of face-down cards after the stock, with
    the phase before it, count every successor once."""
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parent.parent / "experiments"))
    import numpy as np
    from chinese_hard_phases import band_table

    played = np.arange(2 * 19, dtype=np.int64).reshape(2, 19)
    bands = band_table(played)
    assert bands.successors.sum() == played.sum()
    assert bands.successors.iloc[0] == played[0].sum()
    assert bands.successors.iloc[1] == played[1, 0] and "end game" in bands.phase.iloc[1]


def test_the_plain_loss_check_takes_lost_deals_from_a_run_too(tmp_path, monkeypatch):
    """experiments/chinese_plain_losses.py --run: the deals lost in a strict thoughtful run
    join the catalogue's (so a checkpoint's deals stay); any other run is refused in one line."""
    from winnable import solve_batch
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parent.parent / "experiments"))
    from chinese_plain_losses import lost_deals

    options = {"budget": 1000, "strategy": 0, "triples": 0}
    strict, easy = tmp_path / "strict.parquet", tmp_path / "easy.parquet"
    rows = solve_batch("chinese", n=15, start=10_035, options=options, workers=1, out=strict,
                       progress=False)
    solve_batch("chinese", n=2, start=10_035, variant={"easy": True}, options=options,
                workers=1, out=easy, progress=False)
    run_lost = sorted(int(s) for s in rows.seed[rows.outcome == "loss"])
    assert run_lost, "no lost deal among 10,035-10,049: choose other deals"
    catalogue = lost_deals(9_801, 10_049)
    assert catalogue and max(catalogue) <= 10_000
    assert lost_deals(9_801, 10_049, str(strict)) == sorted(catalogue + run_lost)
    with pytest.raises(SystemExit, match="expected one Chinese thoughtful run of the strict"):
        lost_deals(1, 10, str(easy))

"""`winnable resolve`: only unknown rows are solved again, each row records what produced it,
the file keeps its identity, an interrupted escalation resumes, and bad requests get one-line
errors."""

import json
import shutil

import pandas as pd
import pyarrow.parquet as pq
import pytest

from tests.reference import chinese_ref as ref
from winnable.runs import resolve as RS
from winnable.runs.batch import solve_batch
from winnable.runs.chunk import solve_and_store
from winnable.runs.spec import BatchError, parts_dir
from winnable.runs.store import read_spec
from winnable.cli import main

@pytest.fixture
def run(tmp_path, unknowns_run):
    return unknowns_run(24, tmp_path / "run.parquet")


def test_escalation_solves_only_unknown_rows_and_records_them(run):
    before = pd.read_parquet(run).set_index("seed")
    spec = read_spec(run)
    unknown = before.index[before.outcome == "unknown"]
    assert len(unknown) >= 5
    # A budget that settles most of them and leaves some (the critical-path test, from thoughtful
    # version 7, settles all of them within 200,000 nodes).
    report = RS.resolve_file(run, {"budget": 3_000}, workers=1, progress=False)
    after = pd.read_parquet(run).set_index("seed")
    assert read_spec(run) == spec and len(after) == len(before)
    decided = before.index[before.outcome != "unknown"]
    for column in ("outcome", "score", "moves", "nodes"):
        assert (after.loc[decided, column] == before.loc[decided, column]).all()
    assert (after.loc[decided, "step"] == 0).all() and (after.loc[decided, "step_options"] == "").all()
    again = after.loc[unknown]
    assert (again.step == 1).all() and (again.step_options == "budget=3000").all()
    assert report.tried == len(unknown) and report.settled == int((again.outcome != "unknown").sum())
    assert report.settled >= 3
    for seed, row in again[again.outcome == "win"].iterrows():
        assert ref.replay(row.deal.split(), row.moves.split()) == 52
    history = RS.escalations(run)
    assert history == [{"step": 1, "options": {"budget": 3000}, "tried": report.tried,
                        "settled": report.settled, "wins": report.wins,
                        "losses": report.losses}]
    # The same options again find nothing to do; a larger budget tries what is left.
    assert RS.resolve_file(run, {"budget": 3_000}, workers=1, progress=False).tried == 0
    left = int((after.outcome == "unknown").sum())
    third = RS.resolve_file(run, {"budget": 20_000}, workers=1, progress=False)
    assert left > 0 and third.tried == left and third.step == 2


def test_an_interrupted_escalation_resumes_and_another_is_refused(run, tmp_path):
    copy = tmp_path / "copy.parquet"
    shutil.copy(run, copy)
    expected = RS.resolve_file(copy, {"budget": 100_000}, workers=1, progress=False)
    # Interrupt after one chunk: the chunk's part stays in <file>.resolve/.
    work = RS.resolve_dir(run)
    unknown = sorted(pd.read_parquet(run).query("outcome == 'unknown'").seed)
    spec = json.loads((read_spec(run)).to_json())
    spec["options"]["budget"] = 100_000
    from winnable.runs.spec import RunSpec
    wanted = RunSpec.from_json(json.dumps(spec))
    work.mkdir()
    (work / "run.json").write_text(json.dumps({"options": {"budget": 100_000},
                                               "spec": json.loads(wanted.to_json())}))
    solve_and_store(wanted.to_json(), unknown[:2], str(work))
    with pytest.raises(BatchError, match="unfinished escalation with budget=100000"):
        RS.resolve_file(run, {"budget": 50_000}, workers=1, progress=False)
    resumed = RS.resolve_file(run, {"budget": 100_000}, workers=2, chunk=1, progress=False)
    assert not work.exists()
    assert (resumed.tried, resumed.settled, resumed.wins) == (expected.tried, expected.settled,
                                                              expected.wins)
    a = pd.read_parquet(run).set_index("seed")
    b = pd.read_parquet(copy).set_index("seed")
    assert (a.outcome == b.outcome).all() and (a.step == b.step).all()


def test_bad_requests_are_refused(run, tmp_path):
    with pytest.raises(BatchError, match="give the options"):
        RS.resolve_file(run, {}, progress=False)
    with pytest.raises(BatchError, match="no option rollouts"):
        RS.resolve_file(run, {"rollouts": 3}, progress=False)
    with pytest.raises(BatchError, match="the run's own options"):
        RS.resolve_file(run, {"budget": 60}, progress=False)
    with pytest.raises(BatchError, match="no such file"):
        RS.resolve_file(tmp_path / "none.parquet", {"budget": 1000}, progress=False)
    stray = tmp_path / "stray.parquet"
    pd.DataFrame({"x": [1]}).to_parquet(stray)
    with pytest.raises(BatchError, match="not a winnable run file"):
        RS.resolve_file(stray, {"budget": 1000}, progress=False)


def test_cli_resolve_and_summary(run, capsys, monkeypatch):
    monkeypatch.setattr("sys.argv", ["winnable", "resolve", str(run), "--option",
                                     "budget=100000", "-q", "--workers", "1"])
    with pytest.raises(SystemExit) as done:
        main()
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "step 1 (budget=100000)" in out
    monkeypatch.setattr("sys.argv", ["winnable", "summary", str(run)])
    with pytest.raises(SystemExit):
        main()
    out = capsys.readouterr().out
    assert "escalation 1 (budget=100000):" in out and "still unknown" in out
    monkeypatch.setattr("sys.argv", ["winnable", "resolve", str(run), "-q"])
    with pytest.raises(SystemExit) as done:
        main()
    assert done.value.code == 2 and "error: give the options" in capsys.readouterr().err


def test_a_table_too_small_for_the_budget_gets_a_note(capsys, monkeypatch):
    from winnable import get_game
    from winnable.solvers.table import ENTRY_BYTES, entries_for, memory_mb_for
    game = get_game("chinese")
    assert game.option_notes("thoughtful", game.solver_options("thoughtful", None)) == []
    big = game.solver_options("thoughtful", {"budget": 50_000_000})
    (note,) = game.option_notes("thoughtful", big)
    assert "holds 2,097,152 positions" in note and "--option memory_mb=2560 " in note
    assert entries_for(2560, ENTRY_BYTES) >= 100_000_000 > entries_for(2559, ENTRY_BYTES)
    assert memory_mb_for(1) == 1 and memory_mb_for(2**27) == 2560
    enough = game.solver_options("thoughtful", {"budget": 50_000_000, "memory_mb": 2560})
    assert game.option_notes("thoughtful", enough) == []
    assert game.option_notes("sampling", game.solver_options("sampling", None)) == []
    monkeypatch.setattr("sys.argv", ["winnable", "solve", "--game", "chinese", "--seed", "1",
                                     "-o", "budget=100000", "-o", "memory_mb=1"])
    with pytest.raises(SystemExit) as done:
        main()
    assert done.value.code == 0
    err = capsys.readouterr().err
    assert "note: a table of 1 MB holds 32,768 positions" in err and "--option memory_mb=5 holds 262,144" in err


# --- a sample of the unknowns (winnable resolve --sample K) -----------------------------------

def test_a_sample_escalates_only_its_deals_and_records_the_strata(run):
    before = pd.read_parquet(run).set_index("seed")
    unknown = list(before.index[before.outcome == "unknown"])
    report = RS.resolve_file(run, {"budget": 200_000}, workers=1, progress=False, sample=3,
                             seed=5)
    after = pd.read_parquet(run).set_index("seed")
    sampled = list(after.index[after.stratum == "sampled"])
    assert len(sampled) == 3 and set(sampled) <= set(unknown)
    assert set(after.index[after.stratum == "unknown"]) == set(unknown) - set(sampled)
    assert (after.stratum[before.outcome != "unknown"] == "decided").all()
    assert (after.loc[sampled, "step"] == 1).all() and report.tried == 3
    others = [s for s in unknown if s not in sampled]
    assert (after.loc[others, "step"] == 0).all() and (after.loc[others, "outcome"] == "unknown").all()
    record = RS.sample_record(run)
    assert record == {"seed": 5, "size": 3, "drawn": 3, "stratum": len(unknown), "deals": 24}
    assert RS.escalations(run)[0]["sample"] == {"size": 3, "seed": 5}
    assert "a sample of 3 of the" in report.text()
    # The same sample again: nothing to do with the same options; a larger budget tries the
    # sample's deals still unknown, and no other.
    assert RS.resolve_file(run, {"budget": 200_000}, workers=1, progress=False, sample=3,
                           seed=5).tried == 0
    left = [s for s in sampled if after.loc[s, "outcome"] == "unknown"]
    again = RS.resolve_file(run, {"budget": 400_000}, workers=1, progress=False, sample=3,
                            seed=5)
    assert again.tried == len(left)
    final = pd.read_parquet(run).set_index("seed")
    assert (final.stratum == after.stratum).all()
    assert (final.loc[others, "step"] == 0).all()
    # The summary estimates the rate from the sample.
    from winnable.runs.read import read_runs
    from winnable.stats import summarize
    (s,) = summarize(read_runs([run]))
    assert s.rate.kind == "estimate" and s.rate.sample.size == 3
    assert s.rate.sample.stratum == len(unknown)


def test_a_sample_is_a_function_of_the_run_and_the_seed(run, tmp_path):
    copies = [tmp_path / f"{name}.parquet" for name in "abc"]
    for copy in copies:
        shutil.copy(run, copy)
    for copy, seed in zip(copies, (9, 9, 10)):
        RS.resolve_file(copy, {"budget": 100}, workers=1, progress=False, sample=4, seed=seed)
    drawn = [set(pd.read_parquet(c).query("stratum == 'sampled'").seed) for c in copies]
    assert drawn[0] == drawn[1] and drawn[0] != drawn[2]


def test_a_sample_larger_than_the_unknowns_takes_them_all(run, capsys):
    unknown = int((pd.read_parquet(run).outcome == "unknown").sum())
    report = RS.resolve_file(run, {"budget": 100}, workers=1, progress=False, sample=1000)
    err = capsys.readouterr().err
    assert f"--sample 1,000 is more than the {unknown} unknown deals" in err
    assert f"all {unknown} are taken" in err and len(err.strip().splitlines()) == 1
    assert report.tried == unknown and RS.sample_record(run)["drawn"] == unknown


def test_an_interrupted_sample_resumes(run, tmp_path):
    copy = tmp_path / "copy.parquet"
    shutil.copy(run, copy)
    expected = RS.resolve_file(copy, {"budget": 100_000}, workers=1, progress=False, sample=4,
                               seed=3)
    # Interrupted after one chunk of the same command: its part stays in <file>.resolve/.
    work = RS.resolve_dir(run)
    table = pq.read_table(run)
    drawn = RS._draw(run, table, 4, 3)
    spec = json.loads(read_spec(run).to_json())
    spec["options"]["budget"] = 100_000
    from winnable.runs.spec import RunSpec
    wanted = RunSpec.from_json(json.dumps(spec))
    work.mkdir()
    (work / "run.json").write_text(json.dumps({
        "options": {"budget": 100_000}, "spec": json.loads(wanted.to_json()),
        "sample": {**drawn.record, "seeds": drawn.seeds}}))
    solve_and_store(wanted.to_json(), drawn.seeds[:1], str(work))
    with pytest.raises(BatchError, match="unfinished escalation with budget=100000 on a sample"):
        RS.resolve_file(run, {"budget": 100_000}, workers=1, progress=False, sample=4, seed=4)
    resumed = RS.resolve_file(run, {"budget": 100_000}, workers=2, chunk=1, progress=False,
                              sample=4, seed=3)
    assert not work.exists()
    assert (resumed.tried, resumed.settled, resumed.wins) == (expected.tried, expected.settled,
                                                              expected.wins)
    a, b = (pd.read_parquet(f).set_index("seed") for f in (run, copy))
    assert (a.outcome == b.outcome).all() and (a.stratum == b.stratum).all()


def test_bad_samples_get_one_line(run, tmp_path, capsys, monkeypatch):
    def cli(*args):
        monkeypatch.setattr("sys.argv", ["winnable", "resolve", *map(str, args), "-q"])
        with pytest.raises(SystemExit) as done:
            main()
        return done.value.code, capsys.readouterr()

    code, out = cli(run, "--sample", 0, "--option", "budget=1000")
    assert code == 2 and out.err == ("error: --sample must be at least 1 (the number of unknown "
                                     "deals to draw and escalate), got 0\n")
    code, out = cli(run, "--sample", 2, "--seed", -1, "--option", "budget=1000")
    assert code == 2 and len(out.err.splitlines()) == 1 and "--seed must be" in out.err
    decided = tmp_path / "decided.parquet"
    solve_batch("chinese", n=3, options={"budget": 100_000}, workers=1, out=decided,
                progress=False)
    code, out = cli(decided, "--sample", 2, "--option", "budget=1000000")
    assert code == 2 and out.err == (f"error: {decided} has no unknown deals: its win rate is "
                                     "exact, there is nothing to sample\n")
    for game, solver in (("chinese", "strategy"), ("nineball", "thoughtful")):
        other = tmp_path / f"{game}_{solver}.parquet"
        solve_batch(game, n=3, solver=solver, workers=1, out=other, progress=False)
        code, out = cli(other, "--sample", 2, "--option", "budget=1000")
        assert code == 2 and len(out.err.splitlines()) == 1, out.err
        assert f"solver {solver}, which has no budget past which it leaves" in out.err
    assert "Traceback" not in out.err
    code, out = cli(run, "--sample", 2, "--option", "budget=100")
    assert code == 0 and "stratified estimate" in out.out and "sample: 2 of the" in out.out


def test_a_sample_of_impossible_thoughtful(tmp_path):
    """Every solver that can leave deals unknown can be sampled: Impossible's thoughtful."""
    out = tmp_path / "imp.parquet"
    solve_batch("impossible", n=40, solver="thoughtful", options={"budget": 200}, workers=1,
                out=out, progress=False)
    unknown = int((pd.read_parquet(out).outcome == "unknown").sum())
    assert unknown >= 5
    report = RS.resolve_file(out, {"budget": 20_000}, workers=1, progress=False, sample=4)
    assert report.tried == 4 and report.settled >= 1
    from winnable.runs.read import read_runs
    from winnable.stats import summarize
    (s,) = summarize(read_runs([out]))
    assert s.rate.kind == "estimate" and s.rate.sample.stratum == unknown

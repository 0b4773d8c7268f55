"""`winnable play`, `replay`, `verify` and the cards named by `solve`, as a user meets them:
commands piped in and typed in tmux, lines pasted and read from files, bad input refused in
one line."""

import json
import shutil
import subprocess
import sys
import time
import uuid

import pytest

from winnable import get_game


def test_solve_names_the_cards_of_each_move(run_cli):
    code, out, _ = run_cli("solve", "--game", "chinese", "--seed", "1", "--option",
                           "budget=2000", "--json")
    data = json.loads(out)
    assert code == 0 and len(data["described"]) == len(data["moves"]) > 0
    assert all(d.startswith(m + "  ") for m, d in zip(data["moves"], data["described"]))
    assert data["described"][0] == "t4-t6x4  4D KD 3S KC onto 5C, turns up 4S"
    code, out, _ = run_cli("solve", "--game", "nineball", "--seed", "1")
    assert "    1. 2H+7H  rack 2H 7H" in out


def test_replay_numbers_the_moves_with_their_cards(run_cli):
    code, out, _ = run_cli("replay", "--game", "chinese", "--seed", "1", "--option",
                           "budget=2000")
    assert code == 0
    assert "1. t4-t6x4  4D KD 3S KC onto 5C, turns up 4S" in out.splitlines()
    assert out.rstrip().endswith("outcome: win   score: 52")
    code, out, _ = run_cli("replay", "--game", "nineball", "--seed", "1", "--moves",
                           "2H+7H 9D", "--boards")
    lines = out.splitlines()
    assert code == 0 and "2. 9D  kitchen 9D (pile 1), turns up 4H" in lines
    assert out.count("rack (each row") == 3 and "[??]" in out  # before and after each move
    assert "the game goes on" in lines[-1]


def test_verify_accepts_every_kind_of_line(run_cli, tmp_path):
    code, out, _ = run_cli("solve", "--game", "addario", "--seed", "3", "--json")
    data = json.loads(out)
    expected = f"outcome {data['outcome']}, score {data['score']}"
    as_json = tmp_path / "solve.json"
    as_json.write_text(out)
    _, replayed, _ = run_cli("replay", "--game", "addario", "--seed", "3")
    numbered = tmp_path / "replay.txt"
    numbered.write_text(replayed)
    for given in (["--moves", " ".join(data["moves"])], ["--moves-file", as_json],
                  ["--moves-file", numbered]):
        code, out, err = run_cli("verify", "--game", "addario", "--seed", "3", *given)
        assert code == 0 and expected in out, (given, out, err)
    deal = data["deal"]
    code, out, _ = run_cli("verify", "--game", "addario", "--deal", deal, "--moves",
                           " ".join(data["moves"]))
    assert code == 0 and expected in out


def test_verify_names_the_first_illegal_move(run_cli):
    line = "t4-t6x4 t3-t2x7 t2-t6x6 t2-f t9-f t2-f"
    code, out, err = run_cli("verify", "--game", "chinese", "--seed", "1", "--moves", line)
    assert code == 1 and out.strip() == "move 5 (t9-f) is illegal: there is no pile t9: the " \
                                        "piles are t1 to t7"
    # A line of another deal, and of another game: refused at their first move, in one line.
    code, out, _ = run_cli("verify", "--game", "chinese", "--seed", "2", "--moves", line)
    assert code == 1 and out.startswith("move 1 (t4-t6x4) is illegal") and out.count("\n") == 1
    code, out, _ = run_cli("verify", "--game", "nineball", "--seed", "1", "--moves", line)
    assert code == 1 and "is not a Nineball group" in out and out.count("\n") == 1


@pytest.mark.parametrize("args, message", [
    (["verify", "--game", "chinese", "--seed", "1"], "give the line to check"),
    (["verify", "--game", "chinese", "--seed", "1", "--moves", "stock", "--moves-file", "x"],
     "not both"),
    (["verify", "--game", "chinese", "--seed", "1", "--moves-file", "/nonexistent/line"],
     "cannot read --moves-file"),
    (["verify", "--game", "chinese", "--moves", "stock"], "exactly one of --seed"),
    (["verify", "--game", "chess", "--seed", "1", "--moves", "e4"], "unknown game"),
    (["replay", "--game", "chinese", "--seed", "1", "--moves", "t4-t6x4 t7-f"],
     "move 2 (t7-f) is illegal: 6D cannot go to its foundation"),
    (["replay", "--game", "nineball", "--seed", "1", "--solver", "best"], "unknown solver"),
    (["verify", "--game", "impossible", "--seed", "1", "--moves", "{bad json"], "looks like JSON but is not"),
    (["play", "--game", "nineball", "--seed", "0"], "--seed must be at least 1"),
])
def test_bad_input_gets_one_line(run_cli, args, message):
    code, out, err = run_cli(*args)
    assert code == 2 and message in err and err.count("\n") == 1 and "Traceback" not in err


def _play(args, commands, timeout=300):
    return subprocess.run([sys.executable, "-m", "winnable", "play", *args], input=commands,
                          capture_output=True, text=True, timeout=timeout)


def test_play_through_a_pipe(tmp_path):
    saved = tmp_path / "line.txt"
    commands = (f"moves\nhint\nbest\ncheck --warn\n2H+7H\n9C\nundo\n2H+7H\n9D\nsave {saved}\n"
                "solve\nquit\n")
    p = _play(["--game", "nineball", "--seed", "1"], commands)
    out = p.stdout
    assert p.returncode == 0, p.stderr
    assert "\x1b[" not in out  # plain text when the output is not a terminal
    assert "  2H+7H  rack 2H 7H" in out
    assert "hint (nopeek-win, the exact optimal player that sees only what you see" in out
    assert "best (thoughtful, uses the hidden cards): " in out
    assert "check (thoughtful, uses the hidden cards): win" in out
    assert "illegal: 9C is not in the nineball deck" in out
    assert "undone: 2H+7H" in out and "2. 9D  kitchen 9D (pile 1), turns up 4H" in out
    assert "[??]" in out and "4H [??]" in out
    assert f"saved 2 moves to {saved}" in out
    assert "a winning line from here" in out
    assert out.rstrip().endswith("score so far 2 (the game is not over)")
    v = subprocess.run([sys.executable, "-m", "winnable", "verify", "--game", "nineball",
                        "--seed", "1", "--moves-file", str(saved)], capture_output=True,
                       text=True, timeout=300)
    assert v.returncode == 0 and "all 2 moves legal" in v.stdout


def test_play_to_the_end_prints_outcome_and_score():
    game = get_game("nineball")
    line = game.solve(1).moves
    p = _play(["--game", "nineball", "--seed", "1", "--peek", "--warn"], "\n".join(line) + "\n")
    assert p.returncode == 0, p.stderr
    assert "game over: outcome win, score 25" in p.stdout
    assert p.stdout.rstrip().endswith("outcome: win   score: 25")
    assert "[??]" not in p.stdout and "warning" not in p.stdout


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_play_in_tmux_as_a_person_would(tmp_path):
    """Typed at the prompt in a terminal: the prompt, the answers, the end."""
    session = f"winnable-{uuid.uuid4().hex[:8]}"
    command = f"{sys.executable} -m winnable play --game chinese --seed 1"
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "120", "-y", "50",
                    command], check=True)
    # The pane stays after the program ends, so its last lines can still be read.
    subprocess.run(["tmux", "set-option", "-t", session, "remain-on-exit", "on"], check=True)
    try:
        def screen():
            return subprocess.run(["tmux", "capture-pane", "-p", "-t", session],
                                  capture_output=True, text=True).stdout

        def wait_for(text, seconds=120):
            deadline = time.time() + seconds
            while time.time() < deadline:
                if text in screen():
                    return screen()
                time.sleep(0.2)
            raise AssertionError(f"{text!r} never appeared:\n{screen()}")

        wait_for("chinese>")
        for keys in ("t4-t6x4", "Enter"):
            subprocess.run(["tmux", "send-keys", "-t", session, keys], check=True)
        shown = wait_for("1. t4-t6x4  4D KD 3S KC onto 5C, turns up 4S")
        assert "[??]" in shown
        subprocess.run(["tmux", "send-keys", "-t", session, "t7-f", "Enter"], check=True)
        wait_for("illegal: 6D cannot go to its foundation")
        subprocess.run(["tmux", "send-keys", "-t", session, "quit", "Enter"], check=True)
        wait_for("stopped after 1 moves")
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)

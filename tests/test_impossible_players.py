"""Impossible's rollout players (common random numbers, sequential halving) and the thoughtful
solver: its won lines replay with the game's own stream through the engine and the reference,
no other player wins a deal it calls lost, and the memo changes nothing but the work."""

import numpy as np
import pytest

from tests.test_games_contract import ImpossibleReplay
from winnable import get_game, shuffle
from winnable.rules import impossible as R
from winnable.solvers import impossible as S
from winnable.solvers import impossible_thoughtful as T

GAME = get_game("impossible")
SALT = np.uint64(GAME.salt)
CODES = R.rule_params(GAME.rules())
LOOSE = {"fifteen": "unlimited", "new_pile_penalty": "beyond_nine"}  # players win more often
BUDGET = 3000


def _decision(seed):
    """A game of deal ``seed`` at its first DECIDE turn, and its legal actions."""
    game = R.new_state()
    R.start_game(game, GAME.deal(seed), CODES)
    actions = np.empty(S.MAX_ACTIONS, dtype=np.int64)
    n = R.legal_actions(game.size, game.order, game.st, CODES.fifteen, actions,
                        np.empty(S.MAX_ACTIONS, dtype=np.int64))
    return game, actions[:n].copy()


def test_every_action_is_judged_on_the_same_rollouts():
    # The rollouts of an action depend on the decision's seed and the rollout's number only:
    # the same action evaluated in another place of the list, or after other actions, gets the
    # same results (common random numbers), and rollouts 0-3 are rollouts 0-1 then 2-3.
    buffer = np.empty(S.MAX_ACTIONS, dtype=np.int64)
    for seed in range(1, 30):
        game, actions = _decision(seed)
        space = S.rollout_space()
        S._unseen_cards(game, space)
        base = np.uint64(12345 + seed)
        first = [S._rollouts(game, CODES, base, a, 0, 4, buffer, space) for a in actions]
        again = [S._rollouts(game, CODES, base, a, 0, 4, buffer, space) for a in actions[::-1]]
        assert first == again[::-1]
        for a, whole in zip(actions, first):
            halves = [S._rollouts(game, CODES, base, a, r, r + 2, buffer, space) for r in (0, 2)]
            assert whole == tuple(map(sum, zip(*halves)))


def _engine_replay(deal, moves, rules):
    """Play ``moves`` (action notation) through the engine with the deal's play stream; the
    final scalars."""
    game = R.new_state()
    codes = R.rule_params(rules)
    rng = shuffle.play_stream(SALT, deal)
    R.start_game(game, deal, codes)
    for move in moves:
        turn = R.turn(game.st, codes.step_cap)
        emergency = move.startswith("!")
        assert turn == (R.TAKE_BACK if emergency else R.DECIDE), move
        action = _code(move.lstrip("!"))
        out = np.empty(S.MAX_ACTIONS, dtype=np.int64)
        if emergency:
            n = R.take_back_actions(game.size, game.order, game.st, codes.fifteen, out)
            assert action in out[:n], move
            R.take_back_when_empty(game, rng, codes, action)
        else:
            n = R.legal_actions(game.size, game.order, game.st, codes.fifteen, out,
                                np.empty(S.MAX_ACTIONS, dtype=np.int64))
            assert action in out[:n], move
            R.apply_action(game, rng, codes, action)
    assert R.turn(game.st, codes.step_cap) == R.OVER
    return game.st


def _code(text):
    if text == "new":
        return R.NEW * 1_000_000
    if text.startswith("up"):
        return R.PICKUP * 1_000_000 + (int(text[2:]) - 1) * 1000
    if text.startswith("rm"):
        return R.REMOVE * 1_000_000 + (int(text[2:]) - 1) * 1000
    first, second = text.split("+")
    return R.PAIR * 1_000_000 + (int(first) - 1) * 1000 + int(second) - 1


@pytest.mark.parametrize("flags", [{}, {"jokers": 0}],
                         ids=lambda f: GAME.rules(f).label)
def test_thoughtful_wins_replay_through_the_engine_and_the_reference(flags):
    rules = GAME.rules(flags)
    wins = 0
    for seed in range(1, 7):
        result = GAME.solve(seed, flags, "thoughtful", budget=BUDGET)
        if result.outcome != "win":
            continue
        wins += 1
        st = _engine_replay(GAME.deal(seed, rules), result.moves, rules)
        assert st[R.ST_OUTCOME] == R.WIN and st[R.ST_SCORE] == result.score
        assert st[R.ST_STEPS] == result.extra["steps"] == len(result.moves)
        replay = ImpossibleReplay(GAME, result, rules)
        assert replay.run() == "win" and replay.score == result.score and not replay.moves
    assert wins > 0


def test_no_players_win_is_a_thoughtful_loss():
    # Exact for greedy (it draws only the reshuffles from the stream, as thoughtful's lines
    # do); random and lookahead draw their own numbers too, so their games of a deal meet other
    # reshuffles, and the check only says thoughtful calls none of those deals lost.
    for flags, n in (({}, 3000), (LOOSE, 300)):
        seeds = np.arange(1, n + 1)
        won = set()
        for solver, options in (("greedy", {}), ("random", {}), ("lookahead", {"rollouts": 1})):
            count = n if solver != "lookahead" else 150
            rows = GAME.solve_seeds(seeds[:count], flags, solver, options)
            won |= set(seeds[:count][rows["outcome"] == "win"].tolist())
        assert won
        rows = GAME.solve_seeds(np.array(sorted(won)), flags, "thoughtful", {"budget": BUDGET})
        assert "loss" not in set(rows["outcome"])


def test_the_memo_changes_only_the_work():
    # With the memo and without it one search meets the same lines in the same order, so it
    # finds the same won line, or proves the same loss; the memo only skips subtrees it has
    # proved lost (so within the same budget a search left unknown may have played more lines
    # to their end, and report another best one).
    rules = R.rule_params(GAME.rules({"jokers": 0, "fifteen": "off"}))
    with_memo, without = T.Thoughtful(), T.Thoughtful()
    one_search = T.Options(restarts=0, probe=False)
    outcomes = set()
    hits = 0
    for seed in range(1, 13):
        deal = GAME.deal(seed, {"jokers": 0})
        start = shuffle.play_stream(SALT, deal)[0]
        a = with_memo.solve(deal, rules, start, BUDGET, one_search)
        b = without.solve(deal, rules, start, BUDGET, one_search._replace(memo=False))
        outcomes.add(a[0])
        hits += a[3]
        assert b[3] == 0
        if a[0] == R.WIN or b[0] == R.WIN:
            assert a[0] == b[0] and a[2].tolist() == b[2].tolist()
        if a[0] != R.UNKNOWN and b[0] != R.UNKNOWN:
            assert a[0] == b[0]
        assert a[1] <= b[1]
    assert R.WIN in outcomes and hits > 0  # states met again (same stream position)

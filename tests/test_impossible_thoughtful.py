"""Impossible's thoughtful solver (winnable/solvers/impossible_thoughtful.py): its bounds keep
the verdict of the search without them on positions searched completely, and of a plain-Python
search over the reference's rules; the probe leaves out lines and never changes a verdict; a
proven loss comes with its proof, on the command line too."""

from types import SimpleNamespace

import numpy as np
import pytest

from tests.test_games_contract import ImpossibleReplay
from tests.test_impossible_players import _code
from winnable import get_game, shuffle
from winnable.rules import impossible as R
from winnable.solvers import impossible as S
from winnable.solvers import impossible_thoughtful as T

GAME = get_game("impossible")
SALT = np.uint64(GAME.salt)
# The six rule sets of results/impossible/variants.md, and play without jokers.
RULE_SETS = [{}, {"fifteen": "off"}, {"fifteen": "unlimited"},
             {"new_pile_penalty": "beyond_nine"},
             {"fifteen": "off", "new_pile_penalty": "beyond_nine"},
             {"fifteen": "unlimited", "new_pile_penalty": "beyond_nine"}, {"jokers": 0}]
# The search without the new ideas (one search, no probe, no bound): what the bounds are
# checked against.
PLAIN = T.Options(restarts=0, probe=False, deck_bound=False, score_bound=False)
WITH = {"deck bound": PLAIN._replace(deck_bound=True),
        "score bound": PLAIN._replace(score_bound=True),
        "both bounds": PLAIN._replace(deck_bound=True, score_bound=True),
        "dominance": PLAIN._replace(dominance=True),
        "probe": PLAIN._replace(probe=True),
        "the driver (probe, restarts, bounds)": T.Options(restarts=300)}
BUDGET = 1500


def _position(deal, moves, codes):
    """The engine's game of ``deal`` after ``moves`` (notation), and its stream's state."""
    game = R.new_state()
    rng = shuffle.play_stream(SALT, deal)
    R.start_game(game, deal, codes)
    for move in moves:
        if move.startswith("!"):
            R.take_back_when_empty(game, rng, codes, _code(move[1:]))
        else:
            R.apply_action(game, rng, codes, _code(move))
    return game, rng


def _line(deal, codes, choose):
    """A whole game of ``deal`` in notation: greedy's choices (``choose`` None), else uniform
    ones drawn from ``choose`` (a NumPy generator, apart from the deal's stream)."""
    game, rng = _position(deal, [], codes)
    actions, scratch = np.empty(S.MAX_ACTIONS, np.int64), np.empty(S.MAX_ACTIONS, np.int64)
    moves = []
    while (turn := R.turn(game.st, codes.step_cap)) != R.OVER:
        if turn == R.TAKE_BACK:
            n = R.take_back_actions(game.size, game.order, game.st, codes.fifteen, actions)
            action = actions[choose.integers(n)] if choose else S.take_back_choice(
                game.size, game.order, game.st, codes.fifteen, S.GREEDY, rng, scratch)
            moves.append("!" + R.format_action(action))
            R.take_back_when_empty(game, rng, codes, action)
        else:
            n = R.legal_actions(game.size, game.order, game.st, codes.fifteen, actions, scratch)
            action = actions[choose.integers(n)] if choose else S.greedy_action(
                game.size, game.order, game.st, codes.fifteen, scratch)
            moves.append(R.format_action(action))
            R.apply_action(game, rng, codes, action)
    return moves


def _small_positions(flags, seeds, budget, last=40):
    """Positions among the ``last`` of greedy's game and of a game of random choices of each
    deal that the plain search decides within ``budget`` nodes (greedy's games mostly end with
    the score at 0, random ones with the deck empty).  Yields (deal, moves before it,
    position, stream, plain outcome, plain nodes)."""
    rules = GAME.rules(flags)
    codes = R.rule_params(rules)
    solver = T.Thoughtful(4)
    for seed in seeds:
        deal = GAME.deal(seed, rules)
        for choose in (None, np.random.default_rng(seed)):
            line = _line(deal, codes, choose)
            for k in range(max(0, len(line) - last), len(line)):
                game, rng = _position(deal, line[:k], codes)
                outcome, nodes, *_ = solver.solve_position(game, rng, codes, budget, PLAIN)
                if outcome != R.UNKNOWN:
                    yield deal, line[:k], game, rng, outcome, nodes


@pytest.mark.parametrize("flags", RULE_SETS, ids=lambda f: GAME.rules(f).label)
def test_each_idea_keeps_the_verdict_of_the_plain_search(flags):
    codes = R.rule_params(GAME.rules(flags))
    solver = T.Thoughtful(4)
    fired = {T.END_DECK_BOUND: 0, T.END_SCORE_BOUND: 0}
    positions = 0
    for _, moves, game, rng, plain, nodes in _small_positions(flags, range(1, 11), BUDGET):
        positions += 1
        for name, options in WITH.items():
            outcome, used, line, _, proof = solver.solve_position(game, rng, codes, BUDGET,
                                                                  options)
            assert outcome in (plain, R.UNKNOWN), (name, moves)
            if not (options.probe or options.restarts):  # the bounds only take work away
                assert outcome == plain and used <= nodes, (name, moves)
            assert (proof != "") == (outcome == R.LOSS)
            for bound in fired:
                fired[bound] += int(solver.stack.tally[bound])
    assert positions >= 20
    assert all(fired.values()), fired  # each bound was put to the test


class _Choice(Exception):
    """The line's moves are used up at a choice: the moves that can be made there."""

    def __init__(self, moves):
        super().__init__(moves)
        self.moves = moves


def _notation(action):
    """A reference action (``impossible_ref.Game.legal_actions``) in the engine's notation."""
    kind, *piles = action
    if kind == "new":
        return "new"
    if kind == "pair":
        return f"{piles[0] + 1}+{piles[1] + 1}"
    return f"{'up' if kind == 'pickup' else 'rm'}{piles[0] + 1}"


class _PrefixReplay(ImpossibleReplay):
    """The reference's game of a deal played along ``moves`` with the deal's stream; at the
    first choice after them it stops with the moves it could make there."""

    def __init__(self, deal_text, rules, moves):
        super().__init__(GAME, SimpleNamespace(deal=deal_text, solver="thoughtful",
                                               moves=list(moves)), rules)

    def choose_action(self, actions):
        if not self.moves:
            raise _Choice([_notation(action) for action in actions])
        return super().choose_action(actions)

    def choose_take_back(self, options):
        if not self.moves:
            raise _Choice([f"!{'up' if kind == 'pickup' else 'rm'}"
                           f"{next(i for i, p in enumerate(self.piles) if p is pile) + 1}"
                           for kind, pile in options])
        return super().choose_take_back(options)


def _reference_outcome(deal_text, rules, moves, limit):
    """The position after ``moves`` by the reference's rules, every line from it played: won
    if one wins, lost if none does (None: more than ``limit`` lines)."""
    played = 0

    def wins(line):
        nonlocal played
        played += 1
        if played > limit:
            raise OverflowError
        try:
            return _PrefixReplay(deal_text, rules, line).run() == "win"
        except _Choice as choice:
            return any(wins(line + [move]) for move in choice.moves)

    try:
        return R.WIN if wins(list(moves)) else R.LOSS
    except OverflowError:
        return None


@pytest.mark.parametrize("flags", RULE_SETS, ids=lambda f: GAME.rules(f).label)
def test_the_solver_agrees_with_a_plain_python_search(flags):
    # The engine with every idea on against every line played by the reference's rules, on
    # positions small enough for the reference (which replays each line from the deal).
    rules = GAME.rules(flags)
    codes = R.rule_params(rules)
    solver = T.Thoughtful(4)
    checked = 0
    for deal, moves, game, rng, _, nodes in _small_positions(flags, range(1, 5), 300):
        if nodes > 60 or checked == 6:
            continue
        expected = _reference_outcome(GAME.format_deal(deal), rules, moves, 400)
        if expected is None:
            continue
        outcome, *_ = solver.solve_position(game, rng, codes, BUDGET, T.Options())
        assert outcome == expected, moves
        checked += 1
    assert checked >= 3


def test_the_probe_cuts_nothing_where_every_new_pile_costs():
    # Under new_pile_penalty=every the score is 19 - piles - excess points - removals: the
    # probe's floor is the rules' own end, and the search with it is the search without it.
    for flags in ({}, {"fifteen": "unlimited"}, {"jokers": 0}):
        codes = R.rule_params(GAME.rules(flags))
        solver = T.Thoughtful(4)
        for seed in range(1, 6):
            deal = GAME.deal(seed, flags)
            start = shuffle.play_stream(SALT, deal)[0]
            one = solver.solve(deal, codes, start, 3000, PLAIN)
            probe = solver.solve(deal, codes, start, 3000, PLAIN._replace(probe=True))
            assert solver.stack.tally[T.CUT_FLOOR] == 0
            assert one[:2] == probe[:2] and one[2].tolist() == probe[2].tolist()


def test_the_score_under_every_never_exceeds_the_score():
    # What the probe reads: along random games it is the score under `every` and at most the
    # score under `beyond_nine` (free piles only raise it).
    choose = np.random.default_rng(58)
    actions, scratch = np.empty(S.MAX_ACTIONS, np.int64), np.empty(S.MAX_ACTIONS, np.int64)
    for flags in ({}, {"new_pile_penalty": "beyond_nine", "fifteen": "unlimited"}):
        codes = R.rule_params(GAME.rules(flags))
        for seed in range(1, 200):
            deal = GAME.deal(seed, flags)
            rng = shuffle.play_stream(SALT, deal)
            game = R.new_state()
            R.start_game(game, deal, codes)
            while (turn := R.turn(game.st, codes.step_cap)) != R.OVER:
                shadow, score = T.every_score(game.st), game.st[R.ST_SCORE]
                assert shadow == score if flags == {} else shadow <= score
                if turn == R.TAKE_BACK:
                    n = R.take_back_actions(game.size, game.order, game.st, codes.fifteen,
                                            actions)
                    R.take_back_when_empty(game, rng, codes, actions[choose.integers(n)])
                else:
                    n = R.legal_actions(game.size, game.order, game.st, codes.fifteen, actions,
                                        scratch)
                    R.apply_action(game, rng, codes, actions[choose.integers(n)])


# A deal lost at once: the 20 cards A-5 come first, so no two tops ever sum to 11 and every
# decision starts a new pile until the score is 0.
LOST_DEAL = ("AC AD AH AS 2C 2D 2H 2S 3C 3D 3H 3S 4C 4D 4H 4S 5C 5D 5H 5S 6D 6H QH 9C TH 7H QD "
             "6C JC 7D 8H TC 7C JH QS KD QC KC KS 9D 8C 7S 9S 8D TS 6S 9H JS 8S JD TD KH X1 X2")


def test_a_proven_loss_shows_as_a_loss_with_its_proof(run_cli):
    code, out, err = run_cli("solve", "--game", "impossible", "--solver", "thoughtful",
                             "--deal", LOST_DEAL)
    assert code == 0, err
    assert "outcome: loss   score: 0" in out
    assert "proof: every line searched (9 nodes), none wins: 1 line cut by the score bound" in out
    assert "10. new" in out  # a lost line is shown (greedy's, the lines being cut)
    code, out, _ = run_cli("solve", "--game", "impossible", "--solver", "thoughtful", "--seed", 1)
    assert "outcome: win" in out and "proof" not in out  # a won line as before
    code, out, _ = run_cli("solve", "--game", "impossible", "--solver", "thoughtful",
                           "--deal", LOST_DEAL, "--option", "score_bound=0")
    assert "proof: every line searched (10 nodes), none wins: 1 line ending with the score at 0" \
        in out


def test_each_idea_can_be_turned_off(run_cli):
    for option in ("restarts", "probe", "deck_bound", "score_bound", "dominance"):
        code, out, err = run_cli("solve", "--game", "impossible", "--solver", "thoughtful",
                                 "--seed", 2, "--option", f"{option}=0", "--json")
        assert code == 0, err
    code, _, err = run_cli("solve", "--game", "impossible", "--solver", "thoughtful", "--seed", 2,
                           "--option", "probe=2")
    assert code != 0 and "probe" in err and "Traceback" not in err

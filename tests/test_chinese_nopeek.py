"""Chinese Solitaire no-peek players: they never read a hidden card, play legally (checked by the
plain-Python reference), never win a deal the thoughtful solver calls lost, and replay exactly."""

import random

import numpy as np
import pytest

from tests.reference import chinese_ref as ref
from winnable import get_game
from winnable.rules import chinese as R
from winnable.shuffle import play_stream
from winnable.solvers.chinese import nopeek as NP

GAME = get_game("chinese")
PLAYERS = ("strategy", "sampling", "random", "hindsight")
SEARCHING = ("sampling", "hindsight")  # the players that search samples (nodes > 0)
STOCK_PLACES = [49, 50, 51]
HIDDEN_PLACES = [7 * p + h for p in range(R.PILES) for h in range(R.FACE_DOWN[p])] + STOCK_PLACES
# The cards shown last: the stock and the bottom card of each pile dealt face down.
DEEP_PLACES = [7 * p for p in range(R.PILES) if R.FACE_DOWN[p]] + STOCK_PLACES


def play(deals, solver, easy=False, stream=None, **options):
    """One game per deal; ``stream`` (a deal number): every game draws from the play stream of
    that deal instead of its own."""
    deals = np.atleast_2d(np.asarray(deals, dtype=np.int8))
    rules = GAME.rules({"easy": easy})
    options = GAME.solver_options(solver, options)
    if stream is None:
        return GAME.solve_deals(deals, rules, solver, options)
    common = GAME.deal(stream)
    return GAME.nopeek_columns(deals, rules, solver, options,
                               stream=lambda deal: play_stream(np.uint64(GAME.salt), common))


def rearranged_underneath(deal, places, rng):
    """The same deal with the cards in these hidden places shuffled among them."""
    other = deal.copy()
    while (other == deal).all():
        cards = [int(deal[i]) for i in places]
        rng.shuffle(cards)
        other[places] = cards
    return other


def moves_while_views_agree(deal_a, deal_b, moves_a, moves_b, easy):
    """Replay both games while everything visible is the same in both; the players must have
    made the same moves up to there.  Returns how many moves that covered."""
    state_a = ref.initial_state(GAME.format_deal(deal_a).split())
    state_b = ref.initial_state(GAME.format_deal(deal_b).split())
    i = 0
    while ref.visible(state_a) == ref.visible(state_b):
        if i == len(moves_a) or i == len(moves_b):
            assert len(moves_a) == len(moves_b) == i  # and both stopped there
            return i
        assert moves_a[i] == moves_b[i], i
        state_a = ref.apply_move(state_a, moves_a[i], easy)
        state_b = ref.apply_move(state_b, moves_b[i], easy)
        i += 1
    return i


@pytest.mark.parametrize("solver, seeds, options", [
    ("strategy", range(1, 9), {}), ("random", range(1, 9), {}), ("sampling", range(1, 4), {}),
    ("hindsight", range(1, 4), {}),  # judge 3: sampling's veto and rollouts
    ("hindsight", range(1, 3), {"judge": 1, "samples": 3, "width": 2, "rollout_plan": 300}),
    ("hindsight", range(1, 3), {"judge": 0})])
@pytest.mark.parametrize("places, least", [(HIDDEN_PLACES, 2), (DEEP_PLACES, 10)])
def test_players_never_read_a_hidden_card(solver, seeds, options, places, least):
    """Two deals alike in all a player sees, different underneath: the same moves until a card
    shown differs (shuffling only the deepest places makes that come late).  The rollouts of
    ``hindsight`` play on samples, so they must not see the deal either."""
    rng = random.Random(7)
    covered = []
    for seed in seeds:
        deal = GAME.deal(seed)
        other = rearranged_underneath(deal, places, rng)
        # Both games get the same random stream (that of deal `seed`).
        columns = play([deal, other], solver, stream=seed, **options)
        covered.append(moves_while_views_agree(deal, other, *columns["moves"], False))
    assert min(covered) >= 1 and max(covered) >= least, covered


def test_view_shows_nothing_hidden_and_unseen_cards_are_the_hidden_ones():
    rng = random.Random(3)
    out = np.zeros(NP.MAX_MOVES, dtype=np.int64)
    unseen = np.zeros(R.N_CARDS, dtype=np.int64)
    for seed in range(1, 6):
        deal = GAME.deal(seed)
        cards, length, down, found, misc = R.new_state(deal)
        view = NP.new_view(deal)
        for _ in range(60):
            NP.observe(cards, length, down, found, misc, view)
            vc, vl, vd, vf, vm, blind = view
            assert (blind == NP.HIDDEN).all()
            hidden = [int(cards[p, h]) for p in range(R.PILES) for h in range(down[p])]
            hidden += [] if misc[R.STOCK_DEALT] else [int(c) for c in deal[R.STOCK_FIRST:]]
            for p in range(R.PILES):
                assert (vc[p, :down[p]] == NP.HIDDEN).all()
                assert (vc[p, down[p]:length[p]] == cards[p, down[p]:length[p]]).all()
            n = NP.unseen_cards(view, unseen)
            assert sorted(unseen[:n]) == sorted(hidden)
            # A sample filled with the hidden cards in their own order is the real position.
            sample = NP.new_sampler(1, deal)[4]
            order = np.array(hidden + [0] * (R.N_CARDS - len(hidden)), dtype=np.int64)
            NP.fill_sample(view, order, sample)
            for p in range(R.PILES):
                assert (sample[0][p, :length[p]] == cards[p, :length[p]]).all()
            if not misc[R.STOCK_DEALT]:
                assert (sample[5][R.STOCK_FIRST:] == deal[R.STOCK_FIRST:]).all()
            n = R.legal_moves(cards, length, down, found, misc, False, False, out)
            if n == 0:
                break
            R.apply_move(cards, length, down, found, misc, deal, out[rng.randrange(n)])


@pytest.mark.parametrize("easy", [False, True])
def test_games_replay_legally_and_wins_are_never_thoughtful_losses(easy):
    counts = {"strategy": 24, "random": 24, "sampling": 6, "hindsight": 6}
    won = set()
    for solver in PLAYERS:
        deals = [GAME.deal(s) for s in range(1, counts[solver] + 1)]
        columns = play(deals, solver, easy)
        for k, deal in enumerate(deals):
            # Every move legal in the reference, up to the end of the game.
            score = ref.replay(GAME.format_deal(deal).split(), list(columns["moves"][k]), easy)
            assert score == columns["score"][k]
            assert columns["outcome"][k] == ("win" if score == 52 else "loss")
            if solver not in SEARCHING:
                assert columns["nodes"][k] == 0
            if score == 52:
                won.add(k + 1)
    assert len(won) >= 10
    for seed in sorted(won):
        assert GAME.solve(seed, {"easy": easy}, budget=20_000).outcome != "loss", seed


def test_games_replay_exactly():
    for solver in PLAYERS:
        first = GAME.solve_seeds([5, 6], solver=solver)
        again = GAME.solve_seeds([6, 5], solver=solver)
        for a, b in ((0, 1), (1, 0)):
            assert list(first["moves"][a]) == list(again["moves"][b])
            assert first["nodes"][a] == again["nodes"][b]
        # One game on its own (as `winnable solve --seed 6` plays it) is the same game.
        single = GAME.solve(6, solver=solver)
        assert single.moves == list(first["moves"][1]) and single.nodes == first["nodes"][1]
    # Different streams give random different games on the same deal.
    deal = GAME.deal(5)
    one, other = (play([deal], "random", stream=seed)["moves"][0] for seed in (5, 105))
    assert list(one) != list(other)


def test_patience_ends_random_games_and_options_are_checked():
    columns = play([GAME.deal(s) for s in range(1, 6)], "random", patience=5)
    assert max(len(m) for m in columns["moves"]) <= 75 * 5
    with pytest.raises(Exception, match="samples"):
        play(GAME.deal(1), "sampling", samples=0)
    with pytest.raises(Exception, match="budget"):
        GAME.solve(1, solver="strategy", budget=5)
    for solver in SEARCHING:
        with pytest.raises(Exception, match="samples"):
            play(GAME.deal(1), solver, samples=NP.MAX_SAMPLES + 1)
    with pytest.raises(Exception, match="escalate"):
        play(GAME.deal(1), "hindsight", escalate=0)
    with pytest.raises(Exception, match="unknown"):
        play(GAME.deal(1), "hindsight", unknown=3)
    with pytest.raises(Exception, match="margin"):
        play(GAME.deal(1), "hindsight", margin=101)
    with pytest.raises(Exception, match="escalate"):
        play(GAME.deal(1), "sampling", escalate=2)  # an option sampling does not take
    with pytest.raises(Exception, match="judge"):
        play(GAME.deal(1), "hindsight", judge=4)
    with pytest.raises(Exception, match="width"):
        play(GAME.deal(1), "hindsight", width=0)


def test_hindsight_judging_one_move_plays_as_sampling():
    """Judge 3 with ``width=1`` gives the rollouts one move, sampling's: the same games."""
    deals = [GAME.deal(s) for s in range(1, 7)]
    sampling = play(deals, "sampling")
    one = play(deals, "hindsight", judge=3, width=1, samples=NP.DEFAULT_SAMPLES)
    assert [list(m) for m in one["moves"]] == [list(m) for m in sampling["moves"]]


def test_a_rollout_on_the_deal_itself_is_the_strategy_game():
    """A rollout is the game loop with ``strategy``: from the first position of a deal, with
    the deal as its sample, the full plan and no search at the end, it plays strategy's game."""
    from winnable.solvers.chinese import hindsight as H
    rules = GAME.rules({})
    strategy = NP.Player(rules, "strategy", GAME.solver_options("strategy", {}))
    options = dict(GAME.solver_options("hindsight", {}), rollout_plan=NP.PLAN_NODES)
    player = NP.Player(rules, "hindsight", options)
    for seed in (1, 2, 3, 4, 5):
        deal = GAME.deal(seed)
        won, score, _, line = strategy.play(deal, play_stream(np.uint64(GAME.salt), deal))
        cards, length, down, found, misc = R.new_state(deal)
        view = NP.new_view(deal)
        NP.observe(cards, length, down, found, misc, view)
        visited = np.array([NP.view_key(view)], dtype=np.uint64)
        memory = H.new_memory(1, deal, player.cfg)
        sample = (cards, length, down, found, misc, deal.copy())
        got = H.rollout(sample, int(line[0]), visited, 1, memory[5], 0, memory[0][0],
                        player.searcher)
        assert got == (score, len(line)), seed


@pytest.mark.parametrize("solver", SEARCHING)
def test_a_hint_is_the_move_the_game_makes_first(solver):
    """``choose`` (hints) with no moves played draws the samples the game draws at its first
    decision from the same stream, so it must pick the game's first move, and the same move
    again when asked again."""
    for seed in (2, 3):
        deal = GAME.deal(seed)
        rules = GAME.rules({})
        options = GAME.solver_options(solver, {})
        game = GAME.solve(seed, solver=solver)
        player = NP.Player(rules, solver, options)
        first = [player.choose(deal, [], play_stream(np.uint64(GAME.salt), deal))[0]
                 for _ in range(2)]
        assert [R.format_move(move) for move in first] == [game.moves[0]] * 2

"""Golf's own tests: the engine's rules against the plain-Python reference, the thoughtful
search against the reference's search of every line, the no-peek player blind to the stock.
(winnable's tests/test_games_contract.py holds Golf to the contract every game keeps.)"""

import numpy as np
import pytest

from winnable import get_game
from winnable.errors import IllegalMove
from winnable.session import Session, replay_line
from winnable_golf import reference, rules as R, solvers as S

GAME = get_game("golf")
KINGS = ("stop", "queen", "wrap")


def codes(cards) -> list[str]:
    return GAME.format_deal(cards).split()


@pytest.mark.parametrize("kings", KINGS)
def test_legal_moves_are_the_references_on_random_lines(kings):
    """Random lines through many deals: at every step the engine's Table offers exactly the
    moves the reference allows, and both agree on where the game ends and its score."""
    rng = np.random.default_rng(7)
    rules = GAME.rules({"kings": kings})
    for seed in range(1, 41):
        cards = GAME.deal(seed)
        table, ref = R.Table(cards, rules), reference.Golf(codes(cards), kings)
        while True:
            offered = sorted(table.format(m) for m in table.legal())
            allowed = sorted(ref.plays() + (["stock"] if ref.stock and not ref.won() else []))
            assert offered == allowed, (seed, offered, allowed)
            assert table.over() == ref.over()
            if table.over():
                break
            move = table.legal()[rng.integers(len(table.legal()))]
            ref.move(table.format(move))
            table.play(move)
        assert table.score() == ref.taken() and table.outcome() == (
            "win" if ref.won() else "loss")


@pytest.mark.parametrize("kings", KINGS)
def test_thoughtful_decides_as_the_reference_search(kings):
    """From a position 15 random moves into each deal (a whole deal is 10^4-10^6 positions,
    minutes for the reference), and on one whole deal: the same verdict and best score."""
    rng = np.random.default_rng(11)
    rules = GAME.rules({"kings": kings})
    for seed in range(1, 13):
        cards = GAME.deal(seed)
        session, ref = Session(GAME, cards, rules), reference.Golf(codes(cards), kings)
        for _ in range(15):
            legal = session.table.legal()
            if not legal:
                break
            move = session.table.format(legal[rng.integers(len(legal))])
            session.play(move)
            ref.move(move)
        advice = session.best()
        won, best = reference.solve(ref)
        assert (advice.outcome == "win") == won, (seed, kings)
        replayed, _ = replay_line(GAME, cards, session.line + advice.line, rules)
        assert replayed.score == best or not advice.line and session.score == best


def test_thoughtful_decides_a_whole_deal_as_the_reference_search():
    whole = GAME.solve(10)  # lost; 34,326 positions under the standard rules
    assert (whole.outcome == "win", whole.score) == reference.solve(
        reference.Golf(whole.deal.split()))


def test_a_budget_too_small_leaves_the_deal_unknown():
    result = GAME.solve(2, None, "thoughtful", budget=10)
    assert result.outcome == "unknown" and result.nodes == 10


def test_the_no_peek_player_never_looks_at_the_stock():
    """Two deals alike but for the stock's order: the player's moves are the same until the
    stock turns up a card that differs."""
    cards = GAME.deal(5)
    other = cards.copy()
    other[R.FOUNDATION + 2:] = other[R.FOUNDATION + 2:][::-1]  # the stock after its first card
    line = GAME.solve(cards, None, "longest-run").moves
    other_line = GAME.solve(other, None, "longest-run").moves
    turned = [k for k, move in enumerate(line) if move == "stock"]
    before = turned[1] + 1 if len(turned) > 1 else len(line)  # up to the second stock card
    assert line[:before] == other_line[:before]


def test_the_line_of_a_loss_plays_the_deal_to_its_end():
    lost = next(s for s in range(1, 50) if GAME.solve(s).outcome == "loss")
    result = GAME.solve(lost)
    session, _ = replay_line(GAME, GAME.deal(lost), result.moves)
    assert session.over and session.outcome == "loss" and session.score == result.score


def test_moves_written_wrong_are_refused_in_one_line():
    table = R.Table(GAME.deal(1), GAME.rules())
    with pytest.raises(IllegalMove, match="not on top of a column"):
        table.parse("TD")
    with pytest.raises(IllegalMove, match="neither a card code"):
        table.parse("c1")
    with pytest.raises(IllegalMove, match="does not go on AD"):
        table.parse("4S")

"""Golf in plain Python, written apart from the engine (``rules``, ``solvers``) from the rules
as stated in docs/adding-a-game.md: what the tests check the engine against.

``replay`` plays a line of moves as written (card codes and ``stock``) and says where it ends;
``replay_score`` is the hook the contract test calls (``Game.reference``); ``solve`` decides a
game from where it stands by trying every line, slowly (a memo of positions already lost).
"""

from __future__ import annotations

RANKS = "A23456789TJQK"


def rank(code: str) -> int:
    """1 for an Ace ... 13 for a King."""
    return RANKS.index(code[0]) + 1


def goes_on(top: str, card: str, kings: str) -> bool:
    a, b = rank(top), rank(card)
    if kings == "wrap":
        return abs(a - b) in (1, 12)
    if a == 13:
        return kings == "queen" and b == 12
    return abs(a - b) == 1


class Golf:
    """A deal in play: the deal as 52 card codes, in the order dealt."""

    def __init__(self, deal: list[str], kings: str = "stop"):
        assert len(deal) == 52 and len(set(deal)) == 52
        self.columns = [list(deal[5 * c:5 * c + 5]) for c in range(7)]  # last: on top
        self.foundation = [deal[35]]
        self.stock = list(deal[36:])  # the next card to turn first
        self.kings = kings

    def plays(self) -> list[str]:
        """The top cards that go on the foundation now."""
        return [col[-1] for col in self.columns
                if col and goes_on(self.foundation[-1], col[-1], self.kings)]

    def won(self) -> bool:
        return not any(self.columns)

    def over(self) -> bool:
        return self.won() or (not self.stock and not self.plays())

    def taken(self) -> int:
        return 35 - sum(len(col) for col in self.columns)

    def move(self, move: str) -> None:
        assert not self.won(), "a move after the columns are cleared"
        if move == "stock":
            assert self.stock, "the stock is empty"
            self.foundation.append(self.stock.pop(0))
            return
        assert move in self.plays(), f"{move} cannot go on {self.foundation[-1]}"
        for col in self.columns:
            if col and col[-1] == move:
                self.foundation.append(col.pop())


def replay(deal: list[str], moves: list[str], kings: str = "stop") -> tuple[bool, int, int]:
    """Play the line: (whether the game is over, cards taken from the columns, stock left)."""
    game = Golf(deal, kings)
    for move in moves:
        game.move(move)
    return game.over(), game.taken(), len(game.stock)


def replay_score(game, result, rules) -> int:
    """The contract test's hook (``Game.reference``): the score the line of ``result`` (a
    ``SolveResult``) reaches, after checking that a won or lost line ends the game where the
    result says and leaves the stock it reports."""
    over, taken, stock_left = replay(result.deal.split(), list(result.moves), rules["kings"])
    if result.outcome in ("win", "loss"):
        assert over, "the line stops before the game is over"
        assert (taken == 35) == (result.outcome == "win"), (taken, result.outcome)
    assert stock_left == result.extra["stock_left"], (stock_left, result.extra)
    return taken


def solve(game: Golf) -> tuple[bool, int]:
    """Every line from here tried: (whether some line clears the columns, the most cards a line
    takes from them)."""
    lost: set = set()
    best = 0

    def key(game):
        return (tuple(len(col) for col in game.columns), len(game.stock), rank(game.foundation[-1]))

    def search(game) -> bool:
        nonlocal best
        best = max(best, game.taken())
        if game.won():
            return True
        if key(game) in lost:
            return False
        for move in game.plays() + (["stock"] if game.stock else []):
            child = Golf.__new__(Golf)
            child.columns = [list(col) for col in game.columns]
            child.foundation, child.stock, child.kings = list(game.foundation), list(game.stock), game.kings
            child.move(move)
            if search(child):
                return True
        lost.add(key(game))
        return False

    won = search(game)
    return won, 35 if won else best

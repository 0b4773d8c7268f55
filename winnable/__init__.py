"""winnable: how often can this solitaire be won, and how well can a player do?

Library API (what the CLI calls)::

    from winnable import get_game, solve_batch, summarize
    game = get_game("nineball")
    result = game.solve(1)                       # deal number 1, default rules and solver
    df = solve_batch("nineball", n=1000)         # a DataFrame, one row per deal
    print(summarize(df))
"""

from .games import GAME_NAMES, SolveResult, get_game
from .batch import solve_batch
from .stats import summarize, wilson_interval

__version__ = "0.1.0"
__all__ = ["GAME_NAMES", "SolveResult", "get_game", "solve_batch", "summarize",
           "wilson_interval", "__version__"]

"""winnable: how often can this solitaire be won, and how well can a player do?

Library API (what the CLI calls)::

    from winnable import get_game, solve_batch, summarize
    game = get_game("nineball")
    result = game.solve(1)                       # deal number 1, default rules and solver
    df = solve_batch("nineball", n=1000)         # a DataFrame, one row per deal
    print(summarize(df))

Importing the package is light (the command line starts fast, and Ctrl-C is handled from the
start); each name loads its module when first used.
"""

from .games import GAME_NAMES, get_game

__version__ = "0.1.0"
__all__ = ["GAME_NAMES", "SolveResult", "get_game", "solve_batch", "summarize",
           "wilson_interval", "__version__"]
_LAZY = {"SolveResult": "games.base", "solve_batch": "runs.batch", "summarize": "stats",
         "wilson_interval": "stats"}


def __getattr__(name: str):
    if name in _LAZY:
        from importlib import import_module
        return getattr(import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

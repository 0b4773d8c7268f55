"""The registry of games: ``get_game("nineball")``.  Light to import (the command line starts
with it): a game's modules, and Numba with them, load when the game is first asked for.

A game is a subclass of ``winnable.games.base.Game`` (the contract: what every game provides)
in a module of its own; adding one takes that module and one line in ``GAMES``."""

from __future__ import annotations

from functools import cache
from importlib import import_module

from ..numbering import LAST_DEAL
from ..variants import VariantError

# name -> "module:class" of each game, in the order the commands list them.
GAMES: dict[str, str] = {
    "nineball": "winnable.games.nineball:Nineball",
    "addario": "winnable.games.addario:Addario",
    "chinese": "winnable.games.chinese:Chinese",
    "impossible": "winnable.games.impossible:Impossible",
}
GAME_NAMES = tuple(GAMES)  # the games this package comes with


def get_game(name: str):
    """The game called ``name`` (a ``Game``)."""
    key = name.strip().lower()
    if key not in GAMES:
        raise VariantError(f"unknown game {name!r}: choose one of {', '.join(GAMES)}")
    return _load(GAMES[key])


@cache
def _load(where: str):
    """One instance of the game class at ``module:class`` per process."""
    module, _, name = where.partition(":")
    return getattr(import_module(module), name)()


def __getattr__(name: str):
    if name in ("Game", "SolveResult", "SolverInfo"):
        from . import base
        return getattr(base, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["GAMES", "GAME_NAMES", "LAST_DEAL", "Game", "SolveResult", "SolverInfo", "get_game"]

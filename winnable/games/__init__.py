"""The registry of games: ``get_game("nineball")``.  Light to import (the command line starts
with it): a game's modules, and Numba with them, load when the game is first asked for."""

from __future__ import annotations

from functools import cache

from ..variants import VariantError

GAME_NAMES = ("nineball", "addario", "chinese", "impossible")
LAST_DEAL = 2**63 - 1  # deal numbers are stored as int64 (the `seed` column)


@cache
def get_game(name: str):
    """The game called ``name`` (a ``Game``)."""
    key = name.strip().lower()
    if key == "nineball":
        from .nineball import Nineball
        return Nineball()
    if key == "addario":
        from .addario import Addario
        return Addario()
    if key == "chinese":
        from .chinese import Chinese
        return Chinese()
    if key == "impossible":
        from .impossible import Impossible
        return Impossible()
    raise VariantError(f"unknown game {name!r}: choose one of {', '.join(GAME_NAMES)}")


def __getattr__(name: str):
    if name in ("Game", "SolveResult", "SolverInfo"):
        from . import base
        return getattr(base, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["GAME_NAMES", "LAST_DEAL", "Game", "SolveResult", "SolverInfo", "get_game"]

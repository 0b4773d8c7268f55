"""The registry of games: ``get_game("nineball")``."""

from __future__ import annotations

from functools import cache

from ..variants import VariantError
from .base import Game, SolveResult, SolverInfo

GAME_NAMES = ("nineball", "addario", "chinese", "impossible")


@cache
def get_game(name: str) -> Game:
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


__all__ = ["GAME_NAMES", "Game", "SolveResult", "SolverInfo", "get_game"]

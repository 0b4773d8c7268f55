"""The registry of games: ``get_game("nineball")``.  Light to import (the command line starts
with it): a game's modules, and Numba with them, load when the game is first asked for.

A game is a subclass of ``winnable.games.base.Game`` (the contract: what every game provides)
in a module of its own.  The four built in are listed in ``GAMES``; a game in a package of its
own registers through an entry point in the group ``winnable.games`` (docs/adding-a-game.md):

    [project.entry-points."winnable.games"]
    golf = "winnable_golf.game:Golf"

Installed, it is a game like the built-in ones (`winnable games` lists it).  A game can also be
registered at run time by adding its ``"module:class"`` to ``GAMES`` (tests/test_toy_game.py)."""

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
GAME_NAMES = tuple(GAMES)
"""The games this package comes with (``game_names()`` adds the installed plugins).

Examples:
    >>> from winnable import GAME_NAMES
    >>> GAME_NAMES
    ('nineball', 'addario', 'chinese', 'impossible')
"""
PLUGIN_GROUP = "winnable.games"  # the entry-point group of games in packages of their own


@cache
def plugins() -> dict[str, str]:
    """The games of installed packages (entry points in ``PLUGIN_GROUP``): name ->
    ``"module:class"``.  Looked up once, when first needed, not at import: the command line
    starts without reading every installed package's metadata."""
    from importlib.metadata import entry_points
    return {point.name.strip().lower(): point.value
            for point in entry_points(group=PLUGIN_GROUP)}


def game_names() -> tuple[str, ...]:
    """The names of every game known here: the built-in four, those registered at run time and
    those of installed plugin packages (entry points ``winnable.games``).

    Examples:
        >>> from winnable import game_names
        >>> game_names()[:4]
        ('nineball', 'addario', 'chinese', 'impossible')
    """
    return tuple(GAMES) + tuple(name for name in plugins() if name not in GAMES)


def get_game(name: str):
    """The game called ``name`` (a ``Game``: one instance per process), built in or from an
    installed plugin package; a one-line ``VariantError`` for a name no game has.

    Examples:
        >>> from winnable import get_game
        >>> game = get_game("nineball")
        >>> game.title, game.default_solver, list(game.solvers)
        ('Nineball Solitaire', 'thoughtful', ['thoughtful', 'nopeek-score', 'nopeek-win'])
    """
    key = name.strip().lower()
    where = GAMES.get(key) or plugins().get(key)
    if where is None:
        raise VariantError(f"unknown game {name!r}: choose one of {', '.join(game_names())}")
    return _load(where)


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


__all__ = ["GAMES", "GAME_NAMES", "LAST_DEAL", "PLUGIN_GROUP", "Game", "SolveResult",
           "SolverInfo", "game_names", "get_game", "plugins"]

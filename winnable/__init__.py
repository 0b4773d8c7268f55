"""winnable: how often can this solitaire be won, and how well can a player do?

The public API is the names in ``__all__``, documented by area in the API reference
(docs/api/): games and their registry, solving and playing one deal, batches, resolve and
samples, reading runs, statistics and summaries, figures.  What the command line does, it
does by calling these.

Examples:
    >>> from winnable import get_game, solve_batch, summarize
    >>> get_game("nineball").solve(1).outcome      # deal 1, default rules and solver
    'win'
    >>> rows = solve_batch("nineball", n=100, workers=1, progress=False,
    ...                    out="runs/example.parquet")    # a DataFrame, one row per deal
    >>> summarize(rows)[0].wins
    100

Importing the package is light (the command line starts fast, and Ctrl-C is handled from the
start); each name loads its module when first used.  A script that runs batches in worker
processes needs no ``if __name__ == "__main__":`` guard (docs/api/batches.md).
"""

from .errors import UserError
from .games import GAME_NAMES, game_names, get_game

__version__ = "0.1.0"

# Each public name loaded on first use: name -> the module (under winnable) that defines it.
_LAZY = {
    "Game": "games.base", "SolveResult": "games.base",
    "Session": "session", "replay_line": "session", "verify_line": "session",
    "solve_batch": "runs.batch", "sweep": "runs.sweep",
    "resolve_file": "runs.resolve",
    "read_runs": "runs.read", "read_run_file": "runs.read",
    "summarize": "stats", "Summary": "stats", "Summaries": "stats", "WinRate": "stats",
    "win_rate": "stats", "wilson_interval": "stats", "Sample": "stats",
    "stratified_estimate": "stats", "paired_difference": "stats",
}
_MODULES = ("plot",)  # public modules, loaded on first use as well

__all__ = [
    # games and their registry
    "GAME_NAMES", "game_names", "get_game", "Game", "SolveResult",
    # solving and playing one deal
    "Session", "replay_line", "verify_line",
    # batches
    "solve_batch", "sweep",
    # resolve and samples
    "resolve_file",
    # reading runs
    "read_runs", "read_run_file",
    # statistics and summaries
    "summarize", "Summaries", "Summary", "WinRate", "win_rate", "wilson_interval", "Sample",
    "stratified_estimate", "paired_difference",
    # figures
    "plot",
    # errors
    "UserError",
    "__version__",
]


def __getattr__(name: str):
    from importlib import import_module
    if name in _LAZY:
        return getattr(import_module(f".{_LAZY[name]}", __name__), name)
    if name in _MODULES:
        return import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))

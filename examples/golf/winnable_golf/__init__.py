"""Golf patience as a winnable game in a package of its own: what the game is (``rules``), how
it is searched and played (``solvers``), the wiring (``game``, registered by the entry point in
pyproject.toml) and a plain-Python reference written apart from the engine (``reference``).
The walk-through is winnable's docs/adding-a-game.md."""

from pathlib import Path

from winnable.jit import drop_stale_caches

# Numba checks a cached kernel against its own file only, and ``solvers.search`` holds the code
# of ``rules.fits``: the package's caches go whenever any of its sources changes.
drop_stale_caches(Path(__file__).resolve().parent)

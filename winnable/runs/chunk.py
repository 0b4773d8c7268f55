"""One chunk of a run: what a worker does, a local process (``pool``) or a Dask task
(``cluster``).  It solves a set of seeds with ``Game.solve_seeds`` and returns their rows; a
local worker also writes them as a part file itself (on a cluster the rows travel back and the
client writes them).  Each process records its start-up (compiling or loading the kernels, their
first calls, the solver's buffers) once per run, apart from the deals' own seconds."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pyarrow as pa

from ..games import GAMES, get_game
from .spec import RunSpec
from .store import to_table, with_startup, write_part


def solve_table(spec_json: str, first: int, last: int) -> pa.Table:
    """Solve seeds first..last and return their rows: ``solve_seeds_table`` of a chunk named by
    its ends (the batch itself passes ranges to ``solve_seeds_table``)."""
    return solve_seeds_table(spec_json, np.arange(first, last + 1, dtype=np.int64))


def solve_seeds_table(spec_json: str, seeds: Sequence[int]) -> pa.Table:
    """Solve the given seeds (any set) and return their rows, the process's start-up (if this
    is its first task of the run) recorded apart in the table's metadata (``STARTUP_KEY``)."""
    spec = RunSpec.from_json(spec_json)
    game = get_game(spec.game)
    startup = start_up(spec)
    columns = game.solve_seeds(np.asarray(seeds, dtype=np.int64), spec.variant, spec.solver,
                               dict(spec.options), spec.numbering)
    table = to_table(spec, columns, game.extra_columns)
    return with_startup(table, startup, 1 if startup else 0)


def solve_and_store(spec_json: str, seeds: Sequence[int], parts: str) -> int:
    """A local worker's task: solve the seeds (a ``range`` for a batch's chunk, a list for an
    escalation's), write their part on the shared disk, return how many deals it holds."""
    return write_part(Path(parts), solve_seeds_table(spec_json, seeds))


def use_games(games: Mapping[str, str]) -> None:
    """A local worker's setup: the parent's registry of games (``winnable.games.GAMES``), so
    that a game registered at run time (a test's, a notebook's) is known in the worker too."""
    GAMES.update(games)


# Seconds this process spent getting ready for a run (by RunSpec JSON), and the runs whose
# start-up it has already recorded in a part: each process records its start-up once.
_STARTUP: dict[str, float] = {}
_STARTUP_RECORDED: set[str] = set()


def get_ready(spec: RunSpec) -> None:
    """Get this process ready to solve the run's deals (``Game.warm_up``: compile or load the
    kernels and run each once, so that no deal pays for it), counting the seconds it takes."""
    game = get_game(spec.game)
    if not game.is_warm(spec.variant, spec.solver, dict(spec.options)):
        started = time.perf_counter()
        game.warm_up(spec.variant, spec.solver, dict(spec.options))
        key = spec.to_json()
        _STARTUP[key] = _STARTUP.get(key, 0.0) + time.perf_counter() - started


def start_up(spec: RunSpec) -> float:
    """``get_ready`` and return this process's start-up for the run if no part recorded it yet
    (else 0).  Without it the first deal of each worker carried the worker's start-up: 50-200
    ms on deals that take well under one."""
    get_ready(spec)
    key = spec.to_json()
    if key in _STARTUP_RECORDED:
        return 0.0
    _STARTUP_RECORDED.add(key)
    return _STARTUP.get(key, 0.0)

"""The time a solver spends on each deal, with Numba's compilation left out: what every game's
``seconds`` column measures."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
from numba.core import event as numba_event


class _CompileTime(numba_event.Listener):
    """Seconds this process has spent in Numba's compiler (compiling a kernel, or loading it
    from the cache), counted from the outermost hold of its lock."""

    def __init__(self):
        self.total = 0.0
        self._depth = 0
        self._since = 0.0

    def on_start(self, event):
        if self._depth == 0:
            self._since = time.perf_counter()
        self._depth += 1

    def on_end(self, event):
        self._depth -= 1
        if self._depth == 0:
            self.total += time.perf_counter() - self._since


COMPILE_TIME = _CompileTime()
numba_event.register("numba:compiler_lock", COMPILE_TIME)


class Stopwatch:
    """Search time since it was made, Numba compilation left out: a kernel used for the first
    time in a process (compiled, or loaded from the cache) costs seconds to minutes, which are
    not the deal's."""

    def __init__(self):
        self._wall = time.perf_counter()
        self._compiling = COMPILE_TIME.total

    def seconds(self) -> float:
        compiling = COMPILE_TIME.total - self._compiling
        return max(0.0, time.perf_counter() - self._wall - compiling)


def timed_columns(deals: np.ndarray, search: Callable[[np.ndarray], tuple],
                  describe: Callable[[np.ndarray, Any], list[str]]) -> dict[str, Any]:
    """The standard columns for deals solved one at a time.  ``search(deal)`` returns
    (outcome, score, nodes, line) and is what ``seconds`` measures (a ``Stopwatch``);
    ``describe(deal, line)`` turns the line into move strings afterwards."""
    n = len(deals)
    outcome = np.empty(n, dtype=object)
    scores = np.empty(n, dtype=np.int16)
    nodes = np.empty(n, dtype=np.int64)
    seconds = np.empty(n, dtype=np.float64)
    moves: list[list[str]] = []
    for k in range(n):
        clock = Stopwatch()
        outcome[k], scores[k], nodes[k], line = search(deals[k])
        seconds[k] = clock.seconds()
        moves.append(describe(deals[k], line))
    return {"outcome": outcome, "score": scores, "moves": moves, "nodes": nodes,
            "seconds": seconds}

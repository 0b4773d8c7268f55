"""`winnable bench`: measured speed on this machine."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import numpy as np

from .runs.batch import solve_batch
from .runs.store import startup
from .games import get_game


def run_bench(game: str, variant=None, solver=None, options=None, n: int | None = None,
              workers: int | None = None) -> list[str]:
    g = get_game(game)
    solver = g.check_solver(solver)
    n = n or g.bench_counts.get(solver, g.bench_deals)
    lines = []
    warm = time.perf_counter()
    # What a batch's worker does before its first deal (runs.chunk.get_ready): every kernel the
    # solver may call compiled or loaded, so that no timed deal pays for it.
    g.warm_up(variant, solver, options)
    lines.append(f"{g.name} {solver} (rules {g.rules(variant).label}): warm-up "
                 f"{time.perf_counter() - warm:.2f} s (Numba compilation or cache load)")
    start = time.perf_counter()
    cpu = time.process_time()
    columns = g.solve_seeds(np.arange(1, n + 1), variant, solver, options)
    wall = time.perf_counter() - start
    cpu = time.process_time() - cpu
    search = float(np.sum(columns["seconds"]))
    nodes = float(np.sum(columns["nodes"]))
    lines.append(f"one core, {n:,} deals (seeds 1-{n}):")
    lines.append(f"  search only:  {n / search:,.0f} deals/s, {nodes / search:,.0f} nodes/s "
                 f"({nodes / n:,.1f} nodes/deal)")
    lines.append(f"  end to end:   {n / wall:,.0f} deals/s (deal, search, line of play, "
                 "formatting)")
    # Wall-clock figures fall when other jobs share the cores; CPU time much less so.
    lines.append(f"  end to end, CPU time: {n / cpu:,.0f} deals/s (what one core gives; "
                 f"wall/CPU {wall / cpu:.2f}: above 1 means the core was shared)")
    if workers:
        times, searched, ready = {}, {}, {}
        with tempfile.TemporaryDirectory() as tmp:
            for w in sorted({1, workers}):
                start = time.perf_counter()
                out = Path(tmp) / f"bench-{w}.parquet"
                rows = solve_batch(game, n=n, variant=variant, solver=solver, options=options,
                                   workers=w, out=out, progress=False)
                times[w] = time.perf_counter() - start
                searched[w] = float(rows["seconds"].sum())
                ready[w] = startup(out)
        for w, t in times.items():
            # Each deal's seconds are its search alone, as above; the workers' start-up is
            # recorded apart (in the run's metadata) and shown beside it.
            lines.append(f"  batch of {n:,} with {w} worker{'s' if w > 1 else ''}: {t:.2f} s "
                         f"({n / t:,.0f} deals/s, start-up and Parquet included); the deals' "
                         f"own search {searched[w]:.2f} s ({n / searched[w]:,.0f} deals/s per "
                         f"worker), start-up {ready[w]['seconds']:.2f} s over "
                         f"{ready[w]['processes']} process(es), apart")
        if workers > 1:
            lines.append(f"  speed-up {workers} workers vs 1: {times[1] / times[workers]:.2f}x")
    return lines

"""Where the CPU of a Chinese thoughtful run goes (issue 56): the table of docs/speed.md.

    python experiments/chinese_profile.py --n 2000 [--easy] [--first 1] [--perf]

Three measurements of the same deals, one process (the batch's own code path: the solver a
worker builds, ``Thoughtful.solve`` per deal):

1. **The driver's steps**, CPU seconds (``time.process_time``) spent in each call the driver
   makes: the searches (``search.search``), the critical-path model and its test at the deal's
   position (``critical.build``, ``critical.dead``), the occupation test, h^3
   (``Thoughtful.triples_dead``), the strategy player, the random playouts; the rest of
   ``solve`` (restarts, positions, the Python between the steps) is "driver overhead".
2. **Inside the compiled code** (``--perf``, where Linux ``perf`` can sample): every compiled
   function's share of the samples of the solving (a CPU-clock sample every 250 us), grouped
   as the table of docs/speed.md groups them.  Numba's code has no symbols for ``perf``, so
   the run compiles into a temporary cache (a few minutes) and writes ``/tmp/perf-PID.map``
   from the object code of each compiled function.  A function inlined into another counts as
   that other one.
3. **A batch around it**: ``solve_batch`` on the same deals with one worker, whose wall time
   less its deals' own ``seconds`` is the batch's overhead (start-up of the worker, Parquet,
   progress), and whose start-up is in the run's metadata.

Prints a Markdown table; ``--out FILE`` writes it too.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GROUPS = [  # (group, function names as ``module.function`` suffixes), the first match wins
    ("h^3, once a deal", ("critical.reachable3", "critical._add_triples", "critical._add_triple",
                          "critical._homes_joined", "critical.dead3")),
    ("h^2 at the nodes", ("critical.reachable", "critical.dead", "critical.image",
                          "critical._homes_paired")),
    ("dead_end at the nodes", ("losses.dead_end",)),
    ("occupation test", ("losses.occupation_dead_end", "losses._fixpoint", "losses._lost")),
    ("classes and members", ("search.expand_rest", "search._member_moves", "search._walk_to_member",
                             "search.normalise", "search._mark_members", "search._flip",
                             "search._moved_piles", "search._new_index",
                             "search._index_member")),
    ("move generation and order", ("search.expand", "search.all_moves", "search.moves_onto_tops",
                                   "search._space_moves", "search.worth",
                                   "search._sort_successors", "search._add_successor",
                                   "search.jitter_noise")),
    ("node loop: play, table, take back", ("search.search", "search.unplay_to", "search.lost_at_sight",
                                           "search.critical_dead", "table.", "position.")),
    ("strategy player", ("nopeek.", "rules.chinese.")),
    ("random playouts", ("thoughtful.random_walks",)),
    ("critical-path model", ("critical.build", "critical._layered_order")),
]


def group_of(name: str) -> str:
    for group, suffixes in GROUPS:
        if any(name.endswith(s) or (s.endswith(".") and s in name) for s in suffixes):
            return group
    return "other compiled code"


def demangle(symbol: str) -> str:
    """``winnable.solvers.chinese.search.expand_rest`` from Numba's mangled name."""
    if not symbol.startswith("_ZN"):
        return symbol
    rest, parts = symbol[3:], []
    while rest and rest[0].isdigit():
        digits = len(rest) - len(rest.lstrip("0123456789"))
        size = int(rest[:digits])
        parts.append(rest[digits:digits + size])
        rest = rest[digits + size:]
    return ".".join(parts)


def write_perf_map() -> int:
    """/tmp/perf-PID.map for every compiled function of the package (object code needed: only
    for functions compiled in this process)."""
    from numba.core.registry import CPUDispatcher
    entries = {}
    libraries = {}
    for name, module in list(sys.modules.items()):
        if name.startswith("winnable"):
            for value in vars(module).values():
                if isinstance(value, CPUDispatcher):
                    for compiled in value.overloads.values():
                        libraries[id(compiled.library)] = (compiled.library,
                                                           compiled.fndesc.llvm_func_name)
    for library, entry in libraries.values():
        try:
            code = library._get_compiled_object()
        except RuntimeError:
            continue  # loaded from a cache: no object code to read symbols from
        with tempfile.NamedTemporaryFile(suffix=".o") as f:
            f.write(code)
            f.flush()
            listing = subprocess.run(["nm", "-S", "--defined-only", f.name], capture_output=True,
                                     text=True).stdout
        symbols = {}
        for line in listing.splitlines():
            fields = line.split()
            if len(fields) == 4 and fields[2] in "tT":
                symbols[fields[3]] = (int(fields[0], 16), int(fields[1], 16))
        if entry in symbols:
            base = library.get_pointer_to_function(entry) - symbols[entry][0]
            for symbol, (offset, size) in symbols.items():
                entries[base + offset] = (size, symbol)
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as f:
        for address in sorted(entries):
            size, symbol = entries[address]
            f.write(f"{address:x} {size:x} {symbol}\n")
    return len(entries)


def driver_steps(easy: bool, first: int, n: int):
    """(CPU seconds by step, total CPU seconds, nodes, outcomes) of solving the deals."""
    import numpy as np
    from winnable.games import get_game
    from winnable.games.chinese import _thoughtful_solver
    from winnable.solvers.chinese import critical as C
    from winnable.solvers.chinese import search as CS
    from winnable.solvers.chinese import thoughtful as T

    game = get_game("chinese")
    variant = {"easy": "1"} if easy else None
    solver = _thoughtful_solver(game.rules(variant), game.solver_options("thoughtful", None))
    solver.warm_up(game.deal(1, variant))
    solver.solve(game.deal(2, variant))  # the searches' own compilation or cache load
    spent: dict[str, float] = {}

    def timed(owner, name, step):
        original = getattr(owner, name)

        def call(*args, **kwargs):
            start = time.process_time()
            try:
                return original(*args, **kwargs)
            finally:
                spent[step] = spent.get(step, 0.0) + time.process_time() - start
        setattr(owner, name, call)
        return original

    restore = [(CS, "search", timed(CS, "search", "searches")),
               (C, "build", timed(C, "build", "critical-path model")),
               (C, "dead", timed(C, "dead", "h^2 at the deal's position")),
               (T, "occupation_dead_end", timed(T, "occupation_dead_end", "occupation test")),
               (T.Thoughtful, "triples_dead", timed(T.Thoughtful, "triples_dead", "h^3")),
               (T.Thoughtful, "strategy_win", timed(T.Thoughtful, "strategy_win",
                                                    "strategy player")),
               (T, "random_walks", timed(T, "random_walks", "random playouts"))]
    nodes = 0
    outcomes: dict[str, int] = {}
    deals = [game.deal(seed, variant) for seed in range(first, first + n)]
    start = time.process_time()
    for deal in deals:
        outcome, _, spent_nodes, _ = solver.solve(np.asarray(deal))
        nodes += spent_nodes
        word = ("loss", "win", "unknown")[int(outcome)]
        outcomes[word] = outcomes.get(word, 0) + 1
    total = time.process_time() - start
    for owner, name, original in restore:
        setattr(owner, name, original)
    # h^3 builds its own model: its build is h^3's, not the searches'.
    spent["driver overhead"] = total - sum(spent.values())
    return spent, total, nodes, outcomes


def batch_overhead(easy: bool, first: int, n: int):
    """(wall seconds, the deals' summed seconds, start-up seconds) of a one-worker batch."""
    from winnable.runs.batch import solve_batch
    from winnable.runs.store import startup
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run.parquet"
        start = time.perf_counter()
        rows = solve_batch("chinese", n=n, start=first, variant={"easy": "1"} if easy else None,
                           workers=1, out=out, progress=False)
        wall = time.perf_counter() - start
        return wall, float(rows["seconds"].sum()), startup(out)["seconds"]


def perf_groups(args) -> list[tuple[str, float]] | None:
    """Run this script's driver measurement under ``perf record`` in a child with a fresh
    compile; the compiled functions' shares, grouped."""
    try:
        subprocess.run(["perf", "--version"], capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "perf.data"
        env = dict(os.environ, NUMBA_CACHE_DIR=str(Path(tmp) / "cache"))
        child = [sys.executable, __file__, "--child", "--n", str(args.n), "--first",
                 str(args.first)] + (["--easy"] if args.easy else [])
        done = subprocess.run(["perf", "record", "-q", "-F", "4000", "-e", "cpu-clock", "-o",
                               str(data), "--"] + child, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            print(done.stderr[-2000:], file=sys.stderr)
            return None
        report = subprocess.run(["perf", "report", "-i", str(data), "--stdio", "--sort",
                                 "dso,sym", "--percent-limit", "0"],
                                capture_output=True, text=True).stdout
    shares: dict[str, float] = {}
    for line in report.splitlines():
        fields = line.split()
        if len(fields) < 4 or not fields[0].endswith("%") or "[JIT]" not in line:
            continue
        symbol = fields[-1]
        name = demangle(symbol)
        if not name.startswith("winnable."):
            continue
        group = group_of(name)
        shares[group] = shares.get(group, 0.0) + float(fields[0].rstrip("%"))
    total = sum(shares.values())
    return sorted(((g, 100 * s / total) for g, s in shares.items()), key=lambda x: -x[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--easy", action="store_true")
    parser.add_argument("--perf", action="store_true", help="also sample the compiled code")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.child:
        driver_steps(args.easy, args.first, args.n)
        write_perf_map()
        return
    rules = "easy=1" if args.easy else "default rules"
    spent, total, nodes, outcomes = driver_steps(args.easy, args.first, args.n)
    lines = [f"Chinese thoughtful, {rules}, deals {args.first}-{args.first + args.n - 1} "
             f"({', '.join(f'{v} {k}' for k, v in sorted(outcomes.items()))}), one process, "
             f"CPU seconds: {total:.2f} s in all, {nodes:,} nodes "
             f"({nodes / spent.get('searches', total):,.0f} nodes per second of the searches)",
             "", "| step of the driver | CPU s | share |", "|---|---|---|"]
    for step, seconds in sorted(spent.items(), key=lambda x: -x[1]):
        lines.append(f"| {step} | {seconds:.2f} | {100 * seconds / total:.1f}% |")
    wall, searched, start_up = batch_overhead(args.easy, args.first, args.n)
    lines += ["", f"A one-worker batch of the same deals: {wall:.1f} s of wall time, of which the "
              f"deals' own seconds {searched:.1f} s, the worker's start-up {start_up:.1f} s "
              f"(Numba's cache loaded), the rest ({wall - searched - start_up:.1f} s) the batch "
              "(chunks, Parquet, progress)."]
    if args.perf:
        groups = perf_groups(args)
        if groups is None:
            lines += ["", "(perf is not available here: no breakdown of the compiled code)"]
        else:
            lines += ["", "| inside the compiled code (perf samples of the solving) | share |",
                      "|---|---|"]
            lines += [f"| {group} | {share:.1f}% |" for group, share in groups]
    text = "\n".join(lines)
    print(text)
    if args.out:
        args.out.write_text(header(args) + text + "\n")


def header(args) -> str:
    """The title and provenance of a written table (results/chinese/profile_*.md)."""
    from winnable.games import get_game

    command = (f"python experiments/chinese_profile.py --first {args.first} --n {args.n}"
               + " --easy" * args.easy + " --perf" * args.perf)
    return (f"# Where the CPU of a Chinese thoughtful run goes: {'easy' if args.easy else 'strict'}"
            f"\n\nSolver version {get_game('chinese').engine_version('thoughtful')}, "
            f"{time.strftime('%Y-%m-%d')}, one core of the project's 2-core machine shared "
            f"with other jobs: `{command}`.\n\n")


if __name__ == "__main__":
    main()

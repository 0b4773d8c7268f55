"""The names of the former ``winnable.batch`` module, which became the package ``winnable.runs``
(one module per job: see its docstring).  Kept so that scripts and notebooks written against
it, and the commands in stored results, go on working; new code imports from
``winnable.runs.<module>``.  (Patch a name where it is defined, not here.)"""

from .runs.batch import advise, solve_batch, solve_run, warm_up
from .runs.chunk import get_ready, solve_seeds_table, solve_table, start_up
from .runs.cluster import CONNECT_TIMEOUT, check_cluster, check_scheduler_address, connect
from .runs.pool import STOP_SECONDS, LocalWorkers, Task, WorkerDied
from .runs.progress import warn
from .runs.read import RUN_COLUMNS, load_rows, read_run_file, read_runs
from .runs.spec import (BatchError, RunSpec, default_out, options_text, parts_dir, run_file,
                        run_path, set_aside_dir)
from .runs.store import (META_KEY, PART_NAME, STARTUP_KEY, check_compatible, merge_parts,
                         missing_chunks, part_problem, part_range, read_spec,
                         set_aside_bad_parts, startup, stored_seeds, to_table, total_startup,
                         with_startup, write_atomic, write_part, write_text_atomic)

__all__ = [
    "BatchError", "CONNECT_TIMEOUT", "LocalWorkers", "META_KEY", "PART_NAME", "RUN_COLUMNS",
    "RunSpec", "STARTUP_KEY", "STOP_SECONDS", "Task", "WorkerDied", "advise",
    "check_cluster", "check_compatible", "check_scheduler_address", "connect", "default_out",
    "get_ready", "load_rows", "merge_parts", "missing_chunks", "options_text", "part_problem",
    "part_range", "parts_dir", "read_run_file", "read_runs", "read_spec", "run_file",
    "run_path", "set_aside_bad_parts", "set_aside_dir", "solve_batch", "solve_run",
    "solve_seeds_table", "solve_table", "start_up", "startup", "stored_seeds", "to_table",
    "total_startup", "warm_up", "warn", "with_startup", "write_atomic", "write_part",
    "write_text_atomic",
]

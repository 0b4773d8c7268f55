"""Running a run's tasks on a Dask distributed cluster (``--scheduler tcp://HOST:PORT``).

Workers solve chunks and send the rows back; the client alone writes the parts, so workers on
other machines need no shared disk, only ``winnable`` installed.  Resuming, merging and the
progress bar are the local run's own."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from concurrent.futures import CancelledError
from typing import Any

import pyarrow as pa

from .spec import BatchError

CONNECT_TIMEOUT = 15  # seconds to reach the scheduler before giving up

_ADDRESS = re.compile(r"tcp://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(\d{1,5})")


def check_where_to_run(workers: int | None, scheduler: str | None) -> None:
    """Refuse in one line a count of local workers below 1, a scheduler address that is not
    ``tcp://HOST:PORT``, both at once, or a scheduler without Dask installed."""
    if scheduler is not None:
        check_scheduler_address(scheduler)
        if workers is not None:
            raise BatchError("--workers sets this machine's processes; with --scheduler the "
                             "cluster's workers do the work (start them with `dask worker "
                             "--nworkers N`): drop --workers")
        import_distributed()
    if workers is not None and workers < 1:
        raise BatchError(f"--workers must be at least 1, got {workers}")


def check_scheduler_address(address: str) -> None:
    match = _ADDRESS.fullmatch(address)
    if not match or not 1 <= int(match.group(2)) <= 65535:
        raise BatchError(f"--scheduler must look like tcp://HOST:PORT (e.g. tcp://10.0.0.5:8786), "
                         f"got {address!r}")


def import_distributed():
    try:
        import distributed
    except ImportError:
        raise BatchError("--scheduler needs Dask distributed, which is not installed: "
                         "pip install 'winnable[cluster]' (on this machine and every worker)"
                         ) from None
    return distributed


def connect(scheduler: str):
    """A Dask client of the scheduler at ``scheduler``, after checking that the scheduler and
    the workers have winnable installed (a BatchError otherwise)."""
    distributed = import_distributed()
    try:
        client = distributed.Client(scheduler, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, ValueError) as exc:
        raise BatchError(f"cannot reach the Dask scheduler at {scheduler} (--scheduler) within "
                         f"{CONNECT_TIMEOUT} s: is `dask scheduler` running there and the port "
                         f"open? ({exc.__class__.__name__})") from None
    try:
        check_cluster(client)
    except BaseException:
        client.close()
        raise
    return client


def check_cluster(client) -> None:
    """The scheduler reads the tasks and the workers run them: both need winnable (the same
    version as here).  Workers that join later are not checked."""
    versions = client.get_versions(packages=["winnable"])
    mine = versions["client"]["packages"]["winnable"]
    others = {"the scheduler": versions["scheduler"],
              **{f"worker {address}": info for address, info in versions["workers"].items()}}
    wrong = []
    for name, info in others.items():
        theirs = (info or {}).get("packages", {}).get("winnable")
        if theirs is None or (mine is not None and theirs != mine):
            wrong.append(f"{name} has {'winnable ' + theirs if theirs else 'no winnable'}")
    if wrong:
        more = f" (and {len(wrong) - 2} more)" if len(wrong) > 2 else ""
        raise BatchError(f"the Dask cluster needs winnable {mine or ''} on the scheduler and "
                         f"every worker: {'; '.join(wrong[:2])}{more}; there run "
                         "pip install 'winnable[cluster]'")


def run_tasks_dask(client, tasks: Sequence[tuple[Any, tuple]],
                   store: Callable[[pa.Table], int], bar) -> None:
    """Run ``function(*args)`` of each task on the cluster; ``store(result)`` (here, on this
    machine) writes each result as it comes back and returns its deals."""
    from distributed import as_completed
    queue = list(reversed(tasks))
    running = as_completed(loop=client.loop)

    def submit_more() -> None:
        # About two tasks per worker thread in flight: every thread stays busy, and a run of
        # a million deals does not flood the scheduler with tasks.
        limit = 2 * max(1, sum(client.nthreads().values()))
        while queue and running.count() < limit:
            function, args = queue.pop()
            running.add(client.submit(function, *args, pure=False))

    submit_more()
    for future in running:
        # The next turn drops this future, and with it the worker's copy of the rows.
        bar.update(store(_cluster_result(future)))
        submit_more()


def _cluster_result(future) -> pa.Table:
    from distributed import KilledWorker
    try:
        return future.result()
    except KilledWorker:
        raise BatchError("workers died again and again on one chunk, so Dask gave up on it (do "
                         "the workers run this same winnable?); every finished chunk is kept: "
                         "rerun the same command to resume") from None
    except (ImportError, RuntimeError) as exc:
        if "winnable" not in str(exc) and "deserialization" not in str(exc):
            raise
        raise BatchError("the Dask scheduler or a worker cannot load this run's task: install "
                         "this same winnable on the scheduler and every worker (pip install "
                         "'winnable[cluster]')") from None
    except CancelledError as exc:
        raise BatchError(f"lost the Dask cluster ({exc.__class__.__name__}); every finished "
                         "chunk is kept: rerun the same command to resume") from None

"""The local worker pool: tasks run in spawned worker processes, one task per worker at a time,
each result handed back to the parent as it finishes.

The pool is written here rather than taken from a library because a run must stop within
seconds and leave no process behind (``winnable.stopping``), and the libraries cannot do that
for workers busy inside compiled code (a Numba search of one deal can run for minutes):

* ``multiprocessing.Pool`` can terminate its workers, but when a worker dies in a task (the
  kernel's out-of-memory killer, a crash in compiled code) it loses the task and ``imap`` waits
  for it forever (CPython issue bpo-22393); and it starts replacement workers from a thread of
  its own, at moments where the parent cannot hold signals back.
* ``concurrent.futures.ProcessPoolExecutor`` reports a dead worker, but cannot end a busy one:
  ``shutdown`` waits for the running tasks, or leaves them running (``terminate_workers`` came
  with Python 3.14; this project supports 3.11).
* Dask's ``LocalCluster`` needs Dask, an optional dependency here (``winnable[cluster]``), and
  its workers notice a dead parent in Python only: one busy in a compiled kernel goes on (seen
  here: a worker still running a Numba loop 3 s after its parent was killed with ``kill -9``).
* None of them ends a worker in compiled code when the parent dies by ``kill -9``: the worker
  goes on with its task first, which for a Chinese deal at a large budget is minutes.

What this pool does: workers are spawned (a clean interpreter each, whatever threads the caller
has) with Ctrl-C, SIGTERM and SIGHUP held back while they start; each ignores Ctrl-C and dies
with its parent (``stopping.leave_stopping_to_parent``, ``stopping.exit_with_parent``); leaving
the pool on an error or a stop terminates them (SIGTERM ends a worker at once, inside compiled
code too), and a worker that dies mid-task is reported in one line naming its task.  With one
worker the tasks run in this process instead (no process to start); a stop then takes effect
when the deal being solved returns.
"""

from __future__ import annotations

import os
import time
import traceback
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing import connection, get_context, resource_tracker
from typing import Any

from ..stopping import exit_with_parent, leave_stopping_to_parent, signals_held
from .spec import BatchError

STOP_SECONDS = 3  # how long a worker may take to exit before it is killed


class WorkerDied(BatchError):
    """A worker process ended while running a task."""


@dataclass(frozen=True)
class Task:
    """One piece of a run for a worker: ``function(*args)`` (a picklable function: a worker
    imports it by name), whose result goes back to the parent; ``label`` names it in
    errors."""
    function: Any
    args: tuple
    label: str


Setup = tuple[Callable[..., None], tuple]  # (function, args) run once in each worker


def run_tasks(tasks: Sequence[Task], workers: int | None, done: Callable[[Any], None],
              setup: Setup | None = None) -> None:
    """Run the tasks in ``workers`` local processes (default: all cores), or here if one, and
    call ``done(result)`` here for each as it finishes; ``setup``: ``function(*args)`` once in
    each worker (and here) before its first task."""
    workers = min(workers or os.cpu_count() or 1, len(tasks))
    if workers <= 1:
        if setup is not None and tasks:
            setup[0](*setup[1])
        for task in tasks:
            done(task.function(*task.args))
        return
    queue = deque(tasks)
    with LocalWorkers(workers, setup) as pool:
        while queue or pool.busy():
            while queue and pool.idle():
                pool.submit(queue.popleft())
            for result in pool.finished():
                done(result)


@dataclass
class _Worker:
    process: Any
    conn: Any
    task: Task | None = None


class LocalWorkers:
    """Worker processes, each running one ``Task`` at a time.  Leaving the ``with`` block ends
    them: after the last task they exit, on an error or a stop they are terminated."""

    def __init__(self, count: int, setup: Setup | None = None):
        self.count = count
        self.setup = setup
        self.workers: list[_Worker] = []

    def __enter__(self) -> "LocalWorkers":
        context = get_context("spawn")
        # Signals are held back while the workers start: here they arrive right after, and a
        # worker starts with them blocked (the mask survives exec) until it ignores Ctrl-C, so
        # one pressed while its interpreter starts prints nothing there.  The resource tracker
        # (which spawned processes share) is started first: starting it unblocks Ctrl-C.
        resource_tracker.ensure_running()
        with signals_held():
            try:
                for _ in range(self.count):
                    mine, theirs = context.Pipe()
                    process = context.Process(target=_worker_main,
                                              args=(theirs, os.getpid(), self.setup),
                                              daemon=True)
                    process.start()
                    theirs.close()
                    self.workers.append(_Worker(process, mine))
            except BaseException:
                self._terminate()
                raise
        return self

    def __exit__(self, kind, exc, tb) -> bool:
        if exc is None:
            for worker in self.workers:
                try:
                    worker.conn.send(None)
                except OSError:
                    pass  # already gone
            self._join(STOP_SECONDS)
        with signals_held():  # a second Ctrl-C does not leave workers half stopped
            self._terminate()
        return False

    def idle(self) -> list[_Worker]:
        return [w for w in self.workers if w.task is None]

    def busy(self) -> bool:
        return any(w.task is not None for w in self.workers)

    def submit(self, task: Task) -> None:
        worker = self.idle()[0]
        worker.conn.send((task.function, task.args))
        worker.task = task

    def finished(self) -> list[Any]:
        """Wait until at least one task is done; the result of each task done."""
        busy = [w for w in self.workers if w.task is not None]
        ready = set(connection.wait([w.conn for w in busy] + [w.process.sentinel for w in busy]))
        done = []
        for worker in busy:
            if worker.conn in ready or worker.process.sentinel in ready:
                done.append(self._result(worker))
        return done

    def _result(self, worker: _Worker) -> Any:
        label = worker.task.label
        try:
            status, value, detail = worker.conn.recv()
        except (EOFError, OSError):
            worker.process.join(STOP_SECONDS)
            raise WorkerDied(f"a worker process died (exit code {worker.process.exitcode}) while "
                             f"solving {label}; every finished chunk is kept: rerun the same "
                             "command to resume") from None
        worker.task = None
        if status == "error":
            if isinstance(value, OSError):
                raise BatchError(f"cannot write the part of {label}: "
                                 f"{value.strerror or value}") from None
            value.add_note(f"in the worker solving {label}:\n{detail}")
            raise value
        return value

    def _join(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        for worker in self.workers:
            worker.process.join(max(0.0, deadline - time.monotonic()))

    def _terminate(self) -> None:
        for worker in self.workers:
            if worker.process.is_alive():
                worker.process.terminate()
        self._join(STOP_SECONDS)
        for worker in self.workers:
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
            worker.conn.close()
        self.workers = []


def _worker_main(conn, parent: int, setup: Setup | None) -> None:
    """A worker: run the tasks the parent sends until it sends None (or is gone)."""
    leave_stopping_to_parent()
    exit_with_parent(parent)
    if setup is not None:
        setup[0](*setup[1])
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        function, args = task
        try:
            conn.send(("done", function(*args), ""))
        except Exception as exc:  # sent to the parent, which raises it
            detail = traceback.format_exc()
            try:
                conn.send(("error", exc, detail))
            except Exception:  # an exception that does not pickle
                conn.send(("error", RuntimeError(f"{exc.__class__.__name__}: {exc}"), detail))


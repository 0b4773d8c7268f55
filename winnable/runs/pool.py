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

A worker does not import the caller's ``__main__`` again (``main_left_out``): what it runs is
in winnable's modules (or a game's, imported by name), so a plain script that calls
``solve_batch`` without an ``if __name__ == "__main__":`` guard works as one with it, and no
worker runs the script's top level.  Where the workers do need ``__main__`` (a game registered
from it), spawning imports the script again as usual; if its top level starts workers, that
worker exits at once and the caller gets one line saying to add the guard (``UNGUARDED``).
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import time
import traceback
import types
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing import connection, get_context, resource_tracker
from typing import Any

from ..stopping import exit_with_parent, leave_stopping_to_parent, signals_held
from .spec import BatchError

STOP_SECONDS = 3  # how long a worker may take to exit before it is killed


class WorkerDied(BatchError):
    """A worker process ended while running a task."""


# The exit code of a worker that found itself starting workers of its own while spawning
# imported the caller's script again: the script starts a run from its top level, unguarded.
UNGUARDED = 86
GUARD_ADVICE = ("the script starts worker processes from its top level, which each worker "
                "runs again: put its calls under `if __name__ == \"__main__\":` "
                "(docs/api/batches.md)")
_IN_WORKER = False  # set in a worker process: it never starts workers of its own


class UnguardedScript(BatchError, SystemExit):
    """A script started a run from its top level where its workers import it again (what
    ``GUARD_ADVICE`` says).  It only arises in a script run as a file, which it ends: being a
    ``SystemExit`` too, uncaught it prints its one line and exits with code 1, no traceback."""

    def __init__(self, message: str = GUARD_ADVICE):
        super().__init__(message)
        self.code = f"error: {message}"


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
              setup: Setup | None = None, needs_main: bool = False) -> None:
    """Run the tasks in ``workers`` local processes (default: all cores), or here if one, and
    call ``done(result)`` here for each as it finishes; ``setup``: ``function(*args)`` once in
    each worker (and here) before its first task; ``needs_main``: the workers import the
    caller's ``__main__`` (a task or setup refers to it)."""
    workers = min(workers or os.cpu_count() or 1, len(tasks))
    if workers <= 1:
        if setup is not None and tasks:
            setup[0](*setup[1])
        for task in tasks:
            done(task.function(*task.args))
        return
    queue = deque(tasks)
    with LocalWorkers(workers, setup, needs_main) as pool:
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
    started: bool = False  # it has said so: spawning it (importing what it needs) went well


_STARTED = object()  # what ``_result`` returns for a worker's word that it has started


class LocalWorkers:
    """Worker processes, each running one ``Task`` at a time.  Leaving the ``with`` block ends
    them: after the last task they exit, on an error or a stop they are terminated."""

    def __init__(self, count: int, setup: Setup | None = None, needs_main: bool = False):
        self.count = count
        self.setup = setup
        self.needs_main = needs_main
        self.workers: list[_Worker] = []

    def __enter__(self) -> "LocalWorkers":
        exit_if_spawning()
        if _IN_WORKER:
            raise UnguardedScript()
        context = get_context("spawn")
        # Signals are held back while the workers start: here they arrive right after, and a
        # worker starts with them blocked (the mask survives exec) until it ignores Ctrl-C, so
        # one pressed while its interpreter starts prints nothing there.  The resource tracker
        # (which spawned processes share) is started first: starting it unblocks Ctrl-C.
        resource_tracker.ensure_running()
        with signals_held(), main_left_out(not self.needs_main):
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
        """Wait until something happens; the result of each task done (maybe none)."""
        busy = [w for w in self.workers if w.task is not None]
        ready = set(connection.wait([w.conn for w in busy] + [w.process.sentinel for w in busy]))
        done = []
        for worker in busy:
            if worker.conn in ready or worker.process.sentinel in ready:
                result = self._result(worker)
                if result is not _STARTED:
                    done.append(result)
        return done

    def _result(self, worker: _Worker) -> Any:
        label = worker.task.label
        try:
            status, value, detail = worker.conn.recv()
        except (EOFError, OSError):
            worker.process.join(STOP_SECONDS)
            code = worker.process.exitcode
            if code == UNGUARDED:
                raise UnguardedScript() from None
            if not worker.started:  # the script or a module it imports failed in the worker
                raise WorkerDied(f"a worker process died while starting (exit code {code}), "
                                 "before it solved anything: what failed in it is printed "
                                 "above") from None
            raise WorkerDied(f"a worker process died (exit code {code}) while solving {label}; "
                             "every finished chunk is kept: rerun the same command to "
                             "resume") from None
        if status == "started":
            worker.started = True
            return _STARTED
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


def exit_if_spawning() -> None:
    """What every run (``solve_batch``, ``resolve_file``, ``sweep``) does first: in a worker
    being spawned, which is importing the caller's script again, the script is starting a run
    from its top level, so the worker exits at once, quietly, with ``UNGUARDED``, which the
    caller reports in one line."""
    if getattr(multiprocessing.current_process(), "_inheriting", False):
        os._exit(UNGUARDED)


@contextmanager
def main_left_out(leave_out: bool = True) -> Iterator[None]:
    """While workers are spawned in it, the caller's ``__main__`` is a module without a file
    or spec, so spawning does not import the caller's script again in each worker (as it
    does not for a notebook's ``__main__``)."""
    if not leave_out:
        yield
        return
    main = sys.modules["__main__"]
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        sys.modules["__main__"] = main


def _worker_main(conn, parent: int, setup: Setup | None) -> None:
    """A worker: run the tasks the parent sends until it sends None (or is gone)."""
    global _IN_WORKER
    _IN_WORKER = True
    conn.send(("started", None, ""))
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


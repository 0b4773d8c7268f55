"""The one way a run stops: Ctrl-C, SIGTERM and SIGHUP end it within seconds, every finished
chunk kept and no process left behind, and the same command resumes it.

How: SIGTERM and SIGHUP raise ``Stopped`` in the main thread, as Ctrl-C raises
``KeyboardInterrupt``.  The exception unwinds the run: the worker pool (``winnable.runs.pool``)
ends its workers on the way out and nothing half written is renamed into place, so what is
stored stays what was finished.  Then one line says so, and the program exits with 128 + the
signal's number (130 for Ctrl-C).  Its users:

* the command line (``winnable.cli``): each command that runs a batch, an escalation or a sweep
  runs inside ``one_line_on_stop()``;
* the experiment scripts (``experiments/``): ``scripts_stop_in_one_line()`` once at the start
  (through ``experiments/common.py``'s ``arguments``, or called directly);
* the worker pool: ``signals_held`` while workers start or are ended, and in each worker
  ``leave_stopping_to_parent`` and ``exit_with_parent``.

Workers do not catch these signals: a worker ignores Ctrl-C (a terminal sends it to every
process of the job, and the parent decides), and SIGTERM or SIGHUP kill it at once, even inside
a compiled kernel, where a Python handler would run only when the kernel returns.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time
from contextlib import contextmanager

RESUME = "every finished chunk is kept; rerun the same command to resume"
INTERRUPTED = 128 + signal.SIGINT
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)  # stop as Ctrl-C does
HELD_SIGNALS = {signal.SIGINT, *STOP_SIGNALS}


class Stopped(BaseException):
    """SIGTERM or SIGHUP arrived: stop as Ctrl-C stops a run."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def raise_stopped(signum, frame):
    """The handler of ``STOP_SIGNALS``: they stop a run as Ctrl-C does."""
    raise Stopped(signum)


def stop_report(stop: BaseException) -> tuple[str, int]:
    """The one line and the exit code of a run stopped by Ctrl-C or by ``Stopped``: 128 + the
    signal's number."""
    if isinstance(stop, Stopped):
        return (f"stopped by {signal.Signals(stop.signum).name}: {RESUME}",
                128 + stop.signum)
    return f"interrupted: {RESUME}", INTERRUPTED


@contextmanager
def one_line_on_stop():
    """A command's block: SIGTERM and SIGHUP stop it as Ctrl-C does (finished chunks kept,
    workers ended), then one line and exit code 128 + the signal's number (Ctrl-C: 130)."""
    saved = {s: signal.signal(s, raise_stopped) for s in STOP_SIGNALS}
    try:
        yield
    except (KeyboardInterrupt, Stopped) as stop:
        line, code = stop_report(stop)
        print(line, file=sys.stderr, flush=True)
        sys.exit(code)
    finally:
        for s, handler in saved.items():
            signal.signal(s, handler)


def scripts_stop_in_one_line() -> None:
    """For a whole script (``experiments/``): Ctrl-C, SIGTERM and SIGHUP stop it as they stop
    a command, the run's finished chunks kept and its workers ended while the exception
    unwinds; then the one line (no traceback) and the exit code.  Rerunning resumes."""
    for s in STOP_SIGNALS:
        signal.signal(s, raise_stopped)
    shown = sys.excepthook

    def hook(kind, value, trace):
        if issubclass(kind, (KeyboardInterrupt, Stopped)):
            line, code = stop_report(value)
            print(line, file=sys.stderr, flush=True)
            sys.stdout.flush()
            os._exit(code)  # the run has unwound: nothing is left to finish
        shown(kind, value, trace)

    sys.excepthook = hook


class signals_held:
    """Hold back Ctrl-C, SIGTERM and SIGHUP in the block; they arrive when it ends (so that
    starting or ending workers is never left half done).  The mask alone is not enough: it is
    the calling thread's, and with another thread running (a progress bar's monitor) the kernel
    hands the signal to that thread, after which Python runs the handler in the main thread
    anyway, e.g. in the middle of ``Process.start()`` (the child then dies reading half its
    start-up data, with a traceback).  So in the main thread the handlers are also replaced by
    one that notes the signal, which is raised again when the block ends."""

    def __enter__(self):
        self.saved = signal.pthread_sigmask(signal.SIG_BLOCK, HELD_SIGNALS)
        self.handlers, self.arrived = {}, []
        if threading.current_thread() is threading.main_thread():
            for signum in HELD_SIGNALS:
                handler = signal.getsignal(signum)
                if handler is not None:
                    self.handlers[signum] = signal.signal(signum, self._note)

    def _note(self, signum, frame):
        self.arrived.append(signum)

    def __exit__(self, *exc):
        for signum, handler in self.handlers.items():
            signal.signal(signum, handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, self.saved)
        for signum in dict.fromkeys(self.arrived):
            signal.raise_signal(signum)
        return False


# --- in a worker process ------------------------------------------------------------------------

WATCH_SECONDS = 0.5  # how often a worker checks that its parent is alive
PR_SET_PDEATHSIG = 1


def leave_stopping_to_parent() -> None:
    """A worker ignores Ctrl-C (the parent decides when a run stops, and ends its workers) and
    leaves SIGTERM and SIGHUP to their default, which ends it at once, inside compiled code
    too.  It starts with the signals held (``signals_held`` in the parent: the mask survives
    exec), released here."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, HELD_SIGNALS)


def exit_with_parent(parent: int) -> None:
    """End this process when its parent (pid ``parent``) dies, even by kill -9: on Linux the
    kernel kills it at once (PR_SET_PDEATHSIG), and everywhere a watchdog thread sees the
    parent gone within ``WATCH_SECONDS``."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass  # not Linux: the watchdog alone
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(WATCH_SECONDS)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="parent-watchdog", daemon=True).start()

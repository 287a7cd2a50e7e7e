"""How long a worker process lives: never longer than the process that started it.

A worker holds the run's stdout and stderr open; one that outlived a killed main process would
keep the caller (a pipe, pre-commit, a CI step, an editor) waiting for an end of file that
never comes. So each worker, as it starts:
- asks Linux to send it SIGKILL when its parent dies (`prctl(PR_SET_PDEATHSIG)`, through
  ctypes), whatever killed the parent, SIGKILL included;
- elsewhere (or if that call fails) watches its parent on a thread: the end of a pipe whose
  other end only the parent holds (multiprocessing's parent sentinel, under `spawn`), or else
  the parent's pid, and exits at once when it goes;
- ignores SIGINT: a Ctrl-C in a terminal reaches the whole process group, and it is the main
  process's to handle (it ends its workers itself); SIGTERM kills it, as by default.

The main process keeps the workers it started in LIVE, so a signal handler can end them all.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from multiprocessing.process import BaseProcess

_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
_WATCH_SECONDS = 0.5

LIVE: dict[int, BaseProcess] = {}  # pid -> a worker of this process, while it runs


def bind_to_parent(parent_pid: int, forked: bool) -> None:
    """In a worker, first thing: die with the parent, leave Ctrl-C to it. `forked`: started by
    fork, so its siblings hold copies of the parent's pipe ends (the pid is watched instead)."""
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        # A forked worker inherits the main process's SIGTERM handler (cli/signals.py); a
        # worker killed from outside dies of the signal, which the main process then names.
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    except (ValueError, OSError):  # not the main thread of the worker: nothing to change
        pass
    if not _death_signal():
        _watch(parent_pid, forked)
    if os.getppid() != parent_pid:  # the parent died before the watch began
        os._exit(1)


def _death_signal() -> bool:
    """PR_SET_PDEATHSIG on Linux; False where it is not to be had."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def _watch(parent_pid: int, forked: bool) -> None:
    import multiprocessing

    parent = multiprocessing.parent_process()
    sentinel = parent.sentinel if parent is not None and not forked else None

    def watch() -> None:
        if sentinel is not None:
            # Under spawn the write end is the parent's alone: readable means it is gone.
            from multiprocessing.connection import wait

            wait([sentinel])
            os._exit(1)
        while os.getppid() == parent_pid:  # forked siblings share the pipe: poll the pid
            threading.Event().wait(_WATCH_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="replaylint-parent-watch", daemon=True).start()


def started(process: BaseProcess) -> None:
    if process.pid is not None:
        LIVE[process.pid] = process


def ended(process: BaseProcess) -> None:
    if process.pid is not None:
        LIVE.pop(process.pid, None)


def end_all() -> None:
    """SIGKILL every live worker of this process and reap them: nothing of theirs is kept
    (their batch is lost with the run), and nothing is left holding the run's output."""
    for process in list(LIVE.values()):
        try:
            process.kill()
        except (OSError, ValueError, AttributeError):
            pass
    for process in list(LIVE.values()):
        try:
            process.join(timeout=2)
        except (OSError, ValueError, AssertionError):
            pass
    LIVE.clear()

"""Worker processes that run one task at a time each, and say so when one dies.

concurrent.futures' pool fails every pending task at once when one worker dies
(BrokenProcessPool), without saying which task killed it. Here each worker has a pipe of its
own and runs one task at a time, so a death is pinned to the task it was running: that task
comes back as a Death naming the cause (memory, a signal, an exit status), every other task's
result is kept, and a fresh worker takes the place of the dead one. What to do with a task
that died is the caller's choice (survival.py retries and splits).

On the way out the workers are asked to stop, or, when the run is cut short (an exception, a
signal), killed and reaped at once, so nothing outlives the run holding its output open.
"""

from __future__ import annotations

import os
import signal
from collections import deque
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from types import TracebackType
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from replaylint.core.compiled_methods import keep_now
from replaylint.index import lifetime, limits

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.context import BaseContext
    from multiprocessing.process import BaseProcess


K = TypeVar("K", bound=Hashable)  # what a task is known by


@dataclass(frozen=True)
class Death:
    """Why the worker running a task died: `cause` is "memory", "signal" or "exit"."""

    cause: str
    detail: str  # a sentence fragment: "ran out of memory (...)", "was killed by SIGKILL (9)"


class WorkerError(Exception):
    """A task raised in its worker (a bug of ours): its type and message, as the worker saw it."""


@dataclass
class _Worker(Generic[K]):
    process: BaseProcess
    conn: Connection
    key: K | None = None  # the task it runs, None while idle
    oom_before: int = 0


def _serve(conn: Connection, parent_pid: int, forked: bool) -> None:
    """A worker's life: tasks (function, arguments) in, (ok, result or error) out, until told
    to stop or its pipe closes."""
    lifetime.bind_to_parent(parent_pid, forked)
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        function, arguments = message
        try:
            outcome: tuple[bool, Any] = (True, function(*arguments))
        except Exception as error:  # handed back; the main process decides what it means
            outcome = (False, f"{type(error).__name__}: {error}")
        keep_now()  # before the answer: a worker the main process ends once answered has written
        conn.send(outcome)


class Workers(Generic[K]):
    """Up to `size` worker processes of `context`, started as tasks need them."""

    def __init__(self, size: int, context: BaseContext) -> None:
        self._size = max(1, size)
        self._context = context
        self._forked = context.get_start_method() == "fork"
        self._queue: deque[tuple[K, Callable[..., Any], tuple[Any, ...]]] = deque()
        self._workers: list[_Worker[K]] = []

    def __enter__(self) -> Workers[K]:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close(kill=kind is not None)

    def submit(self, key: K, function: Callable[..., Any], *arguments: Any) -> None:
        """Queue a task; `function` must be importable by name (it is pickled by reference)."""
        self._queue.append((key, function, arguments))

    def idle(self) -> bool:
        """No task queued or running."""
        return not self._queue and all(w.key is None for w in self._workers)

    def begin(self) -> None:
        """Hand the queued tasks to workers now (started as needed), not when results() is
        first asked for."""
        self._dispatch()

    def results(self) -> Iterator[tuple[K, Any]]:
        """(key, result or Death) as tasks end, until none is queued or running; tasks may be
        submitted while this is iterated. A task that raised raises WorkerError here."""
        from multiprocessing.connection import wait

        while True:
            self._dispatch()
            busy = [w for w in self._workers if w.key is not None]
            if not busy:
                return
            ready = set(wait([w.conn for w in busy] + [w.process.sentinel for w in busy]))
            for worker in busy:
                if worker.conn in ready or worker.process.sentinel in ready:
                    yield self._collect(worker)

    def close(self, kill: bool = False) -> None:
        """Stop every worker: asked politely after a finished run, killed when cut short."""
        for worker in self._workers:
            if kill:
                _kill(worker.process)
            else:
                try:
                    worker.conn.send(None)
                except (OSError, ValueError):
                    _kill(worker.process)
        for worker in self._workers:
            worker.process.join(timeout=None if kill else 5)
            if worker.process.is_alive():
                _kill(worker.process)
                worker.process.join()
            self._retire(worker)
        self._workers = []

    # ------------------------------------------------------------------ inside

    def _dispatch(self) -> None:
        while self._queue:
            worker = next((w for w in self._workers if w.key is None), None)
            if worker is not None and not worker.process.is_alive():
                self._workers.remove(worker)  # died between tasks: nothing of it is lost
                self._retire(worker)
                continue
            if worker is None:
                if len(self._workers) >= self._size:
                    return
                worker = self._start()
            key, function, arguments = self._queue.popleft()
            worker.key, worker.oom_before = key, limits.oom_kills()
            try:
                worker.conn.send((function, arguments))
            except (OSError, ValueError):
                pass  # it died between tasks: its sentinel says so, and the task comes back

    def _start(self) -> _Worker[K]:
        mine, theirs = self._context.Pipe()
        process = self._context.Process(  # type: ignore[attr-defined]
            target=_serve,
            args=(theirs, os.getpid(), self._forked),
            name="replaylint-worker",
            daemon=True,
        )
        process.start()
        lifetime.started(process)
        theirs.close()  # the worker's end is the worker's alone: its death reads as EOF here
        worker: _Worker[K] = _Worker(process, mine)
        self._workers.append(worker)
        return worker

    def _collect(self, worker: _Worker[K]) -> tuple[K, Any]:
        key = worker.key
        assert key is not None  # only busy workers are collected
        worker.key = None
        try:
            if worker.conn.poll():
                ok, value = worker.conn.recv()
                if not ok:
                    raise WorkerError(value)
                return key, value
        except (EOFError, OSError):
            pass
        worker.process.join()
        death = _death(worker.process.exitcode, limits.oom_kills() > worker.oom_before)
        self._workers.remove(worker)
        self._retire(worker)
        return key, death

    def _retire(self, worker: _Worker[K]) -> None:
        lifetime.ended(worker.process)
        worker.conn.close()


def _kill(process: BaseProcess) -> None:
    try:
        process.kill()
    except (OSError, ValueError, AttributeError):
        pass


# How a process dies when an allocation fails under `ulimit -v`: LibCST's native parser aborts.
_FAILED_ALLOCATION = {signal.SIGABRT, signal.SIGSEGV, getattr(signal, "SIGBUS", signal.SIGSEGV)}


def _death(exitcode: int | None, out_of_memory: bool) -> Death:
    if exitcode is not None and exitcode < 0:
        name = _signal_name(-exitcode)
        if out_of_memory:
            return Death("memory", f"ran out of memory (the out-of-memory killer sent {name})")
        limit = limits.address_space_limit()
        if -exitcode in _FAILED_ALLOCATION and limit is not None:
            return Death(
                "memory",
                f"ran out of memory (an allocation failed under the address-space limit of "
                f"{limit >> 20:,} MB; {name})",
            )
        return Death("signal", f"was killed by signal {name}")
    if out_of_memory:
        return Death("memory", "ran out of memory")
    return Death("exit", f"exited with status {exitcode}")


def _signal_name(number: int) -> str:
    try:
        return f"{signal.Signals(number).name} ({number})"
    except ValueError:
        return str(number)

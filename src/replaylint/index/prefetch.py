"""A worker that imports LibCST and the engine while the run is still deciding what to check.

A run with an index checks only what changed, often one module: on its own that is a batch for
this process, which then pays for importing LibCST and the engine (about 80 ms) after the scan
has decided what changed (the framework records and their patterns, about 30 ms). Forked when
the scan meets the first file the index does not know (or as the command starts, when it names
files: pre-commit names those a commit changes), a worker does that import on another core
meanwhile, and the batch is checked there: the same function on the same candidates, so the
same records. A run that finds nothing changed never starts one (forking costs a warm run about
10 ms); one whose batches go to a pool of their own ends it first (running.py).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from replaylint.index.workers import Death, WorkerError, Workers

_UNUSED = object()


class Prefetched:
    """The forked worker, once the command has started one (start())."""

    workers: Workers[int] | None = None
    allowed = False  # by the command, for this run: it has an index and more than one job
    _keys = itertools.count(1)

    @classmethod
    def allow(cls) -> None:
        cls.allowed = True

    @classmethod
    def start(cls) -> None:
        """Fork the worker, once per run that allowed it."""
        if not cls.allowed or cls.workers is not None:
            return
        cls.allowed = False
        from replaylint.index.pools import pool_context

        context = pool_context()
        if context.get_start_method() != "fork":
            return  # a spawned worker imports everything anew: nothing is gained
        workers: Workers[int] = Workers(1, context)
        workers.submit(0, warm_up)
        try:
            workers.begin()
        except OSError:  # no process to be had (a limit on processes): the run does without
            workers.close(kill=True)
            return
        cls.workers = workers

    @classmethod
    def stop(cls) -> None:
        """End it: killed while it still imports (a polite close would wait for that), asked
        to stop once idle (so that it is never killed while writing what it compiled)."""
        cls.allowed = False
        if cls.workers is not None:
            cls.workers.close(kill=not cls.workers.idle())
            cls.workers = None

    @classmethod
    def run(cls, function: Callable[..., Any], *arguments: Any) -> Any:
        """function(*arguments) in the worker, or _UNUSED when there is none or it died (the
        caller then runs it itself, as it would have without one)."""
        workers = cls.workers
        if workers is None:
            return _UNUSED
        key = next(cls._keys)
        workers.submit(key, function, *arguments)
        answer: Any = _UNUSED
        try:
            for done, result in workers.results():
                if done == key and not isinstance(result, Death):
                    answer = result
        except WorkerError:
            answer = _UNUSED  # raised there: raised again here, where it is reported
        if answer is _UNUSED:
            cls.stop()
        return answer


def unused(answer: Any) -> bool:
    return answer is _UNUSED


def warm_up() -> None:
    """Import what checking a batch imports, and read what its Project reads whatever the
    settings: the catalog and the framework records it adds to (15-25 ms, once per process).
    The worker is forked before the scan first needs the records, so it reads them itself,
    and would otherwise do so only once the batch has arrived."""
    import replaylint.engine.check  # noqa: F401
    from replaylint.resolve.catalog import default_catalog

    default_catalog()

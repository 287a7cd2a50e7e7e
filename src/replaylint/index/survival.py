"""Batches over worker processes that survive their workers: a batch whose worker dies is run
again in a fresh worker; dying again, it is split in halves, and each half that dies is split
again, until the one module that kills it is found. That module is reported as ADK-E001
naming the cause (memory, a signal), and every other module is checked and reported.

A second death is the evidence that a batch, not an accident, kills its worker: a worker
killed from outside once costs one batch run again; the output is the same either way,
since a module's record does not depend on the batch it was checked in.
"""

from __future__ import annotations

import hashlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from replaylint.core.codes import Code
from replaylint.core.findings import Finding, Span
from replaylint.engine.records import FAILED, Record
from replaylint.index.workers import Death, Workers

if TYPE_CHECKING:
    from multiprocessing.context import BaseContext

    from replaylint.project.config import Config

Candidate = tuple[str, str, bytes]
CheckBatch = Callable[["Config", list[Candidate]], list[Record]]
Key = tuple[int, ...]  # a batch's number, then 0/1 for each halving: sorts in batch order

_REMEDIES = {
    "memory": "give the check more memory, or fewer --jobs, or split the module; it was not "
    "checked",
    "signal": "run the check again; the module was not checked",
    "exit": "run the check again; the module was not checked",
}


@dataclass(frozen=True)
class Batch:
    own: list[Candidate]  # the candidates it checks

    def task(self) -> list[Candidate]:
        return self.own

    def halves(self) -> tuple[Batch, Batch]:
        middle = len(self.own) // 2
        return Batch(self.own[:middle]), Batch(self.own[middle:])


def check_surviving(
    batches: list[Batch],
    config: Config,
    check: CheckBatch,
    processes: int,
    context: BaseContext,
    tick: Callable[[], None] | None = None,
    choose: Callable[[int], CheckBatch] | None = None,
    finished: Callable[[int, list[Record]], None] | None = None,
    leading: int = 0,
) -> list[list[Record]]:
    """The records of every batch, one list per batch in batch order (a halved batch's halves
    together), whatever worker died on the way. `check(config, candidates)` runs in a worker;
    `tick()` once per candidate done.

    A batch waits in line until a worker is free, and `choose(n)`, when given, picks the check
    of batch n only then (what the batches before it found may change it); `finished(n,
    records)` is called as each batch is complete. The first `leading` batches go first."""
    done: dict[Key, list[Record]] = {}
    running: dict[Key, tuple[Batch, int]] = {}  # key -> (batch, deaths so far)
    workers: Workers[Key] = Workers(processes, context)
    with workers:

        def submit(key: Key, batch: Batch, deaths: int) -> None:
            running[key] = (batch, deaths)
            function = choose(key[0]) if choose is not None else check
            workers.submit(key, function, config, batch.task())

        waiting = _line(batches, leading)

        def fill() -> None:
            while waiting and len(running) < processes:
                number = waiting.popleft()
                submit((number,), batches[number], 0)

        fill()
        for key, outcome in workers.results():
            batch, deaths = running.pop(key)
            if not isinstance(outcome, Death):
                done[key] = outcome
            elif deaths == 0:
                submit(key, batch, 1)  # once more, in a fresh worker
                continue
            elif len(batch.own) > 1:
                first, second = batch.halves()
                submit((*key, 0), first, 1)
                submit((*key, 1), second, 1)
                continue
            else:
                done[key] = [died(batch.own[0], outcome)]
            if tick is not None:
                for _ in batch.own:
                    tick()
            if finished is not None and not any(k[0] == key[0] for k in running):
                finished(key[0], [r for k in sorted(done) if k[0] == key[0] for r in done[k]])
            fill()
    apart: list[list[Record]] = [[] for _ in batches]
    for key in sorted(done):
        apart[key[0]].extend(done[key])
    return apart


def died(candidate: Candidate, death: Death) -> Record:
    """ADK-E001 for the module whose check killed its worker again and again."""
    return unchecked(candidate, f"not checked: the process checking it {death.detail}", death.cause)


def unchecked(candidate: Candidate, reason: str, cause: str = "memory") -> Record:
    """ADK-E001 for a module left unchecked for want of memory (or of a worker). Not cached:
    the next run, with more memory perhaps, tries it again."""
    from replaylint.engine.project import module_key  # LibCST: only when a module is left

    path, display, data = candidate
    finding = Finding(Code.E001, display, Span(1, 0, 1, 0), reason, _REMEDIES[cause])
    return Record(
        str(module_key(Path(path))),
        display,
        hashlib.sha256(data).hexdigest(),
        FAILED,
        findings=[finding],
        cacheable=False,
    )


def _line(batches: list[Batch], leading: int) -> deque[int]:
    """The order batches are handed out: the leading ones, then the others, each the largest
    first, so no worker is left with a big one at the end."""

    def by_size(numbers: range) -> list[int]:
        return sorted(numbers, key=lambda i: -_size(batches[i].own))

    return deque([*by_size(range(leading)), *by_size(range(leading, len(batches)))])


def _size(candidates: list[Candidate]) -> int:
    return sum(len(data) for _, _, data in candidates)

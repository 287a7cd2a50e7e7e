"""Batches run serially in this process, or over worker processes that survive one another's
deaths (survival.py): the same batches either way, so the same records."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from replaylint.engine.records import Record
from replaylint.index.pools import IN_PROCESS_BYTES, pool_context, processes_for
from replaylint.index.prefetch import Prefetched, unused

if TYPE_CHECKING:
    from replaylint.project.config import Config

Candidate = tuple[str, str, bytes]
# check(config, candidates, tick): a module-level function (or a partial of one), since a
# worker receives it pickled by reference.
Check = Callable[..., list[Record]]


def run_batches(
    batches: list[list[Candidate]],
    config: Config,
    check: Check,
    jobs: int,
    tick: Callable[[], None] | None,
    limit: int | None,
) -> list[Record]:
    """Every batch's records, in batch order; `tick()` once per candidate checked."""
    apart = run_batches_apart(batches, config, check, jobs, tick, limit)
    return [record for records in apart for record in records]


def run_batches_apart(
    batches: list[list[Candidate]],
    config: Config,
    check: Check,
    jobs: int,
    tick: Callable[[], None] | None,
    limit: int | None,
    choose: Callable[[int], Check] | None = None,
    finished: Callable[[int, list[Record]], None] | None = None,
    leading: int = 0,
    pooled: bool = False,
) -> list[list[Record]]:
    """run_batches' records, one list per batch. `choose(n)` picks batch n's check as it
    starts, `finished(n, records)` is told as it ends, and the first `leading` batches start
    first (survival.check_surviving). `pooled`: with more than one job, even a lone batch is
    checked in a worker (one checked again, whose first check a worker may not have survived:
    here, a module that kills its process would end the run)."""
    largest = max((len(data) for own in batches for _, _, data in own), default=0)
    alone = len(batches) <= 1 and not pooled
    if (jobs <= 1 or alone) and largest < IN_PROCESS_BYTES:
        apart = []
        for number, own in enumerate(batches):
            chosen = choose(number) if choose is not None else check
            # In the prefetched worker, when the run started one: it has imported LibCST and
            # the engine meanwhile (prefetch.py).
            records = Prefetched.run(chosen, config, own)
            if unused(records):
                records = chosen(config, own, tick)
            elif tick is not None:
                for _ in own:
                    tick()
            if finished is not None:
                finished(number, records)
            apart.append(records)
        return apart
    # A module too large to parse here without keeping Ctrl-C waiting goes to a worker, alone.
    from replaylint.index.survival import Batch, check_surviving

    Prefetched.stop()  # the batches have a pool of their own: no process beside it

    heaviest = max(sum(len(c[2]) for c in own) for own in batches)
    processes = processes_for(max(1, jobs), len(batches), largest, heaviest, limit)
    surviving = [Batch(own) for own in batches]
    context = pool_context()
    return check_surviving(
        surviving, config, check, processes, context, tick, choose, finished, leading
    )

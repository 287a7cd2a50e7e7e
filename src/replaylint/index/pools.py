"""The processes a run may use: how many (the CPUs and the memory it is allowed), how they
start, and which modules are too large to check in the memory there is.

The memory a check needs is predicted from the sizes of the modules, with figures measured by
bench/parse_memory.py (the README's "Awkward inputs" states them): checking a module peaks at
about PEAK_PER_BYTE bytes per byte of its source above what its process holds already, and a
batch keeps about RETAINED_PER_BYTE per byte of each module it has read until it ends.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from replaylint.index import limits

if TYPE_CHECKING:
    from multiprocessing.context import BaseContext

MIB = 1 << 20
PEAK_PER_BYTE = 600  # the whole check of one module (LibCST's parse is most of it)
RETAINED_PER_BYTE = 45  # trees, walks and records a batch keeps until it ends
WORKER_BASE = 48 * MIB  # a forked worker's own pages before its first batch
MAIN_BASE = 96 * MIB  # the main process: the interpreter, LibCST, the scan's data
CHECK_STACK = 256 * MIB  # the stack the check's thread reserves (engine/check.py)
# LibCST's native parser holds the interpreter lock while it builds a module's tree (3 s and
# more for 1 MiB on a loaded box). In the main process that long a hold keeps the handler of
# Ctrl-C or SIGTERM (cli/signals.py) from running; so a module this large is checked in a
# worker, even alone, and the main process only waits for its answer.
IN_PROCESS_BYTES = 128 * 1024


def default_jobs() -> int:
    """Every CPU this process may run on (its affinity, and a cgroup's CPU quota); the memory
    limit is applied once the modules' sizes are known (processes_for)."""
    return limits.cpu_count()


def need(largest: int, batch_bytes: int) -> int:
    """Predicted peak bytes of a worker checking a batch of `batch_bytes` whose largest module
    has `largest` bytes."""
    return WORKER_BASE + PEAK_PER_BYTE * largest + RETAINED_PER_BYTE * batch_bytes


def processes_for(
    jobs: int, batches: int, largest: int, batch_bytes: int, limit: int | None
) -> int:
    """How many workers to start: no more than asked, than there are batches, or than the
    memory `limit` (limits.memory_limit) can hold at once, each at the peak of the largest
    batch (at least one)."""
    count = min(jobs, batches)
    if limit is not None:
        count = min(count, (limit - MAIN_BASE) // max(1, need(largest, batch_bytes)))
    return max(1, count)


def too_large(size: int, limit: int | None, room: int | None = None) -> str | None:
    """Why a module of `size` bytes cannot be checked in the memory there is, or None: its
    predicted peak is more than the memory `limit` leaves (limits.memory_limit), or than the
    address space `room` a process has left under `ulimit -v` (limits.address_space_room,
    less the stack of the thread that checks). A module under both may still be killed; the
    run survives that, and reports the module."""
    peak = need(size, size)
    if limit is not None and MAIN_BASE + peak > limit:
        return (
            f"memory: checking its {size:,} bytes needs about {peak // MIB:,} MB, more than "
            f"the memory limit of {limit // MIB:,} MB allows"
        )
    if room is not None and peak - WORKER_BASE + CHECK_STACK > room:
        return (
            f"memory: checking its {size:,} bytes needs about {peak // MIB:,} MB, more than "
            f"the {max(0, room - CHECK_STACK) // MIB:,} MB left under the address-space limit "
            "(ulimit -v)"
        )
    return None


def pool_context() -> BaseContext:
    """fork where it is safe and cheap (Linux: a worker starts with what this process has
    imported already); elsewhere the platform's default."""
    import multiprocessing

    if sys.platform == "linux" and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()

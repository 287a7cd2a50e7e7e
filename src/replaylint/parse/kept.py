"""The trees a batch keeps, out of the cyclic collector's full passes while it keeps them.

A batch keeps every module it parses until it ends (pools.RETAINED_PER_BYTE). CPython's
collector makes a full pass each time the objects that outlived its younger passes have grown
by a quarter, and a full pass visits every node of every tree kept so far: on pydantic-ai's
one large batch, twelve passes during its parses took 2.4 s of a 10 s run. Nothing in a tree
changes once parsed, so while a batch runs (`batch()`), each module loaded moves what is alive
into the collector's permanent generation (`gc.freeze`), which its passes skip; when the batch
ends, all of it goes back (`gc.unfreeze`) and is freed as before. What was garbage at a load
waits for the end of its batch: small beside the trees (peak memory as before on four real
trees; bench/where_time_goes.md).

A process that has frozen objects of its own (the editor server, after warming up) keeps its
collector as it set it: its batches are small (a module and its helpers), and putting its own
objects back would cost it a full pass after each check.
"""

from __future__ import annotations

import gc
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_LOCK = threading.Lock()
_batches = 0  # batches under way in this process, in every thread
_freezing = False  # whether they freeze: nothing was frozen when the first of them began


@contextmanager
def batch() -> Iterator[None]:
    """One batch's check: modules loaded meanwhile are kept out of full passes until the last
    batch under way in the process ends."""
    global _batches, _freezing
    with _LOCK:
        _batches += 1
        if _batches == 1:
            _freezing = gc.get_freeze_count() == 0
    try:
        yield
    finally:
        with _LOCK:
            _batches -= 1
            if _batches == 0 and _freezing:
                gc.unfreeze()


def _forked() -> None:
    """A child forked while another thread of its parent ran a batch (an API caller's threads):
    it runs none of its parent's batches, so it starts with none under way, a lock nobody
    holds, and nothing of theirs frozen (a worker that kept it would never free it)."""
    global _LOCK, _batches, _freezing
    _LOCK = threading.Lock()
    if _batches and _freezing:
        gc.unfreeze()
    _batches = 0
    _freezing = False


if hasattr(os, "register_at_fork"):  # no fork on Windows
    os.register_at_fork(after_in_child=_forked)


def loaded() -> None:
    """A module was parsed: inside a batch, what is alive now stays out of full passes."""
    if _batches and _freezing:
        gc.freeze()

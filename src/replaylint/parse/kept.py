"""The trees a batch keeps, out of the cyclic collector's full passes while it keeps them.

A batch keeps every module it parses until it ends (pools.RETAINED_PER_BYTE). CPython's
collector makes a full pass each time the objects that outlived its younger passes have grown
by a quarter, and a full pass visits every node of every tree kept so far: on pydantic-ai's
one large batch, twelve passes during its parses took 2.4 s of a 10 s run. Nothing in a tree
changes once parsed, so while a batch of the command's run is checked (`batch()`), each module
loaded moves what is alive into the collector's permanent generation (`gc.freeze`), which its
passes skip; when the batch ends, all of it goes back (`gc.unfreeze`). What was garbage at a
load waits for the end of its batch, and the batch itself is garbage then, in cycles
(a module and its functions point at each other): the next batch in the process collects it
before its first load, which would freeze it again with the living (bench/where_time_goes.md).

Only the command's run does this (`wanted(True)`, inherited by the workers it forks). A
caller of the API, the editor server or the MCP tools keep the collector as they set it: their
threads may check batches side by side, and one thread's loads would freeze another's garbage
for as long as any batch is under way. So does a process that has frozen objects of its own.
"""

from __future__ import annotations

import gc
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_LOCK = threading.Lock()
_wanted = False  # by the command, for its run (wanted)
_batches = 0  # batches under way in this process, in every thread
_freezing = False  # whether they freeze: wanted, and nothing frozen when the first began
_garbage = False  # a freezing batch ended since the last full pass: its trees wait in cycles


def wanted(yes: bool) -> None:
    """Set by the command for its run (cli/check.py), and unset when the run ends."""
    global _wanted
    _wanted = yes


@contextmanager
def batch() -> Iterator[None]:
    """One batch's check: modules loaded meanwhile are kept out of full passes until the last
    batch under way in the process ends."""
    global _batches, _freezing, _garbage
    counted = False
    try:
        with _LOCK:
            _batches += 1
            counted = True
            if _batches == 1:
                _freezing = _wanted and gc.get_freeze_count() == 0
                if _freezing and _garbage:
                    gc.collect()  # the batches before: freed, not frozen by the first load
                    _garbage = False
        yield
    finally:
        if counted:
            with _LOCK:
                _batches -= 1
                if _batches == 0 and _freezing:
                    gc.unfreeze()
                    _garbage = True


def _forked() -> None:
    """A child forked while another thread of its parent ran a batch: it runs none of its
    parent's batches, so it starts with none under way, a lock nobody holds, and nothing of
    theirs frozen (a worker that kept it would never free it). What its parent's batches left
    to collect, it collects before its own first load."""
    global _LOCK, _batches, _freezing, _garbage
    _LOCK = threading.Lock()
    if _batches and _freezing:
        gc.unfreeze()
        _garbage = True  # the parent's batch, which the child will never end: collected first
    _batches = 0
    _freezing = False


if hasattr(os, "register_at_fork"):  # no fork on Windows
    os.register_at_fork(after_in_child=_forked)


def loaded() -> None:
    """A module was parsed: inside a freezing batch, what is alive now stays out of full
    passes until the batch ends."""
    if _batches and _freezing:
        gc.freeze()

"""Silencing warnings around one call, without racing another thread that does the same.

`warnings.catch_warnings` swaps the process's filter list and puts the old one back on exit;
two threads doing so at once can restore each other's, leaving "ignore" behind for good. Ours
take turns through one lock (each use wraps a single compile, parse or regex build).
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager

_LOCK = threading.RLock()


@contextmanager
def quiet(category: type[Warning] = Warning) -> Iterator[None]:
    with _LOCK, warnings.catch_warnings():
        warnings.simplefilter("ignore", category)
        yield

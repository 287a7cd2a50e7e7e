"""Which workflow modules reach a document, as `replaylint check FILE` finds them (its project
walked through the index), and what checking them with the open buffers says about the
document: the roots in its own lines, and the workflow call sites that lead there."""

from __future__ import annotations

import logging
import os
import threading
from dataclasses import dataclass
from pathlib import Path

from replaylint.api import run
from replaylint.index.cache import Cache, default_root
from replaylint.project.config import Resolver

log = logging.getLogger("replaylint.server")


@dataclass(frozen=True)
class Reach:
    """A call in a workflow module that leads to a line of the document (related information)."""

    path: str  # the workflow module, as reports name it
    line: int
    call: str


class Reachers:
    """The workflow modules (absolute paths) that reach each file on disk, worked out once per
    generation of the disk state; the index makes each answer cheap after the first."""

    def __init__(self) -> None:
        self._known: dict[tuple[str, int], tuple[str, ...]] = {}
        self._lock = threading.Lock()

    def of(self, path: str, resolver: Resolver, generation: int) -> tuple[str, ...]:
        key = (os.path.realpath(path), generation)
        with self._lock:
            known = self._known.get(key)
        if known is not None:
            return known
        found: tuple[str, ...] = ()
        if os.path.isfile(path):  # a buffer never saved has no workflow reaching it yet
            cache = Cache(default_root(Path(path)))
            outcome = run([path], resolver=resolver, cache=cache, jobs=1)
            found = tuple(sorted(os.path.abspath(m.path) for m in outcome.modules))
        with self._lock:
            self._known = {k: v for k, v in self._known.items() if k[1] == generation}
            self._known[key] = found
        return found

    def warm(self, root: str, resolver: Resolver) -> None:
        """Build the index of a workspace (at start-up, in the background), so that the first
        question about any file of it costs what later ones do."""
        cache = Cache(default_root(Path(root)))
        outcome = run([root], resolver=resolver, cache=cache, jobs=1)
        log.info("index of %s warmed: %d workflow modules", root, len(outcome.modules))

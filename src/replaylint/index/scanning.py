"""Reading and deciding a group's files: what the index remembers of unchanged ones, and for
the rest the byte prefilter and the ast gate; over several processes when the tree is large.

A decision is (path, verdict, bytes of a candidate, its hash, its stat stamp): everything the
index needs to remember the file, and the engine to check it. Only candidates are hashed,
since only their records are looked up by hash; a dependency that is not a candidate is hashed
when a record asks for it.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from replaylint.index.decisions import CANDIDATE, NOT_CANDIDATE, REGISTRAR, FileDecision
from replaylint.index.prefetch import Prefetched
from replaylint.index.stamps import stamp_of
from replaylint.project.gate import spells_an_entry
from replaylint.project.prefilter import (
    Needles,
    frameworks_spelled,
    is_candidate,
    read_regular,
    registers,
)

if TYPE_CHECKING:
    from replaylint.index.project_index import Index

# Below this many unread files a pool costs more to start than it saves (sdk-python, 600
# files of which the ast gate reads a framework's own source: 0.2 s less cold at 500 than 2,000).
PARALLEL_FILES = 500


def decide(path: str, needles: Needles) -> FileDecision:
    markers, imports = needles
    try:
        # Stat before the read: an edit after it changes the stamp, so the next run reads
        # the file again rather than trust what was decided of its older bytes.
        stamp = stamp_of(os.stat(path))
        data = read_regular(path)
    except OSError as error:
        return FileDecision(path, NOT_CANDIDATE, None, "", (), error.strerror or str(error))
    verdict = NOT_CANDIDATE
    if is_candidate(data, markers, imports) and (
        any(marker in data for marker in markers)
        or spells_an_entry(data, frameworks_spelled(data, imports))
    ):
        verdict = REGISTRAR if registers(data) else CANDIDATE
    if verdict == NOT_CANDIDATE:
        return FileDecision(path, verdict, None, "", stamp)
    sha = hashlib.sha256(data).hexdigest()
    return FileDecision(path, verdict, data, sha, stamp)


def _decide_all(paths: list[str], needles: Needles) -> list[FileDecision]:
    return [decide(path, needles) for path in paths]


def scan(
    files: list[str], needles: Callable[[], Needles], index: Index | None, jobs: int
) -> tuple[list[FileDecision], list[tuple[str, str]]]:
    """The candidates among `files` (in order) and the files that could not be read.
    `needles()` is asked only when some file must be read (a warm run reads none)."""
    decisions: dict[str, FileDecision] = {}
    unread: list[str] = []
    for path in files:
        known = index.known(path) if index is not None else None
        if known is None:
            if not unread and index is not None and not index.empty():
                Prefetched.start()  # a changed file: LibCST is likely to be needed
            unread.append(path)
            continue
        decisions[path] = known
    for decision in _read(unread, needles() if unread else ((), ()), jobs):
        decisions[decision.path] = decision
        if index is not None and not decision.error:
            index.remember(decision)
    ordered = [decisions[path] for path in files if path in decisions]
    found = [decision for decision in ordered if decision.verdict]
    unreadable = [(decision.path, decision.error) for decision in ordered if decision.error]
    return found, unreadable


def _read(paths: list[str], needles: Needles, jobs: int) -> list[FileDecision]:
    if jobs <= 1 or len(paths) < PARALLEL_FILES:
        return _decide_all(paths, needles)
    from replaylint.index.pools import pool_context
    from replaylint.index.workers import Workers

    # Every jobs-th file, not a run of neighbours: a folder of heavy candidates (a test suite)
    # is shared out rather than left to one worker while the others wait.
    chunks = [paths[start::jobs] for start in range(jobs)]
    parts: dict[int, list[FileDecision]] = {}
    workers: Workers[int] = Workers(len(chunks), pool_context())
    with workers:
        for number, chunk in enumerate(chunks):
            workers.submit(number, _decide_all, chunk, needles)
        for number, part in workers.results():
            # A worker that died reading (killed from outside: reading kills nothing itself)
            # leaves its chunk to this process.
            parts[number] = part if isinstance(part, list) else _decide_all(chunks[number], needles)
    return [decision for number in sorted(parts) for decision in parts[number]]


__all__ = ["CANDIDATE", "NOT_CANDIDATE", "REGISTRAR", "FileDecision", "decide", "scan"]

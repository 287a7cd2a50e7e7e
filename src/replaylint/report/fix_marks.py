"""The [*] marks of a warm run without LibCST: which findings of a file `--fix` would fix is
remembered in the cache by the file's bytes and its fixable findings, so an unchanged tree is
marked from the cache instead of parsing and fixing each of its files again (a third of a warm
run's time on samples-python)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from replaylint.core import marks
from replaylint.core.findings import Finding, Fixable
from replaylint.core.marks import Entry, fixable_by_path
from replaylint.index.project_index import own_key

if TYPE_CHECKING:
    from replaylint.index.cache import Cache

_PREFIX = "fixable-"  # beside the indexes of the cache's folder, one per replaylint build


def fixable_marks(
    findings: Iterable[Finding],
    cache: Cache | None,
    jobs: int = 1,
    handed: Mapping[str, list[Entry]] | None = None,
) -> Fixable:
    """fixes.api.fixable of the findings, each file's answer read from the cache (when there
    is one), or from the entries the workers that checked it `handed` over, while the file's
    bytes and its fixable findings are those it was worked out for; the others worked out over
    up to `jobs` processes, a file each."""
    key = _PREFIX + own_key()
    stored = (cache.load(key) or {}) if cache is not None else {}
    known: dict[str, Any] = stored.get("files", {}) if isinstance(stored, dict) else {}
    kept: dict[str, Any] = {}
    safe: set[Finding] = set()
    unsafe: set[Finding] = set()
    unknown: dict[str, tuple[str, list[Finding]]] = {}
    for path, found in fixable_by_path(findings).items():
        digest = marks.digest(path, found)
        offered = [known.get(path), *(handed or {}).get(path, ())]
        entry = next((e for e in offered if digest and marks.readable(e, digest, len(found))), None)
        if digest is not None and entry is not None:
            safe.update(found[i] for i in entry["safe"])
            unsafe.update(found[i] for i in entry["unsafe"])
            kept[path] = entry
        else:
            unknown[path] = (digest or "", found)
    if unknown:
        worked = _worked_out([found for _, found in unknown.values()], jobs)
        safe |= worked.safe
        unsafe |= worked.unsafe
        for path, (digest, found) in unknown.items():
            if digest:
                kept[path] = marks.entry(digest, found, worked)
    if cache is not None and kept != known:
        cache.store(key, {"files": kept})
    return Fixable(frozenset(safe), frozenset(unsafe))


def _worked_out(files: list[list[Finding]], jobs: int) -> Fixable:
    """fixes.api.fixable_findings of each file's findings (one file's answer never depends on
    another's). A large module's fixes cost about a second of LibCST's scope analysis each, so
    several files are shared out over worker processes, the largest first."""
    from replaylint.fixes.api import fixable_findings  # LibCST: only for what is not known

    if jobs <= 1 or len(files) < 2:
        return fixable_findings(f for found in files for f in found)
    from replaylint.index.pools import pool_context
    from replaylint.index.workers import WorkerError, Workers

    safe: set[Finding] = set()
    unsafe: set[Finding] = set()
    largest_first = sorted(range(len(files)), key=lambda n: -_size(files[n][0].path))
    try:
        workers: Workers[int] = Workers(min(jobs, len(files)), pool_context())
        with workers:
            for number in largest_first:
                workers.submit(number, fixable_findings, files[number])
            for number, answer in workers.results():
                if not isinstance(answer, Fixable):  # the worker died: this process does it
                    answer = fixable_findings(files[number])
                safe |= answer.safe
                unsafe |= answer.unsafe
    except WorkerError:  # a fix raised: here it raises as it would have in this process
        return fixable_findings(f for found in files for f in found)
    return Fixable(frozenset(safe), frozenset(unsafe))


def _size(path: str) -> int:
    try:
        return Path(path).stat().st_size
    except OSError:
        return 0

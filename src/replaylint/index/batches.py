"""How one group of files (one set of settings) is checked: the prefilter, the index's
records where nothing changed, and the rest in batches of a fixed size, each batch on a
Project of its own, serially or over worker processes that survive one another's deaths
(survival.py).

The batches are the same whatever the number of jobs, so the output is too: `--jobs 1` and
`--jobs 8` run the same batches, only on fewer or more processes. A batch's syntax trees are
dropped when it ends, so memory is bounded by the largest batch, not by the tree.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from replaylint.core.outcome import Outcome
from replaylint.core.paths import display_path
from replaylint.engine.records import Record, assemble
from replaylint.engine.registrations import Registrations
from replaylint.index.limits import address_space_room, memory_limit
from replaylint.index.pools import IN_PROCESS_BYTES, pool_context, processes_for, too_large
from replaylint.index.project_index import Index, tree_digest
from replaylint.index.scanning import REGISTRAR, FileDecision, scan
from replaylint.project.config import Config
from replaylint.project.prefilter import Needles, read_regular

if TYPE_CHECKING:
    from replaylint.engine.project import Project
    from replaylint.index.cache import Cache

BATCH = 48  # candidates per batch: siblings (a sample's workflow, activities, worker) stay together
Candidate = tuple[str, str, bytes]


def check_group(
    files: list[str],
    config: Config,
    needles: Needles,
    focus: frozenset[Path] | None,
    tick: Callable[[], None] | None = None,
    cache: Cache | None = None,
    jobs: int = 1,
    project: Project | None = None,
    expect: Callable[[int], None] | None = None,
) -> tuple[Outcome, list[tuple[str, str]]]:
    """The outcome of `files` under `config`, and the files that could not be read.
    `expect(n)` once the candidates are known, then `tick()` as each is done (progress)."""
    index = Index(cache, config) if cache is not None and project is None else None
    decisions, unreadable = scan(files, needles, index, jobs)
    if expect is not None:
        expect(len(decisions))
    real = index.real if index is not None else os.path.realpath
    registering = [d for d in decisions if d.verdict == REGISTRAR]
    tree = tree_digest(files, [(d.path, d.sha) for d in registering]) if index else ""
    reused: dict[str, Record] = {}
    missed: list[Candidate] = []
    for decision in decisions:
        record = index.record(decision.path, decision.sha, tree) if index is not None else None
        if record is None:
            missed.append(_candidate(decision))
            continue
        reused[real(decision.path)] = record
        if tick is not None:
            tick()
    extras = _stored_extras(index, tree, reused)
    fresh: list[Record] = []
    if missed:
        registrars = [_candidate(d) for d in registering]
        fresh = _compute(missed, registrars, config, tick, jobs, project, index, tree)
    candidates = {real(d.path) for d in decisions}
    outcome, extra_paths = _ordered(candidates, reused, extras, fresh, focus)
    if index is not None:
        index.update(fresh, extra_paths, tree, set(files), candidates)
        index.store()
    return outcome, unreadable


def _candidate(decision: FileDecision) -> Candidate:
    """What the engine checks: the bytes read by the scan, or read now (a remembered file)."""
    data = decision.data if decision.data is not None else _read(decision.path)
    return decision.path, display_path(decision.path), data


def _read(path: str) -> bytes:
    try:
        return read_regular(path)
    except OSError:
        return b""  # gone since the index was written: checked as empty, the next run sees it


def _stored_extras(index: Index | None, tree: str, reused: dict[str, Record]) -> list[Record]:
    """Records of modules that registrations made workflow code, when still valid."""
    if index is None:
        return []
    kept = []
    for path in index.extras:
        sha = index.current_sha(path)
        record = index.record(path, sha, tree) if sha is not None else None
        if record is not None and path not in reused:
            kept.append(record)
    return kept


def _ordered(
    candidates: set[str],
    reused: dict[str, Record],
    extras: list[Record],
    fresh: list[Record],
    focus: frozenset[Path] | None,
) -> tuple[Outcome, list[str]]:
    """Records in one canonical order, reused or fresh alike: the candidates by path, then the
    modules registrations made workflow code, then what could not be read; the first record to
    hold a finding is the one reported, so a warm run reports exactly what a cold one did."""
    by_path: dict[str, Record] = {}
    tail: list[Record] = []
    for record in fresh:
        if not record.path:
            tail.append(record)
        elif record.path not in by_path or by_path[record.path].extra:
            by_path[record.path] = record
    ordered: list[Record] = []
    for path in sorted(candidates):
        chosen = by_path.get(path) or reused.get(path)
        if chosen is not None:
            ordered.append(chosen)
    registered = {p: r for p, r in by_path.items() if p not in candidates}
    for record in extras:
        registered.setdefault(record.path, record)
    ordered.extend(registered[path] for path in sorted(registered))
    ordered.extend(tail)
    return assemble(ordered, focus), sorted(registered)


def _compute(
    missed: list[Candidate],
    registrars: list[Candidate],
    config: Config,
    tick: Callable[[], None] | None,
    jobs: int,
    project: Project | None,
    index: Index | None = None,
    tree: str = "",
) -> list[Record]:
    """Records of the candidates that need checking. The files that register functions are
    checked first, together, once: what they register is a summary every batch applies
    (engine/registrations.py), so a registration counts in whichever batch its function is
    checked. A module predicted not to fit in the memory there is is ADK-E001 before any is
    parsed."""
    if project is not None:  # the caller's own Project: one batch, in this process
        from replaylint.engine.check import check_records

        return check_records(missed, project, None, tick)
    records: list[Record] = []
    fitting = []
    limit, room = memory_limit(), address_space_room()
    for candidate in sorted(missed):
        reason = too_large(len(candidate[2]), limit, room)
        if reason is None:
            fitting.append(candidate)
            continue
        from replaylint.index.survival import unchecked

        records.append(unchecked(candidate, reason))
        if tick is not None:
            tick()
    registering = {path for path, _, _ in registrars}
    summary, first = _registrations(registrars, registering, fitting, config, index, tree, tick)
    records.extend(first)
    fitting = [c for c in fitting if c[0] not in registering]
    batches = [fitting[start : start + BATCH] for start in range(0, len(fitting), BATCH)]
    largest = max((len(data) for _, _, data in fitting), default=0)
    if (jobs <= 1 or len(batches) <= 1) and largest < IN_PROCESS_BYTES:
        for own in batches:
            records.extend(_check_batch(config, own, tick, summary))
        return records
    from replaylint.index.survival import Batch, check_surviving

    heaviest = max(sum(len(c[2]) for c in own) for own in batches)
    processes = processes_for(max(1, jobs), len(batches), largest, heaviest, limit)
    check = partial(_check_batch, registrations=summary)
    surviving = [Batch(own) for own in batches]
    records.extend(check_surviving(surviving, config, check, processes, pool_context(), tick))
    return records


def _registrations(
    registrars: list[Candidate],
    registering: set[str],
    fitting: list[Candidate],
    config: Config,
    index: Index | None,
    tree: str,
    tick: Callable[[], None] | None,
) -> tuple[Registrations | None, list[Record]]:
    """What the registrars register, and their records when they need checking: from the
    index while every file they reach is as it was, else from checking them all together."""
    if not registrars:
        return None, []
    checking = any(path in registering for path, _, _ in fitting)
    stored = index.registrations(tree) if index is not None and not checking else None
    if stored is not None:
        return stored, []
    from replaylint.engine.check import check_registrars
    from replaylint.engine.project import project_for

    missed = {path for path, _, _ in fitting}
    # The registrars to check come first, and only they count as done (the others' records
    # were counted when the index gave them).
    ordered = sorted(registrars, key=lambda r: (r[0] not in missed, r[0]))
    counted = _first_ticks(tick, sum(r[0] in missed for r in registrars))
    records, summary = check_registrars(ordered, project_for(config), counted)
    if index is not None:
        index.keep_registrations(summary, records)
    return summary, records


def _first_ticks(tick: Callable[[], None] | None, count: int) -> Callable[[], None] | None:
    """`tick`, passed on for its first `count` calls only."""
    if tick is None:
        return None
    left = [count]

    def first() -> None:
        if left[0] > 0:
            left[0] -= 1
            tick()

    return first


def _check_batch(
    config: Config,
    batch: list[Candidate],
    tick: Callable[[], None] | None = None,
    registrations: Registrations | None = None,
) -> list[Record]:
    from replaylint.engine.check import check_records
    from replaylint.engine.project import project_for

    return check_records(batch, project_for(config), None, tick, registrations)


__all__ = ["BATCH", "check_group"]

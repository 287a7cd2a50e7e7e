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
from replaylint.index import affinity
from replaylint.index.limits import address_space_room, memory_limit
from replaylint.index.pools import too_large
from replaylint.index.project_index import Index, tree_digest
from replaylint.index.registrars import check_with, registrations, with_the_rest
from replaylint.index.running import run_batches
from replaylint.index.scanning import REGISTRAR, FileDecision, scan
from replaylint.project.config import Config
from replaylint.project.prefilter import Needles, read_regular

if TYPE_CHECKING:
    from replaylint.engine.project import Project
    from replaylint.engine.registrations import Registrations
    from replaylint.index.cache import Cache

BATCH = affinity.BATCH
Candidate = tuple[str, str, bytes]


def check_group(
    files: list[str],
    config: Config,
    needles: Callable[[], Needles],
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
    limit = memory_limit()
    registering = [d for d in decisions if d.verdict == REGISTRAR]
    if project is None and jobs > 1 and registering and (index is None or index.empty()):
        # Nothing to reuse: the other batches need not wait for the registrars' summary.
        found = _beside(decisions, registering, files, config, index, jobs, limit, tick)
    else:
        found = _after(decisions, registering, files, config, index, project, jobs, limit, tick)
    summary, tree, fresh, reused, missed = found
    extras = _stored_extras(index, tree, reused)
    others = [_candidate(d) for d in missed]
    if others:
        fresh += _compute(others, summary, config, tick, jobs, project, limit)
    candidates = {real(d.path) for d in decisions}
    by_path, tail = reported(fresh)
    outcome, extra_paths = _ordered(candidates, reused, extras, by_path, tail, focus)
    outcome.afresh = len(fresh)
    if index is not None:
        # The records reported, not every one computed: a module two batches gave a record
        # is stored as it was reported, so a warm run reports exactly what this one did.
        index.update([*by_path.values(), *tail], extra_paths, tree, set(files), candidates)
        index.store()
    return outcome, unreadable


# What the registrars' pass leaves: the summary, the tree's digest under it, the records computed,
# the stored records still valid (by real path), and the candidates still to check.
_Found = tuple["Registrations | None", str, list[Record], dict[str, Record], list[FileDecision]]


def _after(
    decisions: list[FileDecision],
    registering: list[FileDecision],
    files: list[str],
    config: Config,
    index: Index | None,
    project: Project | None,
    jobs: int,
    limit: int | None,
    tick: Callable[[], None] | None,
) -> _Found:
    """The registrars first (their summary decides which stored records are valid), then the
    stored records reused; the rest is left to check with the summary."""
    real = index.real if index is not None else os.path.realpath
    summary, checked = _registrations(registering, config, index, project, jobs, limit)
    tree = tree_digest(files, summary) if index else ""
    fresh = list(checked)
    done = _checked_registrars(registering, checked, real)
    reused, missed = _reused(decisions, index, tree, done)
    if index is not None and any(d.verdict == REGISTRAR for d in missed):
        # The summary is the one stored, but a registrar's own record is not (the summary
        # changed since, or the record could not be kept): every part is checked again.
        summary, fresh = _registrations(registering, config, index, project, jobs, limit, True)
        done = _checked_registrars(registering, fresh, real)
        if tree_digest(files, summary) != tree:  # parts stored under stale bytes: start over
            tree = tree_digest(files, summary)
            reused, missed = _reused(decisions, index, tree, done)
    if tick is not None:  # each candidate once: reused, or checked with the registrars
        for _ in range(sum(real(d.path) in reused or real(d.path) in done for d in decisions)):
            tick()
    return summary, tree, fresh, reused, [d for d in missed if real(d.path) not in done]


def _beside(
    decisions: list[FileDecision],
    registering: list[FileDecision],
    files: list[str],
    config: Config,
    index: Index | None,
    jobs: int,
    limit: int | None,
    tick: Callable[[], None] | None,
) -> _Found:
    """The registrars and every other candidate in one pass over the workers (each candidate
    ticked as its batch ends); a batch the summary affects is checked again with it. Only a
    registrar its pass gave no record is left to check."""
    real = index.real if index is not None else os.path.realpath
    shas = {d.path: d.sha for d in registering}
    others = [_candidate(d) for d in decisions if d.verdict != REGISTRAR]
    unfit, fitting = _fitting(others, tick, limit)
    summary, checked, rest = with_the_rest(
        [_candidate(d) for d in registering],
        shas,
        affinity.batches(fitting, config),
        config,
        index,
        jobs,
        limit,
        tick,
    )
    done = _checked_registrars(registering, checked, real)
    missed = [d for d in registering if real(d.path) not in done]
    tree = tree_digest(files, summary) if index else ""
    return summary, tree, [*checked, *unfit, *rest], {}, missed


def _candidate(decision: FileDecision) -> Candidate:
    """What the engine checks: the bytes read by the scan, or read now (a remembered file)."""
    data = decision.data if decision.data is not None else _read(decision.path)
    return decision.path, display_path(decision.path), data


def _registrations(
    registering: list[FileDecision],
    config: Config,
    index: Index | None,
    project: Project | None,
    jobs: int,
    limit: int | None,
    force: bool = False,
) -> tuple[Registrations | None, list[Record]]:
    """What the registrars register, and their records if they were checked for it (not with
    the caller's own Project, which checks registrars with everything else)."""
    if not registering or project is not None:
        return None, []
    shas = {d.path: d.sha for d in registering}
    candidates = [_candidate(d) for d in registering]
    return registrations(candidates, shas, config, index, jobs, limit, force)


def _checked_registrars(
    registering: list[FileDecision], records: list[Record], real: Callable[[str], str]
) -> set[str]:
    """The registrars (real paths) that the registrars' pass gave a record of their own. The
    other modules it read are checked with the rest, as their batches see them."""
    paths = {record.path for record in records}
    return {real(d.path) for d in registering if real(d.path) in paths}


def _reused(
    decisions: list[FileDecision], index: Index | None, tree: str, done: set[str]
) -> tuple[dict[str, Record], list[FileDecision]]:
    """The stored records still valid, by real path, and the candidates that need checking
    (those checked already, `done`, are neither)."""
    real = index.real if index is not None else os.path.realpath
    reused: dict[str, Record] = {}
    missed: list[FileDecision] = []
    for decision in decisions:
        if real(decision.path) in done:
            continue
        record = index.record(decision.path, decision.sha, tree) if index is not None else None
        if record is None:
            missed.append(decision)
            continue
        reused[real(decision.path)] = record
    return reused, missed


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


def reported(fresh: list[Record]) -> tuple[dict[str, Record], list[Record]]:
    """The record reported of each module, by path: the first one computed (batches give
    theirs in a canonical order), unless only a module registrations made workflow code
    (extra); and the records of no module."""
    by_path: dict[str, Record] = {}
    tail: list[Record] = []
    for record in fresh:
        if not record.path:
            tail.append(record)
        elif record.path not in by_path or by_path[record.path].extra:
            by_path[record.path] = record
    return by_path, tail


def _ordered(
    candidates: set[str],
    reused: dict[str, Record],
    extras: list[Record],
    by_path: dict[str, Record],
    tail: list[Record],
    focus: frozenset[Path] | None,
) -> tuple[Outcome, list[str]]:
    """Records in one canonical order, reused or fresh alike: the candidates by path, then the
    modules registrations made workflow code, then what could not be read (reported())."""
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
    registrations: Registrations | None,
    config: Config,
    tick: Callable[[], None] | None,
    jobs: int,
    project: Project | None,
    limit: int | None,
) -> list[Record]:
    """Records of the candidates that need checking, with what the registrars register (a
    summary every batch applies, so a registration counts in whichever batch its function is
    checked). A module predicted not to fit in the memory there is is ADK-E001 before any is
    parsed."""
    if project is not None:  # the caller's own Project: one batch, in this process
        from replaylint.engine.check import check_records

        return check_records(missed, project, None, tick)
    records, fitting = _fitting(missed, tick, limit)
    check = partial(check_with, registrations=registrations)
    records.extend(run_batches(affinity.batches(fitting, config), config, check, jobs, tick, limit))
    return records


def _fitting(
    missed: list[Candidate], tick: Callable[[], None] | None, limit: int | None
) -> tuple[list[Record], list[Candidate]]:
    """ADK-E001 records of the candidates predicted not to fit in the memory there is (ticked
    now), and the others, in path order."""
    records: list[Record] = []
    fitting = []
    room = address_space_room()
    for candidate in sorted(missed):
        reason = too_large(len(candidate[2]), limit, room)
        if reason is None:
            fitting.append(candidate)
            continue
        from replaylint.index.survival import unchecked

        records.append(unchecked(candidate, reason))
        if tick is not None:
            tick()
    return records, fitting


__all__ = ["BATCH", "check_group"]

"""The registrars' pass, before the other batches: their records, and the summary of what they
register that every other batch applies (engine/registrations.py).

Registrars that read the same local modules are checked together (affinity.py), in batches
bounded like any other, in parallel. A registration reaches a function through an import, so
it lands in its own batch; only a worker's unsandboxed classes, named by name, and a group too
large for one batch reach across. So the parts' summaries are merged, and when the whole says
more about a module or a class one part read than that part knew, every part is checked again
with the whole: rare, and the records are then exactly those of one Project holding them all.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from replaylint.engine.records import REGISTRATIONS, Record
from replaylint.index import affinity
from replaylint.index.project_index import registrars_key
from replaylint.index.running import run_batches

if TYPE_CHECKING:
    from replaylint.engine.registrations import Registrations
    from replaylint.index.project_index import Index
    from replaylint.project.config import Config

Candidate = tuple[str, str, bytes]


def registrations(
    registrars: list[Candidate],
    shas: dict[str, str],
    config: Config,
    index: Index | None,
    jobs: int,
    limit: int | None,
    force: bool = False,
) -> tuple[Registrations | None, list[Record]]:
    """What the registrars register, and the records of those checked for it. From the index
    while no registrar changed and every file they reach is as it was; else each part whose
    registrars or reached files changed is checked again and merged with the others' stored
    summaries. `force`: check every part (their records are all wanted)."""
    if not registrars:
        return None, []
    key = registrars_key([(path, shas[path]) for path, _, _ in registrars])
    stored = index.registrations(key) if index is not None and not force else None
    if stored is not None:
        return stored, []
    parts = affinity.batches(sorted(registrars), config)
    keys = [registrars_key([(path, shas[path]) for path, _, _ in part]) for part in parts]
    summaries = [index.part(k) if index is not None and not force else None for k in keys]
    todo = [number for number, summary in enumerate(summaries) if summary is None]
    found = run_batches([parts[n] for n in todo], config, check_registrars, jobs, None, limit)
    part_of = {os.path.realpath(path): n for n in todo for path, _, _ in parts[n]}
    alone: dict[int, list[Record]] = {n: [] for n in todo}
    pending: list[Record] = []
    for record in found:  # a batch's records, then one carrying its summary (named by its first)
        if record.kind != REGISTRATIONS:
            pending.append(record)
            continue
        n = part_of[record.path]
        done = summaries[n]
        summaries[n] = (
            record.registrations if done is None else done.with_parts_merged([record.registrations])
        )
        alone[n].extend(pending)
        pending = []
    known = [summary for summary in summaries if summary is not None]
    whole = known[0].with_parts_merged(known[1:]) if known else None
    records = [record for record in found if record.kind != REGISTRATIONS]
    if whole is not None and len(known) > 1 and any(s.affected_by(whole) for s in known):
        check = partial(check_with, registrations=whole)
        records = run_batches(parts, config, check, jobs, None, limit)
    if index is not None and whole is not None:
        for n in todo:
            # A batch that died names no summary; its records (never kept) fall into the next
            # part's, which is then not kept either: checked again on the next run.
            summary = summaries[n]
            if summary is not None:
                index.keep_part(keys[n], summary, alone[n])
        index.keep_parts(set(keys))
        index.keep_whole(key, whole, keys)
    return whole, records


def check_registrars(
    config: Config, batch: list[Candidate], tick: Callable[[], None] | None = None
) -> list[Record]:
    """A part of the registrars checked: their records, then one carrying its summary."""
    from replaylint.engine import check
    from replaylint.engine.project import project_for

    records, summary = check.check_registrars(batch, project_for(config), tick)
    first = os.path.realpath(batch[0][0]) if batch else ""
    return [*records, Record(first, "", "", REGISTRATIONS, registrations=summary)]


def check_with(
    config: Config,
    batch: list[Candidate],
    tick: Callable[[], None] | None = None,
    registrations: Registrations | None = None,
) -> list[Record]:
    """A batch checked on a Project of its own, with what the registrars register."""
    from replaylint.engine import check
    from replaylint.engine.project import project_for

    return check.check_records(batch, project_for(config), None, tick, registrations)

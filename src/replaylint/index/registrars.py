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

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from replaylint.engine.records import REGISTRATIONS, Record
from replaylint.index import affinity
from replaylint.index.running import run_batches

if TYPE_CHECKING:
    from replaylint.engine.registrations import Registrations
    from replaylint.index.project_index import Index
    from replaylint.project.config import Config

Candidate = tuple[str, str, bytes]


def registrations(
    registrars: list[Candidate],
    missed: set[str],
    config: Config,
    index: Index | None,
    tree: str,
    tick: Callable[[], None] | None,
    jobs: int,
    limit: int | None,
) -> tuple[Registrations | None, list[Record]]:
    """What the registrars register, and their records when they need checking (`missed`: the
    paths of the candidates whose records must be computed): from the index while every file
    they reach is as it was, else from checking them."""
    if not registrars:
        return None, []
    checking = any(path in missed for path, _, _ in registrars)
    stored = index.registrations(tree) if index is not None and not checking else None
    if stored is not None:
        return stored, []
    parts = affinity.batches(sorted(registrars), config)
    found = run_batches(parts, config, check_registrars, jobs, None, limit)
    summaries = [r.registrations for r in found if r.kind == REGISTRATIONS]
    whole = summaries[0].with_parts_merged(summaries[1:])
    records = [r for r in found if r.kind != REGISTRATIONS]
    if len(summaries) > 1 and any(s.affected_by(whole) for s in summaries):
        check = partial(check_with, registrations=whole)
        records = run_batches(parts, config, check, jobs, None, limit)
    if tick is not None:  # the registrars whose records were wanted are done
        for _ in range(sum(path in missed for path, _, _ in registrars)):
            tick()
    if index is not None:
        index.keep_registrations(whole, records)
    return whole, records


def check_registrars(
    config: Config, batch: list[Candidate], tick: Callable[[], None] | None = None
) -> list[Record]:
    """A part of the registrars checked: their records, then one carrying its summary."""
    from replaylint.engine import check
    from replaylint.engine.project import project_for

    records, summary = check.check_registrars(batch, project_for(config), tick)
    return [*records, Record("", "", "", REGISTRATIONS, registrations=summary)]


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

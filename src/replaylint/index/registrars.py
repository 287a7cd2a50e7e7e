"""The registrars' pass, before the other batches: their records, and the summary of what they
register that every other batch applies (engine/registrations.py).

Registrars that read the same local modules are checked together (affinity.py), in parts
bounded like any batch, in parallel. With an index, a part is one such group (cut only when
larger than a batch), never packed with others: each part's summary is kept in the index under
its own registrars, so an edit to one registrar checks its group again, not its neighbours in
path order (small parts still share a batch of the run, each checked on a Project of its own:
check_parts). Without one (`--no-cache`) the parts are the packed batches. A registration
reaches a function through an import, so
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
from replaylint.index.marks import with_marks
from replaylint.index.project_index import registrars_key
from replaylint.index.running import Check, run_batches, run_batches_apart
from replaylint.parse import kept

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
    parts = _Parts(registrars, shas, config, index, force)
    found = parts.checked(jobs, None, limit)
    return parts.merged(found, jobs, limit)


def with_the_rest(
    registrars: list[Candidate],
    shas: dict[str, str],
    rest: list[list[Candidate]],
    config: Config,
    index: Index | None,
    jobs: int,
    limit: int | None,
    tick: Callable[[], None] | None,
) -> tuple[Registrations | None, list[Record], list[Record]]:
    """registrations(), with the other batches (`rest`) over the same workers: the registrars'
    parts go first, a batch that starts before their summary is known is checked as if nothing
    were registered (check_before), and one that starts after, with the summary. For runs with
    nothing to reuse, when the parts are fewer than the workers: no core waits for them. A
    batch checked before whose reads the summary affects is checked again with it. Returns the
    summary, the registrars' records and the rest's records (every candidate ticked)."""
    parts = _Parts(registrars, shas, config, index, force=True)
    batches, checks = parts.todo_batches(), parts.todo_checks()
    lead = len(batches)
    if lead >= jobs:  # no worker would wait for the parts: none checks a batch that may be lost
        found = parts.checked(jobs, tick, limit)
        whole, records = parts.merged(found, jobs, limit)
        check = partial(check_with, registrations=whole)
        return whole, records, run_batches(rest, config, check, jobs, tick, limit)
    known: dict[str, Registrations | None] = {}  # "whole", once every part is in
    found_by_part: dict[int, list[Record]] = {}

    def finished(number: int, records: list[Record]) -> None:
        if number < lead:
            found_by_part[number] = records
            if len(found_by_part) == lead:
                found = [r for n in sorted(found_by_part) for r in found_by_part[n]]
                known["whole"] = parts.summaries_merged(found)[0]

    def choose(number: int) -> Callable[..., list[Record]]:
        if number < lead:
            return checks[number]
        if "whole" in known:
            return partial(check_with, registrations=known["whole"])
        return check_before

    apart = run_batches_apart(
        [*batches, *rest], config, check_registrars, jobs, tick, limit, choose, finished, lead
    )
    whole, records = parts.merged([r for own in apart[:lead] for r in own], jobs, limit)
    return whole, records, _standing(rest, apart[lead:], whole, config, jobs, limit)


def _standing(
    rest: list[list[Candidate]],
    found: list[list[Record]],
    whole: Registrations | None,
    config: Config,
    jobs: int,
    limit: int | None,
) -> list[Record]:
    """The rest's records once the summary is known: a batch checked before it whose reads it
    affects is checked again. Each batch's records stay in their place, checked again or not,
    so a module several batches give a record (one the registrations made workflow code) is
    reported from the same batch as on the sequential path."""
    by_batch = [[r for r in results if r.kind != REGISTRATIONS] for results in found]
    again = [
        number
        for number, results in enumerate(found)
        if whole is not None
        and any(r.registrations.affected_by(whole) for r in results if r.kind == REGISTRATIONS)
    ]
    if again:
        check = partial(check_with, registrations=whole)
        redone = run_batches_apart(
            [rest[n] for n in again], config, check, jobs, None, limit, pooled=True
        )
        for number, results in zip(again, redone, strict=True):
            by_batch[number] = results
    return [record for results in by_batch for record in results]


class _Parts:
    """The registrars cut into parts, each with the summary the index holds for it, if any."""

    def __init__(
        self,
        registrars: list[Candidate],
        shas: dict[str, str],
        config: Config,
        index: Index | None,
        force: bool,
    ) -> None:
        self.config = config
        self.index = index
        self.key = registrars_key([(path, shas[path]) for path, _, _ in registrars])
        # Each group its own part where an index keeps the parts' summaries (an edit checks its
        # group again, not its neighbours); without one, nothing is kept per part, and packed
        # batches spare each small group the fixed cost of a check of its own.
        cut = affinity.parts if index is not None else affinity.batches
        self.parts = cut(sorted(registrars), config)
        self.keys = [registrars_key([(p, shas[p]) for p, _, _ in part]) for part in self.parts]
        self.summaries: list[Registrations | None] = [
            index.part(k) if index is not None and not force else None for k in self.keys
        ]
        self.todo = [n for n, summary in enumerate(self.summaries) if summary is None]
        # The parts to check, packed into batches as other candidates are (a part is never
        # split, and each is checked on a Project of its own: check_parts), so that a run
        # of many small parts still keeps its workers' batches few.
        self.packed: list[list[int]] = []
        batch: list[Candidate] = []
        for n in self.todo:
            if not self.packed or not affinity.fits(batch, self.parts[n]):
                self.packed.append([])
                batch = []
            self.packed[-1].append(n)
            batch += self.parts[n]

    def todo_batches(self) -> list[list[Candidate]]:
        return [[c for n in numbers for c in self.parts[n]] for numbers in self.packed]

    def todo_checks(self) -> list[Check]:
        """Each batch's check: its parts, one by one."""
        return [
            partial(check_parts, parts=tuple(_paths(self.parts[n]) for n in numbers))
            for numbers in self.packed
        ]

    def checked(
        self, jobs: int, tick: Callable[[], None] | None, limit: int | None
    ) -> list[Record]:
        """The records of the parts to check, each part's followed by its summary's."""
        checks = self.todo_checks()
        batches = self.todo_batches()
        apart = run_batches_apart(
            batches, self.config, check_registrars, jobs, tick, limit, checks.__getitem__
        )
        return [record for records in apart for record in records]

    def summaries_merged(
        self, found: list[Record]
    ) -> tuple[Registrations | None, list[Registrations | None], dict[int, list[Record]]]:
        """The whole summary, each part's (stored, or from `found`: each batch's records, then
        one carrying its summary, named by its first), and the records of each part checked."""
        summaries = list(self.summaries)
        part_of = {os.path.realpath(path): n for n in self.todo for path, _, _ in self.parts[n]}
        alone: dict[int, list[Record]] = {n: [] for n in self.todo}
        pending: list[Record] = []
        for record in found:
            if record.kind != REGISTRATIONS:
                pending.append(record)
                continue
            n = part_of[record.path]
            done = summaries[n]
            summaries[n] = (
                record.registrations
                if done is None
                else done.with_parts_merged([record.registrations])
            )
            alone[n].extend(pending)
            pending = []
        known = [summary for summary in summaries if summary is not None]
        whole = known[0].with_parts_merged(known[1:]) if known else None
        return whole, summaries, alone

    def merged(
        self, found: list[Record], jobs: int, limit: int | None
    ) -> tuple[Registrations | None, list[Record]]:
        """The whole summary from the parts checked now (`found`: each batch's records, then
        one carrying its summary) and those stored; the parts the whole says more to than
        they knew checked again with it. The parts and the whole are kept in the index."""
        whole, summaries, alone = self.summaries_merged(found)
        known = [summary for summary in summaries if summary is not None]
        records = [record for record in found if record.kind != REGISTRATIONS]
        if whole is not None and len(known) > 1 and any(s.affected_by(whole) for s in known):
            records = self._again(found, summaries, whole, jobs, limit)
        index = self.index
        if index is not None and whole is not None:
            for n in self.todo:
                # A batch that died names no summary; its records (never kept) fall into the
                # next part's, which is then not kept either: checked again on the next run.
                summary = summaries[n]
                if summary is not None:
                    index.keep_part(self.keys[n], summary, alone[n])
            index.keep_parts(set(self.keys))
            index.keep_whole(self.key, whole, self.keys)
        return whole, records

    def _again(
        self,
        found: list[Record],
        summaries: list[Registrations | None],
        whole: Registrations,
        jobs: int,
        limit: int | None,
    ) -> list[Record]:
        """Every part's records once the whole is known, in part order: a part checked now
        that the whole does not affect keeps its records (the whole registers nothing in the
        modules it read that it did not register itself, so checked with it they come out
        the same, as for the batches checked before it: _standing); the others are checked
        again, as are the parts whose summary was stored (their records are wanted now) and
        a part whose batch died before it named its summary."""
        again = [
            n
            for n, summary in enumerate(summaries)
            if n not in self.todo or summary is None or summary.affected_by(whole)
        ]
        check = partial(check_with, registrations=whole)
        redone = run_batches_apart(
            [self.parts[n] for n in again], self.config, check, jobs, None, limit, pooled=True
        )
        checked_again = dict(zip(again, redone, strict=True))
        # Each part's records as its batches gave them, ahead of the one carrying its summary;
        # those of a batch that died, named by no summary, go with the next part's, as in
        # summaries_merged, or after every part's when no part follows.
        part_of = {os.path.realpath(path): n for n in self.todo for path, _, _ in self.parts[n]}
        own: dict[int, list[Record]] = {}
        pending: list[Record] = []
        for record in found:
            if record.kind == REGISTRATIONS:
                own.setdefault(part_of[record.path], []).extend(pending)
                pending = []
            else:
                pending.append(record)
        records: list[Record] = []
        for n in range(len(self.parts)):
            records += checked_again[n] if n in checked_again else own.get(n, [])
        return records + pending


def check_before(
    config: Config, batch: list[Candidate], tick: Callable[[], None] | None = None
) -> list[Record]:
    """A batch checked before the registrars' summary is known, as if nothing were registered:
    its records, then one carrying what it read (Registrations.affected_by tells if they stand)."""
    from replaylint.engine import check
    from replaylint.engine.project import project_for

    with kept.batch():
        records, read = check.check_before_registrations(batch, project_for(config), tick)
        first = os.path.realpath(batch[0][0]) if batch else ""
        return [*with_marks(records), Record(first, "", "", REGISTRATIONS, registrations=read)]


def check_registrars(
    config: Config, batch: list[Candidate], tick: Callable[[], None] | None = None
) -> list[Record]:
    """A part of the registrars checked: their records, then one carrying its summary."""
    from replaylint.engine import check
    from replaylint.engine.project import project_for

    with kept.batch():
        records, summary = check.check_registrars(batch, project_for(config), tick)
        first = os.path.realpath(batch[0][0]) if batch else ""
        return [*with_marks(records), Record(first, "", "", REGISTRATIONS, registrations=summary)]


def check_parts(
    config: Config,
    batch: list[Candidate],
    tick: Callable[[], None] | None = None,
    parts: tuple[frozenset[str], ...] = (),
) -> list[Record]:
    """Registrars' parts packed into one batch (`parts`: each part's paths, in order), each
    checked as check_registrars checks one. The batch may hold only some of them, or half of
    one: a batch whose worker died twice is checked again in halves (survival.py), each half
    with the parts' check; each piece's summary is named by its first path, of its part."""
    records: list[Record] = []
    # One batch for the collector (kept.py): no full pass between its parts, each of which
    # would cost 20-30 ms whatever it frees; what they leave is collected once it ends.
    with kept.batch():
        for paths in parts:
            piece = [candidate for candidate in batch if candidate[0] in paths]
            if piece:
                records += check_registrars(config, piece, tick)
    return records


def _paths(part: list[Candidate]) -> frozenset[str]:
    return frozenset(path for path, _, _ in part)


def check_with(
    config: Config,
    batch: list[Candidate],
    tick: Callable[[], None] | None = None,
    registrations: Registrations | None = None,
) -> list[Record]:
    """A batch checked on a Project of its own, with what the registrars register."""
    from replaylint.engine import check
    from replaylint.engine.project import project_for

    with kept.batch():
        records = check.check_records(batch, project_for(config), None, tick, registrations)
        return with_marks(records)

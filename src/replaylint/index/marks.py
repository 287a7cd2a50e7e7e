"""The [*] marks worked out where a batch is checked, when the run's report shows them.

Which findings `--fix` would fix is found by fixing each file as `--fix` would: LibCST's parse,
positions and scopes of the file, seconds on a large test module. Worked out after the check,
that ran in the main process alone, after every worker was done (and imported LibCST there
only for it). So the process that checks a batch works out the marks of the files its records'
findings sit in, and hands them over with the records (core/marks.py entries). The report uses
an entry only while its digest is that of the file and of the findings it reports there, and
works out any other file itself, so the marks are those of `--fix` whatever is handed over.
"""

from __future__ import annotations

from replaylint.core import marks
from replaylint.engine.records import WORKFLOW, Record


class Marks:
    # Set by the command before the check, when its format shows the marks; a forked worker
    # inherits it (a spawned one does not, and the report then works them out itself).
    wanted = False


def with_marks(records: list[Record]) -> list[Record]:
    """The records, each workflow record with the marks of the files of its fixable findings
    (when the run wants them)."""
    if not Marks.wanted:
        return records
    # A helper's findings that several workflows of the batch reach are worked out once.
    worked: dict[str, marks.Entry] = {}
    for record in records:
        if record.kind != WORKFLOW:
            continue
        for path, found in marks.fixable_by_path(record.findings).items():
            digest = marks.digest(path, found)
            if digest is None:
                continue
            if digest not in worked:
                from replaylint.fixes.api import fixable_findings  # LibCST: imported to check

                worked[digest] = marks.entry(digest, found, fixable_findings(found))
            record.marks[path] = worked[digest]
    return records

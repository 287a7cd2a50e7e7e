"""The cheap byte scan that decides, per file, whether it is worth a parse."""

from __future__ import annotations

import re
from typing import Iterable


def import_pattern(packages: Iterable[str]) -> re.Pattern[bytes] | None:
    """Matches an import of one of the packages: `import temporalio`, `from dbos import DBOS`."""
    names = [re.escape(p.encode()) for p in packages]
    if not names:
        return None
    alternatives = b"|".join(names)
    return re.compile(rb"^[ \t]*(?:from|import)[ \t]+(?:" + alternatives + rb")\b", re.M)


def scan(
    files: Iterable[str],
    needles: tuple[bytes, ...],
    imports: tuple[tuple[bytes, re.Pattern[bytes]], ...] = (),
) -> tuple[int, list[tuple[str, bytes]], list[tuple[str, str]]]:
    """(files read, [(path, bytes)] of candidates, [(path, reason)] of unreadable files).

    A file is a candidate when its bytes contain a marker needle, or a framework's name that an
    import statement confirms (a docstring that merely says "restate" costs no parse). Everything
    else costs one read and a substring search.
    """
    count = 0
    candidates: list[tuple[str, bytes]] = []
    unreadable: list[tuple[str, str]] = []
    for path in files:
        count += 1
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except OSError as error:
            unreadable.append((path, error.strerror or str(error)))
            continue
        if is_candidate(data, needles, imports):
            candidates.append((path, data))
    return count, candidates, unreadable


def is_candidate(
    data: bytes,
    needles: tuple[bytes, ...],
    imports: tuple[tuple[bytes, re.Pattern[bytes]], ...] = (),
) -> bool:
    for needle in needles:
        if needle in data:
            return True
    for needle, pattern in imports:
        if needle in data and pattern.search(data):
            return True
    return False

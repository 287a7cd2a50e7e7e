"""The cheap byte scan that decides, per file, whether it is worth a parse."""

from __future__ import annotations

from typing import Iterable


def scan(
    files: Iterable[str], needles: tuple[bytes, ...]
) -> tuple[int, list[tuple[str, bytes]], list[tuple[str, str]]]:
    """(files read, [(path, bytes)] of candidates, [(path, reason)] of unreadable files).

    A file is a candidate when its bytes contain one of the needles (the marker, or a framework's
    import name). Everything else costs one read.
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
        for needle in needles:
            if needle in data:
                candidates.append((path, data))
                break
    return count, candidates, unreadable

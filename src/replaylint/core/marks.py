"""What the [*] marks keep of one file: which of its fixable findings `--fix` would fix, safely
or only with `--unsafe-fixes`, under a digest of the file's bytes and of those findings. The
cache keeps such entries across runs (report/fix_marks.py) and a worker that checked the file
hands them over (index/marks.py); an entry is used only while its digest is the file's now."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TypeGuard

from replaylint.core.findings import Finding, Fixable

Entry = dict[str, Any]  # {"digest": str, "safe": [index, ...], "unsafe": [index, ...]}


def fixable_by_path(findings: Iterable[Finding]) -> dict[str, list[Finding]]:
    """The findings a fix may apply to, per file, in report order (the indices of an entry)."""
    by_path: dict[str, list[Finding]] = {}
    for finding in sorted((f for f in findings if f.fix is not None), key=Finding.sort_key):
        by_path.setdefault(finding.path, []).append(finding)
    return by_path


def digest(path: str, findings: list[Finding]) -> str | None:
    """The file's bytes and every fact of its fixable findings a fix reads; None when the file
    cannot be read (what a fix cannot read it cannot fix: worked out, never remembered)."""
    try:
        data = Path(path).read_bytes()
    except OSError:
        return None
    hashed = hashlib.sha256(data)
    for finding in findings:
        hashed.update(repr(finding).encode("utf-8", "surrogateescape"))
    return hashed.hexdigest()


def entry(digest: str, findings: list[Finding], worked: Fixable) -> Entry:
    return {
        "digest": digest,
        "safe": [i for i, f in enumerate(findings) if f in worked.safe],
        "unsafe": [i for i, f in enumerate(findings) if f in worked.unsafe],
    }


def readable(entry: Any, digest: str, count: int) -> TypeGuard[Entry]:
    """An entry of this digest whose indices are in range (a damaged one is worked out)."""
    if not isinstance(entry, dict) or entry.get("digest") != digest:
        return False
    lists = [entry.get("safe"), entry.get("unsafe")]
    return all(
        isinstance(items, list) and all(isinstance(i, int) and 0 <= i < count for i in items)
        for items in lists
    )

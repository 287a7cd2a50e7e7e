"""Roots, causes and fingerprints: what each finding reaches, shared by every reporter.

A finding's *root* is the unsafe call it comes down to. For ADK-W005 that is the last link of
its chain (the call in the helper that actually reads the clock, draws the id, ...), carrying
the code of that root; any other finding is its own root. Findings that reach the same root
(same code, path, line and call) share one *cause*: fixing that one line fixes them all.

Identifiers are digests of text the user wrote, never of line numbers alone, so they survive
edits above the finding:

- `Root.id`: the first 16 hex digits of SHA-256 over the root's code, path and call. Two
  roots with the same code and call in the same file share an id by design (same API, same
  file, same fix); `line` tells them apart where that matters.
- `fingerprints(findings)` (`replaylint/v1`): SHA-256 (32 hex digits) over the finding's code,
  path and call, its root's id, and its ordinal among the report's earlier findings with those
  same four values, so each finding of a report gets its own and it stays the same when
  unrelated lines are added or removed.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from replaylint.core.codes import Code
from replaylint.core.findings import Finding

FINGERPRINT_NAME = "replaylint/v1"


def digest(*parts: str) -> str:
    """SHA-256 hex of the parts, separated by a character no path or call contains."""
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Root:
    code: Code
    path: str
    line: int
    call: str

    @property
    def id(self) -> str:
        return digest(self.code.value, self.path, self.call)[:16]

    def as_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "code": self.code.value,
            "path": self.path,
            "line": self.line,
            "call": self.call,
        }


def root_of(finding: Finding) -> Root:
    if finding.code is Code.W005 and finding.chain:
        last = finding.chain[-1]
        # An engine that did not name the root's code still gets a root: the helper call's.
        return Root(finding.root or finding.code, last.path, last.line, last.call)
    return Root(finding.code, finding.path, finding.line, finding.call)


def cause_count(findings: Iterable[Finding]) -> int:
    return len({root_of(finding) for finding in findings})


def fingerprints(findings: Sequence[Finding]) -> list[str]:
    """One `replaylint/v1` fingerprint per finding, in the report's order (see the module doc)."""
    seen: Counter[tuple[str, str, str, str]] = Counter()
    result = []
    for finding in findings:
        base = (finding.code.value, finding.path, finding.call, root_of(finding).id)
        result.append(digest(*base, str(seen[base]))[:32])
        seen[base] += 1
    return result

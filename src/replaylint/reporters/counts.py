"""`--statistics`: how many findings of each code, most frequent first (as ruff prints them)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from replaylint.core.codes import RULES

if TYPE_CHECKING:
    from replaylint.core.findings import Report


def statistics(report: Report) -> str:
    """One line per code, `count  CODE  slug`, by count descending then code; empty when clean."""
    counts = Counter(finding.code for finding in report.findings)
    if not counts:
        return ""
    rows = sorted(counts.items(), key=lambda item: (-item[1], item[0].value))
    width = len(str(rows[0][1]))
    return "".join(f"{count:>{width}}  {code.value}  {RULES[code].slug}\n" for code, count in rows)

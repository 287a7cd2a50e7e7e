"""`--output-format concise`: `path:line:col: CODE message (call)`, one line per finding."""

from __future__ import annotations

from typing import TYPE_CHECKING

from replaylint.reporters.text import BOLD, code_and_mark, styled, tail

if TYPE_CHECKING:
    from replaylint.core.findings import Finding, Report


def render_finding(finding: Finding, report: Report, *, color: bool = False) -> str:
    path = styled(finding.path, BOLD, color)
    code = code_and_mark(finding, report, color)
    # Columns are 0-based inside, 1-based for the user.
    return f"{path}:{finding.line}:{finding.span.column + 1}: {code} {finding.message}"


def render(report: Report, *, color: bool = False, summary: bool = True) -> str:
    lines = [render_finding(f, report, color=color) for f in report.findings]
    if summary:
        lines.append(tail(report))
    return "\n".join(lines) + "\n" if lines else ""

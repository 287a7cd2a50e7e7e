"""The default text format: `path:line: CODE message (call)`, the remedy indented beneath."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from replaylint.findings import Finding, Report


def chain_line(finding: Finding) -> str:
    """`fetch_rates -> requests.get (line 12)`; hops in another file name it: `(helpers.py:12)`."""
    parts = [finding.call]
    for link in finding.chain:
        where = f"line {link.line}" if link.path == finding.path else f"{link.path}:{link.line}"
        parts.append(f"{link.call} ({where})")
    return " -> ".join(parts)


def render_finding(finding: Finding) -> str:
    lines = [f"{finding.path}:{finding.line}: {finding.code.value} {finding.message}"]
    if finding.chain:
        lines.append(f"    {chain_line(finding)}")
    lines.append(f"    {finding.remedy}")
    return "\n".join(lines)


def render(report: Report) -> str:
    blocks = [render_finding(f) for f in report.findings]
    count = len(report.findings)
    noun = "finding" if count == 1 else "findings"
    modules = report.workflow_modules
    tail = (
        f"{count} {noun} in {modules} workflow module{'s' if modules != 1 else ''} "
        f"({report.files} file{'s' if report.files != 1 else ''} checked)."
    )
    return "\n".join([*blocks, tail]) + "\n"

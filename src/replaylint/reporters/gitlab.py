"""`--output-format gitlab`: a GitLab code-quality report, a JSON array of issues."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from replaylint.core.codes import RULES
from replaylint.reporters.errors import tool_error
from replaylint.reporters.roots import fingerprints
from replaylint.reporters.text import chain_line

if TYPE_CHECKING:
    from replaylint.core.findings import Finding, Report

# A module that was not checked hides everything in it; a stale suppression hides nothing.
# Code Climate's severities: a module not checked at all is critical, a comment's own
# problem minor, a replay hazard major.
SEVERITY = {"module": "critical", "comment": "minor"}


def issue(finding: Finding, fingerprint: str) -> dict[str, Any]:
    description = finding.message
    if finding.chain:
        description += f": {chain_line(finding)}"
    return {
        "description": description,
        "check_name": finding.code.value,
        "fingerprint": fingerprint,
        "severity": SEVERITY.get(RULES[finding.code].kind, "major"),
        "location": {
            "path": finding.path,
            "lines": {"begin": finding.span.line, "end": finding.span.end_line},
        },
    }


def error_issue(line: str) -> dict[str, Any]:
    """A file that could not be checked: a blocker on that file, so the widget shows it (an
    empty report would read as clean)."""
    error = tool_error(line)
    return {
        "description": error.line,
        "check_name": "replaylint",
        "fingerprint": error.fingerprint,
        "severity": "blocker",
        "location": {"path": error.path or ".", "lines": {"begin": 1, "end": 1}},
    }


def render(report: Report) -> str:
    issues = [
        issue(f, p) for f, p in zip(report.findings, fingerprints(report.findings), strict=True)
    ]
    issues.extend(error_issue(line) for line in report.errors)
    return json.dumps(issues, indent=2) + "\n"

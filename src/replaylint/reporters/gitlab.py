"""`--output-format gitlab`: a GitLab code-quality report, a JSON array of issues."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from replaylint.core.codes import RULES
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


def render(report: Report) -> str:
    issues = [
        issue(f, p) for f, p in zip(report.findings, fingerprints(report.findings), strict=True)
    ]
    return json.dumps(issues, indent=2) + "\n"

"""`--output-format json`: one object, schema replaylint/findings@2 (findings-2.schema.json).

Lines and columns are 1-based; `end_column` is the column just after the last character of
the call (SARIF's convention), so `end_column - column` is its length on a one-line call.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import TYPE_CHECKING, Any

from replaylint.reporters.roots import cause_count, root_of
from replaylint.version import __version__

if TYPE_CHECKING:
    from replaylint.core.findings import Finding, Report

SCHEMA = "replaylint/findings@2"
SCHEMA_FILE = "findings-2.schema.json"


def schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of this format, as shipped in the package."""
    text = resources.files("replaylint.reporters").joinpath(SCHEMA_FILE).read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def finding_dict(finding: Finding) -> dict[str, Any]:
    """One finding as json@2 and json-lines write it; `chain_cut` only on a chain the report
    cut (report/chains.py), so that a cut chain never reads as whole."""
    written = {
        "path": finding.path,
        "line": finding.span.line,
        "column": finding.span.column + 1,
        "end_line": finding.span.end_line,
        "end_column": finding.span.end_column + 1,
        "code": finding.code.value,
        "message": finding.message,
        "call": finding.call,
        "remedy": finding.remedy,
        "chain": [{"path": c.path, "line": c.line, "call": c.call} for c in finding.chain],
        "root": root_of(finding).as_dict(),
    }
    if finding.hops_left_out:
        written["chain_cut"] = {
            "hops": finding.hops,
            "kept_first": len(finding.chain) - 1,
            "left_out": finding.hops_left_out,
        }
    return written


def as_dict(report: Report) -> dict[str, Any]:
    return {
        "schema": SCHEMA,
        "tool": {"name": "replaylint", "version": __version__},
        "summary": {
            "files": report.files,
            "workflow_modules": report.workflow_modules,
            "findings": len(report.findings),
            "causes": cause_count(report.findings),
            "exit_code": report.exit_code,
            "unresolved_imports": sum(m.unresolved_imports for m in report.modules),
        },
        "findings": [finding_dict(f) for f in report.findings],
        "modules": [
            {"path": m.path, "coverage": m.coverage, "identity": m.identity} for m in report.modules
        ],
        "errors": list(report.errors),
    }


def render(report: Report) -> str:
    return json.dumps(as_dict(report), indent=2) + "\n"

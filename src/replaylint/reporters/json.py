"""`--format json`: one object, schema replaylint/findings@1."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from replaylint.version import __version__

if TYPE_CHECKING:
    from replaylint.findings import Report

SCHEMA = "replaylint/findings@1"


def as_dict(report: Report) -> dict:
    return {
        "schema": SCHEMA,
        "tool": {"name": "replaylint", "version": __version__},
        "summary": {
            "files": report.files,
            "workflow_modules": report.workflow_modules,
            "findings": len(report.findings),
            "exit_code": report.exit_code,
            "unresolved_imports": sum(m.unresolved_imports for m in report.modules),
        },
        "findings": [
            {
                "path": f.path,
                "line": f.span.line,
                "column": f.span.column,
                "end_line": f.span.end_line,
                "end_column": f.span.end_column,
                "code": f.code.value,
                "message": f.message,
                "call": f.call,
                "remedy": f.remedy,
                "chain": [{"path": c.path, "line": c.line, "call": c.call} for c in f.chain],
                "root": f.root.value if f.root is not None else None,
            }
            for f in report.findings
        ],
        "modules": [
            {"path": m.path, "coverage": m.coverage, "identity": m.identity} for m in report.modules
        ],
        "errors": list(report.errors),
    }


def render(report: Report) -> str:
    return json.dumps(as_dict(report), indent=2) + "\n"

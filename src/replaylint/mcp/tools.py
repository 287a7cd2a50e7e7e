"""What the MCP tools answer, as plain data: a check of a file or of a source text (the
findings with their remedies, as `--output-format json` gives them, and whether `--fix` fixes
each), a rule's page, and the fix of a finding as a unified diff. No MCP here: the server
module only registers these."""

from __future__ import annotations

import difflib
import json
import os
from pathlib import Path
from typing import Any

from replaylint.api import guard, guard_source
from replaylint.core.codes import RULES, parse_code
from replaylint.core.docs import page
from replaylint.core.findings import Finding
from replaylint.report.replay_report import ReplayReport

DEFAULT_SOURCE_NAME = "workflow.py"


class UnansweredRequest(Exception):
    """A request the tool cannot answer, in one sentence for the agent."""


def _report(report: ReplayReport) -> dict[str, Any]:
    """The findings@2 JSON object, each finding marked `fixable` (what `--fix` would fix)."""
    data: dict[str, Any] = json.loads(report.to_json())
    safe = {(f.path, f.line, f.span.column + 1, f.code.value) for f in report.fixable.safe}
    unsafe = {(f.path, f.line, f.span.column + 1, f.code.value) for f in report.fixable.unsafe}
    for finding in data["findings"]:
        key = (finding["path"], finding["line"], finding["column"], finding["code"])
        finding["fixable"] = "safe" if key in safe else "unsafe" if key in unsafe else "no"
    data["text"] = report.summary()  # what `replaylint check` prints, for a person
    return data


def check_file(path: str) -> dict[str, Any]:
    """The check of a file or folder, as `replaylint check PATH --output-format json`."""
    if not os.path.exists(path):
        raise UnansweredRequest(f"{path}: no such file or directory")
    return _report(guard([path]))


def check_source(source: str, path: str = DEFAULT_SOURCE_NAME) -> dict[str, Any]:
    """The check of a module given as text, named `path` (its imports resolve beside it)."""
    return _report(guard_source(source, source=path))


def explain(code: str) -> str:
    """A rule's page (a code such as ADK-W003, or its slug)."""
    parsed = parse_code(code)
    if parsed is None:
        known = ", ".join(c.value for c in RULES)
        raise UnansweredRequest(f"unknown rule {code!r}; the rules are {known}")
    return page(parsed)


def rules() -> list[dict[str, str]]:
    return [
        {"code": code.value, "slug": meta.slug, "finding": meta.finding, "remedy": meta.remedy}
        for code, meta in RULES.items()
    ]


def propose_fix(
    path: str, line: int, code: str | None = None, source: str | None = None
) -> dict[str, Any]:
    """The fix of the findings on `line` (of `code`, when given) as a unified diff of the file
    (or of `source`, the file's text as the agent has it), with its safety and reason."""
    from replaylint.fixes import fix_for, fix_source

    text = source if source is not None else _read(path)
    report = guard_source(text, source=path)
    wanted = parse_code(code) if code else None
    chosen = [f for f in report.findings if f.line == line and wanted in (None, f.code)]
    if not chosen:
        raise UnansweredRequest(f"{path}:{line}: no finding{f' {code}' if code else ''} there")
    fixes = [(f, fix_for(f, text)) for f in chosen]
    offered = [(f, info) for f, info in fixes if info is not None]
    if not offered:
        return {"fixable": False, "diff": "", "findings": [_named(f) for f in chosen]}
    new, fixed = fix_source(text, [f for f, _ in offered], unsafe=True)
    diff = "".join(
        difflib.unified_diff(
            text.splitlines(keepends=True),
            new.splitlines(keepends=True),
            fromfile=f"a/{path}",
            tofile=f"b/{path}",
        )
    )
    return {
        "fixable": bool(fixed),
        "diff": diff,
        "fixes": [
            {**_named(f), "title": info.title, "safe": info.safe, "reason": info.reason}
            for f, info in offered
            if f in fixed
        ],
    }


def _named(finding: Finding) -> dict[str, Any]:
    return {"code": finding.code.value, "line": finding.line, "message": finding.message}


def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise UnansweredRequest(f"{path}: cannot read: {error}") from None

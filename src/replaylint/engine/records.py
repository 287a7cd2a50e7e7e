"""What the engine knows of one checked module once it is done with it: a Record, serialisable
(the cache stores it, a worker process returns it), and how records make one run's Outcome.

A record is a function of the module's bytes, the bytes of every local module it reaches
(`deps`), and the run's settings: that is what makes it safe to reuse when none of them changed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from replaylint.core.codes import Code
from replaylint.core.findings import ChainLink, Finding, FixRef, ModuleResult, Span
from replaylint.core.outcome import Outcome

# kinds: "plain" (read, not workflow code), "workflow" (checked; findings and a module result),
# "failed" (ADK-E001: could not be read), "error" (an internal error), "helpers" (imported
# modules that could not be read: one line each), "registrations" (what a part of the
# registrars registers, handed from a worker to the main process; never reported or stored).
PLAIN, WORKFLOW, FAILED, ERROR, HELPERS = "plain", "workflow", "failed", "error", "helpers"
REGISTRATIONS = "registrations"


@dataclass
class Record:
    path: str  # the module's resolved path
    display: str
    sha: str  # sha256 of its bytes
    kind: str
    findings: list[Finding] = field(default_factory=list)
    module: ModuleResult | None = None
    directives: dict[str, list[Any]] = field(default_factory=dict)  # display -> Directive
    errors: list[str] = field(default_factory=list)
    deps: list[tuple[str, str]] = field(default_factory=list)  # (resolved path, sha) reached
    cacheable: bool = True
    extra: bool = False  # made workflow code by another module's registration, not a candidate
    registrations: Any = None  # engine/registrations.py's summary, for kind "registrations"
    # The [*] marks of the files its findings sit in (core/marks.py entries, by path), when the
    # run's report shows them: handed to the main process, never stored.
    marks: dict[str, Any] = field(default_factory=dict)

    def reaches(self, focus: frozenset[Path]) -> bool:
        return Path(self.path) in focus or any(Path(p) in focus for p, _ in self.deps)


def assemble(records: Iterable[Record], focus: frozenset[Path] | None = None) -> Outcome:
    """One Outcome from records in a fixed order: a finding two records hold (a helper two
    workflows reach) is reported once, and a directive used by any record counts as used.

    `focus`: only the named files' failures and the workflow modules that reach them count."""
    outcome = Outcome()
    seen: set[tuple] = set()
    modules: set[str] = set()
    helper_errors: set[str] = set()
    used: dict[tuple[str, int, int], Any] = {}
    for record in records:
        if record.kind == HELPERS:
            helper_errors.update(record.errors)
            continue
        if record.kind == ERROR:
            outcome.errors.extend(e for e in record.errors if e not in outcome.errors)
            continue
        if focus is not None and record.kind == FAILED and Path(record.path) not in focus:
            continue
        if focus is not None and record.kind == WORKFLOW and not record.reaches(focus):
            continue
        for finding in record.findings:
            key = (finding.path, finding.span, finding.code, finding.call)
            if key not in seen:
                seen.add(key)
                outcome.findings.append(finding)
        if record.module is not None:
            outcome.owners.add(record.module.path, record.findings, record.directives)
        for path, entry in record.marks.items():
            outcome.marks.setdefault(path, []).append(entry)
        if record.module is not None and record.module.path not in modules:
            modules.add(record.module.path)
            outcome.modules.append(record.module)
        for display, directives in record.directives.items():
            kept = outcome.directives.setdefault(display, [])
            for directive in directives:
                where = (display, directive.line, directive.column)
                if where in used:
                    used[where].used |= directive.used
                else:
                    used[where] = directive
                    kept.append(directive)
    outcome.errors.extend(sorted(helper_errors))
    return outcome


# ---------------------------------------------------------------------- the JSON form


def to_json(record: Record) -> dict[str, Any]:
    return {
        "path": record.path,
        "display": record.display,
        "sha": record.sha,
        "kind": record.kind,
        "findings": [_finding(f) for f in record.findings],
        "module": None if record.module is None else _fields(record.module),
        "directives": {
            display: [_directive(d) for d in directives]
            for display, directives in record.directives.items()
        },
        "errors": record.errors,
        "deps": [list(dep) for dep in record.deps],
        "extra": record.extra,
    }


def from_json(data: dict[str, Any]) -> Record:
    """The record again (KeyError, TypeError or ValueError when the data is not one)."""
    directives: dict[str, list[Any]] = {}
    if data["directives"]:
        from replaylint.suppressions.directives import (
            Directive,  # LibCST: only when some module has one
        )

        for display, items in data["directives"].items():
            directives[display] = [
                Directive(
                    **{
                        **item,
                        "codes": [Code(c) for c in item["codes"]],
                        "used": {Code(c) for c in item["used"]},
                    }
                )
                for item in items
            ]
    module = data["module"]
    return Record(
        path=str(data["path"]),
        display=str(data["display"]),
        sha=str(data["sha"]),
        kind=str(data["kind"]),
        findings=[_unfinding(f) for f in data["findings"]],
        module=None if module is None else ModuleResult(**module),
        directives=directives,
        errors=[str(e) for e in data["errors"]],
        deps=[(str(p), str(s)) for p, s in data["deps"]],
        extra=bool(data["extra"]),
    )


def _fields(value: Any) -> dict[str, Any]:
    return {item.name: getattr(value, item.name) for item in fields(value)}


def _finding(finding: Finding) -> dict[str, Any]:
    data = _fields(finding)
    data["code"] = finding.code.value
    data["span"] = list(_fields(finding.span).values())
    data["chain"] = [[c.path, c.line, c.call] for c in finding.chain]
    data["root"] = None if finding.root is None else finding.root.value
    data["fix"] = None if finding.fix is None else _fields(finding.fix)
    return data


def _unfinding(data: dict[str, Any]) -> Finding:
    values = dict(data)
    values["code"] = Code(data["code"])
    values["span"] = Span(*data["span"])
    values["chain"] = tuple(ChainLink(p, line, call) for p, line, call in data["chain"])
    values["root"] = None if data["root"] is None else Code(data["root"])
    values["fix"] = None if data["fix"] is None else FixRef(**data["fix"])
    return Finding(**values)


def _directive(directive: Any) -> dict[str, Any]:
    data = _fields(directive)
    data["codes"] = [c.value for c in directive.codes]
    data["used"] = sorted(c.value for c in directive.used)
    return data

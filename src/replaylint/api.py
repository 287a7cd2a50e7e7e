"""The Python API: guard(paths) and guard_source(text, source=...) return a ReplayReport."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

from replaylint import __version__
from replaylint.codes import Code, matches_prefix
from replaylint.discovery import python_files
from replaylint.engine import ModuleResult, Outcome, Project, check_files
from replaylint.findings import Finding


@dataclass(frozen=True)
class ReplayReport:
    findings: tuple[Finding, ...]
    modules: tuple[ModuleResult, ...] = ()
    files: int = 0
    errors: tuple[str, ...] = field(default=())  # bad input: one line each, naming the file

    @property
    def workflow_modules(self) -> int:
        return len(self.modules)

    @property
    def exit_code(self) -> int:
        """0 clean, 1 findings, 2 when some input could not be checked at all."""
        if self.errors:
            return 2
        return 1 if self.findings else 0

    def summary(self) -> str:
        """The text report, exactly as `replaylint check` prints it."""
        from replaylint.reporters.text import render

        return render(self)

    def to_json(self) -> str:
        from replaylint.reporters.json import render

        return render(self)


def _selected(code: Code, select: Sequence[str] | None, ignore: Sequence[str] | None) -> bool:
    if select and not any(matches_prefix(code, s) for s in select):
        return False
    if ignore and any(matches_prefix(code, s) for s in ignore):
        return False
    return True


def report_from(
    outcome: Outcome, select: Sequence[str] | None = None, ignore: Sequence[str] | None = None
) -> ReplayReport:
    findings = sorted(
        (f for f in outcome.findings if _selected(f.code, select, ignore)),
        key=Finding.sort_key,
    )
    modules = tuple(sorted(outcome.modules, key=lambda m: m.path))
    return ReplayReport(tuple(findings), modules, outcome.files, tuple(outcome.errors))


def guard(
    paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]] = ".",
    *,
    select: Sequence[str] | None = None,
    ignore: Sequence[str] | None = None,
    project: Project | None = None,
) -> ReplayReport:
    """Check files and directories; the CI step returns report.exit_code and prints report.summary()."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    files, errors = python_files([os.fspath(p) for p in paths])
    outcome = check_files(files, project or Project())
    outcome.errors[:0] = errors
    return report_from(outcome, select, ignore)


def guard_source(
    text: str | bytes,
    source: str = "<stdin>",
    *,
    select: Sequence[str] | None = None,
    ignore: Sequence[str] | None = None,
    project: Project | None = None,
) -> ReplayReport:
    """Check one module given as text, named `source` (a path: local imports resolve beside it)."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    outcome = check_files([], project or Project(), stdin=(source, data))
    return report_from(outcome, select, ignore)


__all__ = ["ReplayReport", "guard", "guard_source", "__version__", "Path"]

"""The Python API: guard(paths) and guard_source(text, source=...) return a ReplayReport."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable, Sequence

from replaylint.codes import Code, matches_prefix
from replaylint.discovery import python_files
from replaylint.findings import Finding
from replaylint.outcome import ModuleResult, Outcome, display_path
from replaylint.prefilter import scan

if TYPE_CHECKING:
    from replaylint.engine import Project

MARKER_NEEDLES = (b"__adk_workflow__",)
# The frameworks' import names: a file that never mentions one cannot hold their workflow code.
FRAMEWORK_NEEDLES = (b"temporalio", b"dbos", b"restate", b"durable_functions", b"durabletask",
                     b"aws_durable_execution_sdk_python")


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


def run(
    paths: Sequence[str],
    stdin: tuple[str, bytes] | None = None,
    project: "Project | None" = None,
    needles: tuple[bytes, ...] = MARKER_NEEDLES + FRAMEWORK_NEEDLES,
) -> Outcome:
    """Discovery, the byte prefilter, then the engine for the candidates only.

    The engine (and LibCST with it) is imported only when some file passes the prefilter, so a
    tree with no workflow module costs a walk and a read per file.
    """
    files, errors = python_files(paths) if paths else ([], [])
    count, found, unreadable = scan(files, needles)
    candidates = [(path, display_path(path), data) for path, data in found]
    if stdin is not None:
        count += 1
        name, data = stdin
        if any(needle in data for needle in needles):
            candidates.append((name, name.replace(os.sep, "/"), data))
    if candidates:
        from replaylint.engine import Project, check_candidates

        outcome = check_candidates(candidates, project or Project())
    else:
        outcome = Outcome()
    outcome.files = count
    outcome.errors = errors + [f"{display_path(p)}: cannot read: {reason}" for p, reason in unreadable]
    return outcome


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
    project: "Project | None" = None,
) -> ReplayReport:
    """Check files and directories; the CI step returns report.exit_code and prints report.summary()."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    outcome = run([os.fspath(p) for p in paths], project=project)
    return report_from(outcome, select, ignore)


def guard_source(
    text: str | bytes,
    source: str = "<stdin>",
    *,
    select: Sequence[str] | None = None,
    ignore: Sequence[str] | None = None,
    project: "Project | None" = None,
) -> ReplayReport:
    """Check one module given as text, named `source` (a path: local imports resolve beside it)."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    outcome = run([], stdin=(source, data), project=project)
    return report_from(outcome, select, ignore)

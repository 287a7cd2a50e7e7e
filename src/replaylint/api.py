"""The Python API: guard(paths) and guard_source(text, source=...) return a ReplayReport."""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from replaylint.codes import Code, matches_prefix
from replaylint.config import PRESET_NAMES, PRESET_PACKAGES, Config, discover
from replaylint.discovery import printable, python_files
from replaylint.findings import Finding
from replaylint.outcome import Outcome, display_path
from replaylint.prefilter import import_pattern, is_candidate, scan
from replaylint.report import ReplayReport

if TYPE_CHECKING:
    from replaylint.project import Project

MARKER_NEEDLES = (b"__adk_workflow__",)
_NEEDLE_OF = {
    "durable_functions": "durable",
    "durabletask": "durable",
    "aws_durable_execution_sdk_python": "durable",
}


def needles_for(
    config: Config,
) -> tuple[tuple[bytes, ...], tuple[tuple[bytes, re.Pattern[bytes]], ...]]:
    """(marker needles, (framework needle, import pattern) pairs) for the prefilter."""
    markers = MARKER_NEEDLES + tuple(m.encode() for m in config.markers)
    names = PRESET_NAMES if config.frameworks is None else config.frameworks
    packages = [package for name in names for package in PRESET_PACKAGES[name]]
    pattern = import_pattern(packages)
    if pattern is None:
        return markers, ()
    # One substring per framework, shared where names overlap ("durable" covers three), since
    # each needle is one more pass over every byte of an ordinary tree.
    needles = sorted({_NEEDLE_OF.get(p.split(".")[-1], p.split(".")[-1]) for p in packages})
    return markers, tuple((needle.encode(), pattern) for needle in needles)


def run(
    paths: Sequence[str],
    stdin: tuple[str, bytes] | None = None,
    project: Project | None = None,
    config: Config | None = None,
) -> Outcome:
    """Discovery, the byte prefilter, then the engine for the candidates only.

    The engine (and LibCST with it) is imported only when some file passes the prefilter, so a
    tree with no workflow module costs a walk and a read per file.
    """
    config = config or Config()
    needles, imports = needles_for(config)
    exclude = (config.exclude or ()) + config.extend_exclude
    files, errors = (
        python_files(
            paths,
            exclude=exclude,
            default_excludes=config.exclude is None,
            respect_gitignore=config.respect_gitignore,
            base=config.base if config.sources else None,
        )
        if paths
        else ([], [])
    )
    count, found, unreadable = scan(files, needles, imports)
    candidates = [(path, display_path(path), data) for path, data in found]
    if stdin is not None:
        count += 1
        name, data = stdin
        if is_candidate(data, needles, imports):
            candidates.append((name, printable(name.replace(os.sep, "/")), data))
    if candidates:
        from replaylint.engine import check_candidates
        from replaylint.project import project_for

        outcome = check_candidates(candidates, project or project_for(config))
    else:
        outcome = Outcome()
    outcome.files = count
    outcome.errors = [
        *errors,
        *(f"{display_path(p)}: cannot read: {reason}" for p, reason in unreadable),
        *outcome.errors,  # internal errors of the engine, one line per file
    ]
    return outcome


def _selected(code: Code, select: Sequence[str] | None, ignore: Sequence[str] | None) -> bool:
    if select and not any(matches_prefix(code, s) for s in select):
        return False
    if ignore and any(matches_prefix(code, s) for s in ignore):
        return False
    return True


def _per_file_ignored(finding: Finding, config: Config | None) -> bool:
    if config is None or not config.per_file_ignores:
        return False
    relative = os.path.relpath(os.path.abspath(finding.path), config.base).replace(os.sep, "/")
    for glob, codes in config.per_file_ignores.items():
        if fnmatch.fnmatch(finding.path, glob) or fnmatch.fnmatch(relative, glob):
            if any(matches_prefix(finding.code, c) for c in codes):
                return True
    return False


def _suppress(
    findings: list[Finding],
    outcome: Outcome,
    select: Sequence[str] | None,
    ignore: Sequence[str] | None,
    config: Config | None,
) -> list[Finding]:
    """Apply each module's ignore comments, in one place, after every finding exists. A code
    that is not enabled for a file (by select/ignore or per-file-ignores) is never "unused"."""
    from replaylint import suppressions
    from replaylint.findings import Span

    by_path: dict[str, list[Finding]] = {}
    for finding in findings:
        by_path.setdefault(finding.path, []).append(finding)
    result: list[Finding] = []
    for path in set(by_path) | set(outcome.directives):

        def enabled(code: Code, path: str = path) -> bool:
            probe = Finding(code, path, Span(1, 0, 1, 0), "", "")
            return _selected(code, select, ignore) and not _per_file_ignored(probe, config)

        kept = suppressions.apply(
            by_path.get(path, []), outcome.directives.get(path, []), path, enabled
        )
        result.extend(f for f in kept if f.code not in (Code.S001, Code.S002) or enabled(f.code))
    return result


def report_from(
    outcome: Outcome,
    select: Sequence[str] | None = None,
    ignore: Sequence[str] | None = None,
    config: Config | None = None,
) -> ReplayReport:
    if config is not None:
        select = select or config.select
        ignore = [*config.ignore, *(ignore or ())]
    findings = [
        f
        for f in outcome.findings
        if _selected(f.code, select, ignore) and not _per_file_ignored(f, config)
    ]
    if outcome.directives:
        findings = _suppress(findings, outcome, select, ignore, config)
    findings.sort(key=Finding.sort_key)
    modules = tuple(sorted(outcome.modules, key=lambda m: m.path))
    return ReplayReport(tuple(findings), modules, outcome.files, tuple(outcome.errors))


def config_folder(paths: list[str]) -> Path | None:
    """The folder the checked paths share, where the configuration search starts."""
    real = [p for p in paths if p != "-" and os.path.exists(p)]
    if not real:
        return None
    common = os.path.commonpath([os.path.abspath(p) for p in real])
    return Path(common if os.path.isdir(common) else os.path.dirname(common))


def guard(
    paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]] = ".",
    *,
    select: Sequence[str] | None = None,
    ignore: Sequence[str] | None = None,
    project: Project | None = None,
    config: Config | None = None,
) -> ReplayReport:
    """Check files and directories; the CI step returns report.exit_code and prints report.summary().

    Settings come from `config` when given, else from the nearest `[tool.replaylint]` above the
    checked paths, as on the command line (pass `Config()` for the defaults).
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    names = [os.fspath(p) for p in paths]
    if config is None:
        config = discover(config_folder(names))
    outcome = run(names, project=project, config=config)
    return report_from(outcome, select, ignore, config)


def guard_source(
    text: str | bytes,
    source: str = "<stdin>",
    *,
    select: Sequence[str] | None = None,
    ignore: Sequence[str] | None = None,
    project: Project | None = None,
    config: Config | None = None,
) -> ReplayReport:
    """Check one module given as text, named `source` (a path: local imports resolve beside it,
    and settings come from the nearest `[tool.replaylint]` above it unless `config` is given)."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    if config is None:
        folder = os.path.dirname(os.path.abspath(source))
        config = discover(Path(folder)) if os.path.isdir(folder) else Config()
    outcome = run([], stdin=(source, data), project=project, config=config)
    return report_from(outcome, select, ignore, config)

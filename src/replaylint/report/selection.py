"""Which findings a file's own settings and the command line keep, applied in one place after
every finding exists: code selection, per-file ignores, excluded files, ignore comments."""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterable, Sequence
from functools import lru_cache

from replaylint.core.codes import COMMENT_CODES, Code
from replaylint.core.findings import Finding
from replaylint.core.outcome import Outcome
from replaylint.project.config import Config, Resolver
from replaylint.project.selectors import matches
from replaylint.report.chains import bounded
from replaylint.report.replay_report import ReplayReport


class Selection:
    """The codes enabled for each file. The command line takes precedence, as in ruff: its
    `--select` replaces the configuration's selection (its select and its ignores alike), and
    its `--ignore` is added to whatever is selected, and its `--extend-select` adds codes to it."""

    def __init__(
        self,
        resolver: Resolver,
        select: Sequence[str] = (),
        ignore: Sequence[str] = (),
        extend_select: Sequence[str] = (),
        named: Iterable[str] = (),
    ):
        self.resolver = resolver
        # Files named on the command line, as reports spell them: checked and reported even
        # when excluded, as in ruff, unless `force-exclude` leaves them out.
        self.named = frozenset(named)
        self.select = tuple(select)
        self.ignore = tuple(ignore)
        self.extend_select = tuple(extend_select)
        self.enabled = lru_cache(maxsize=None)(self._enabled)

    def config(self, path: str) -> Config:
        return self.resolver.for_path(path)

    def _enabled(self, code: Code, path: str) -> bool:
        config = self.config(path)
        if _per_file_ignored(code, path, config):
            return False
        if self.select:
            chosen = _any(code, self.select)
        else:
            chosen = (not config.select or _any(code, config.select)) or _any(
                code, config.extend_select
            )
            chosen = chosen and not _any(code, (*config.ignore, *config.extend_ignore))
        chosen = chosen or _any(code, self.extend_select)
        return chosen and not _any(code, self.ignore)

    def keeps(self, finding: Finding) -> bool:
        """A finding this file's selection keeps. An ADK-W005 goes too when the code of the root
        its chain ends in is ignored: ignoring ADK-W003 drops the helper calls that only reach a
        clock (selecting ADK-W005 alone keeps them all)."""
        if not self.enabled(finding.code, finding.path):
            return False
        return finding.root is None or not self._ignored(finding.root, finding.path)

    def _ignored(self, code: Code, path: str) -> bool:
        config = self.config(path)
        if _per_file_ignored(code, path, config) or _any(code, self.ignore):
            return True
        if self.select and _any(code, self.select):
            return False  # named again on the command line: that undoes the configuration
        return _any(code, (*config.ignore, *config.extend_ignore))

    def excluded(self, path: str) -> bool:
        """A file its own settings exclude is never reported (its code may still be reached,
        and a workflow's ADK-W005 through it is). The default folder names (.venv, build, ...)
        only prune a walk: a file named anyway is checked, unless `force-exclude` is set."""
        config = self.config(path)
        if path in self.named:
            return config.excludes_named(path)
        return config.excludes(path, walking=False)


def _any(code: Code, selectors: Sequence[str]) -> bool:
    return any(matches(code, selector) for selector in selectors)


def _per_file_ignored(code: Code, path: str, config: Config) -> bool:
    if not config.per_file_ignores:
        return False
    relative = os.path.relpath(os.path.abspath(path), config.base).replace(os.sep, "/")
    name = os.path.basename(path)
    for glob, codes in config.per_file_ignores.items():
        # A pattern without a slash also matches the file's name in any folder, as in ruff.
        matched = fnmatch.fnmatch(path, glob) or fnmatch.fnmatch(relative, glob)
        if matched or ("/" not in glob and fnmatch.fnmatch(name, glob)):
            if _any(code, codes):
                return True
    return False


def report_from(outcome: Outcome, selection: Selection) -> ReplayReport:
    """The report: what each file's selection keeps, after its ignore comments."""
    kept_paths = {
        path: not selection.excluded(path)
        for path in {f.path for f in outcome.findings} | set(outcome.directives)
    }
    findings = [f for f in outcome.findings if kept_paths[f.path] and selection.keeps(f)]
    if outcome.directives:
        findings = _suppress(findings, outcome, selection, kept_paths)
    findings.sort(key=Finding.sort_key)
    findings = bounded(findings)
    modules = tuple(
        sorted(
            (m for m in outcome.modules if not selection.excluded(m.path)),
            key=lambda m: m.path,
        )
    )
    return ReplayReport(
        tuple(findings),
        modules,
        outcome.files,
        tuple(outcome.errors),
        outcome.owners,
        marks=outcome.marks,
    )


def _suppress(
    findings: list[Finding],
    outcome: Outcome,
    selection: Selection,
    kept_paths: dict[str, bool],
) -> list[Finding]:
    """Each module's ignore comments. A code not enabled for a file is never "unused" there."""
    from replaylint.suppressions import (
        directives as suppressions,  # only when some module holds a directive (LibCST)
    )

    by_path: dict[str, list[Finding]] = {}
    for finding in findings:
        by_path.setdefault(finding.path, []).append(finding)
    result: list[Finding] = []
    for path in set(by_path) | {p for p in outcome.directives if kept_paths.get(p, True)}:

        def enabled(code: Code, path: str = path) -> bool:
            return selection.enabled(code, path)

        kept = suppressions.apply(
            by_path.get(path, []), outcome.directives.get(path, []), path, enabled
        )
        result.extend(f for f in kept if f.code not in COMMENT_CODES or enabled(f.code))
    return result


__all__ = ["Selection", "report_from"]

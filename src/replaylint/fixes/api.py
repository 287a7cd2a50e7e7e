"""The entry points of fixing: plan and apply a report's fixes to files, fix one editor buffer,
and describe the fix of one finding for a code action."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import libcst as cst

from replaylint.core.codes import Code
from replaylint.core.files import replace_whole
from replaylint.core.findings import Finding, Fixable, Report
from replaylint.fixes.attempts import fix_module, fix_module_both_ways, fix_module_with_code
from replaylint.fixes.data import FixData, default_data
from replaylint.fixes.edit import ModuleFixer
from replaylint.fixes.template import render
from replaylint.parse import unvalidated

_TITLE_WIDTH = 48
OUTSIDE_WORKFLOW = "unsafe here: code outside the workflow calls this helper too"


@dataclass(frozen=True)
class FileFix:
    """One file's fixes: its text before and after, and the findings the edits fix."""

    path: str  # as the report names it
    original: str
    new: str
    fixed: tuple[Finding, ...]
    encoding: str = "utf-8"

    def diff(self) -> str:
        """A unified diff of the change, `a/` and `b/` prefixed as git prints them."""
        lines = difflib.unified_diff(
            self.original.splitlines(keepends=True),
            self.new.splitlines(keepends=True),
            fromfile=f"a/{self.path}",
            tofile=f"b/{self.path}",
        )
        return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


@dataclass(frozen=True)
class FixInfo:
    """What a code action shows: its title, whether `--fix` applies it, and why."""

    title: str
    safe: bool
    reason: str


def _fixable(findings: Iterable[Finding], data: FixData) -> list[Finding]:
    """The findings some entry of the fixes may fix: a file holding none of them is not parsed
    (nor its scopes resolved, which on a large test module costs seconds) to find no fix."""
    return [
        f
        for f in findings
        if f.fix is not None
        and f.code is not Code.W005
        and data.candidates(f.fix.framework, f.fix.path, f.code)
    ]


def plan(report: Report, *, unsafe: bool, data: FixData | None = None) -> dict[str, FileFix]:
    """The fixes of every file the report's findings are in, by path; files no fix changes
    are left out. Nothing is written. Unsafe fixes only when `unsafe`."""
    data = data or default_data()
    planned: dict[str, FileFix] = {}
    for path, source, module, findings in _fixable_files(report.findings, data):
        try:
            fix = _file_fix(path, source, module, findings, data, unsafe)
        except RecursionError:
            continue  # nested deeper than LibCST's visitors reach: the file is left as it is
        if fix is not None:
            planned[path] = fix
    return planned


def fixable(report: Report, data: FixData | None = None) -> Fixable:
    """The findings `--fix` would fix, and those only `--unsafe-fixes` adds (each file read,
    parsed and analysed once for both, its edits made once when all are safe)."""
    return fixable_findings(report.findings, data)


def fixable_findings(findings: Iterable[Finding], data: FixData | None = None) -> Fixable:
    """`fixable` of any findings, a report's or some of them."""
    data = data or default_data()
    safe: set[Finding] = set()
    every: set[Finding] = set()
    for _, source, module, found in _fixable_files(findings, data):
        before = module.code
        try:
            both = fix_module_both_ways(module, found, data, source)
        except RecursionError:
            continue  # as plan() leaves it: no fix
        for (_, fixed, code), marked in zip(both, (safe, every), strict=True):
            if fixed and code != before:  # as _file_fix decides what a fix is
                marked.update(fixed)
    return Fixable(frozenset(safe), frozenset(every - safe))


def _fixable_files(
    findings: Iterable[Finding], data: FixData
) -> Iterator[tuple[str, bytes, cst.Module, list[Finding]]]:
    """Each file holding a fixable finding, in path order: its bytes, its tree and those
    findings."""
    by_path: dict[str, list[Finding]] = {}
    for finding in _fixable(findings, data):
        by_path.setdefault(finding.path, []).append(finding)
    for path in sorted(by_path):
        file = Path(path)
        if not file.is_file():
            continue  # stdin, or a file gone since the check
        try:
            source = file.read_bytes()
            module = unvalidated.parse_module(source)
        except (cst.ParserSyntaxError, OSError, UnicodeDecodeError, RecursionError):
            continue
        yield path, source, module, by_path[path]


def _file_fix(
    path: str,
    source: bytes,
    module: cst.Module,
    findings: list[Finding],
    data: FixData,
    unsafe: bool,
) -> FileFix | None:
    _, fixed, code = fix_module_with_code(module, findings, data, unsafe=unsafe, source=source)
    before = module.code
    if not fixed or code is None or code == before:
        return None
    ordered = tuple(sorted(fixed, key=Finding.sort_key))
    return FileFix(path, before, code, ordered, module.encoding)


def apply(
    report: Report, *, unsafe: bool, diff: bool, stream: TextIO, data: FixData | None = None
) -> tuple[int, int]:
    """Fix the report's files in place, or with `diff` write a unified diff of each to
    `stream` instead. Returns (files changed, fixes applied)."""
    planned = plan(report, unsafe=unsafe, data=data)
    for path in sorted(planned):
        fix = planned[path]
        if diff:
            stream.write(fix.diff())
        else:
            replace_whole(path, fix.new.encode(fix.encoding))
    return len(planned), sum(len(fix.fixed) for fix in planned.values())


def fix_source(
    source: str, findings: Iterable[Finding], *, unsafe: bool, data: FixData | None = None
) -> tuple[str, tuple[Finding, ...]]:
    """One buffer fixed with its findings (those of `guard_source` on it): the new text and the
    findings fixed. The text is unchanged when no fix applies or it cannot be parsed."""
    data = data or default_data()
    chosen = _fixable(findings, data)
    if not chosen:
        return source, ()
    try:
        module = cst.parse_module(source)
    except (cst.ParserSyntaxError, RecursionError):
        return source, ()
    edited, fixed = fix_module(module, chosen, data, unsafe=unsafe, source=source)
    return edited.code, tuple(sorted(fixed, key=Finding.sort_key))


def fix_for(
    finding: Finding, source: str | None = None, *, data: FixData | None = None
) -> FixInfo | None:
    """The fix of one finding, for a code action. With the buffer's `source` it is exactly the
    fix `fix_source` applies there (whatever its safety), or None. Without it no condition can
    be checked: the answer is the data's one fix for that name, which applies only where its
    conditions hold, and None for a name with several (datetime.now depends on its arguments)."""
    data = data or default_data()
    ref = finding.fix
    if ref is None:
        return None
    if source is None:
        candidates = data.candidates(ref.framework, ref.path, finding.code)
        if len(candidates) != 1:
            return None
        template = candidates[0]
        shown = (
            template.template.replace("{ctx}", ref.context or "ctx")
            .replace("{name}", ref.path.rsplit(".", 1)[-1])
            .replace("{callee}", finding.call)
            .replace("{receiver}", finding.call.rpartition(".")[0])
        )
        return FixInfo(f"Replace with {_short(shown)}", template.safe, template.reason)
    try:
        module = cst.parse_module(source)
    except (cst.ParserSyntaxError, RecursionError):
        return None
    fixer = ModuleFixer(module, data, (finding.span.line, finding.span.end_line), source)
    chosen = fixer.choose(finding)
    if chosen is None:
        return None
    node, plan = chosen
    assert isinstance(node, cst.BaseExpression)
    if isinstance(node, cst.Call) and node.args:
        # The title shows the arguments as `...`: they move over unchanged.
        node = node.with_changes(
            args=[cst.Arg(cst.Ellipsis())], whitespace_before_args=cst.SimpleWhitespace("")
        )
    replacement = render(plan.template.template, plan.template.wraps, fixer.parts(plan, node))
    if replacement is None:
        return None
    before = _short(cst.Module([]).code_for_node(node))
    after = _short(cst.Module([]).code_for_node(replacement))
    reason = plan.template.reason
    if plan.safe != plan.template.safe:
        reason = f"{OUTSIDE_WORKFLOW}; {reason}"
    return FixInfo(f"Replace {before} with {after}", plan.safe, reason)


def _short(code: str) -> str:
    """One line of at most _TITLE_WIDTH characters."""
    line = " ".join(code.split())
    return line if len(line) <= _TITLE_WIDTH else line[: _TITLE_WIDTH - 3] + "..."

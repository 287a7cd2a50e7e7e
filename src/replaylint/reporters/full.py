"""`--output-format full`: each finding as ruff's full format prints one, its code and message,
an arrow to `path:line:col`, the source lines around it with the call underlined, the chain as
a note and the remedy as help."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from replaylint.reporters.text import BOLD, CYAN, RED, chain_line, code_and_mark, styled, tail

if TYPE_CHECKING:
    from replaylint.core.findings import Finding, Report

CONTEXT = 2  # source lines shown before and after the finding's own, as ruff shows them
Lines = Callable[[str], Sequence[str]]


@lru_cache(maxsize=64)
def _file_lines(path: str) -> tuple[str, ...]:
    """A reported file's lines as it is now on disk; none for a module read from stdin."""
    try:
        with open(path, encoding="utf-8", errors="replace", newline=None) as handle:
            return tuple(handle.read().splitlines())
    except OSError:
        return ()


def render_finding(finding: Finding, report: Report, lines_of: Lines, color: bool) -> str:
    out = [f"{code_and_mark(finding, report, color)} {styled(finding.message, BOLD, color)}"]
    column = finding.span.column + 1
    out.append(f" {styled('-->', CYAN, color)} {finding.path}:{finding.line}:{column}")
    out.extend(_snippet(finding, lines_of(finding.path), color))
    if finding.chain:
        out.append(f"note: {chain_line(finding)}")
    out.append(f"{styled('help', BOLD, color)}: {finding.remedy}")
    return "\n".join(out)


def _snippet(finding: Finding, source: Sequence[str], color: bool) -> list[str]:
    """The finding's line among its neighbours, the call underlined with `^`."""
    line = finding.line
    if not 1 <= line <= len(source):
        return []
    first, last = max(1, line - CONTEXT), min(len(source), line + CONTEXT)
    width = len(str(last))
    gutter = styled(" " * width + " |", CYAN, color)
    shown = [gutter]
    for number in range(first, last + 1):
        text = source[number - 1].expandtabs(1)  # one column per character, as columns count
        shown.append(f"{styled(f'{number:>{width}} |', CYAN, color)} {text}".rstrip())
        if number == line:
            start = finding.span.column
            end = finding.span.end_column if finding.span.end_line == line else len(text)
            marks = "^" * max(1, end - start)
            shown.append(f"{gutter} {' ' * start}{styled(marks, RED, color)}")
    shown.append(gutter)
    return shown


def render(
    report: Report, *, color: bool = False, summary: bool = True, lines_of: Lines | None = None
) -> str:
    read = lines_of or _file_lines
    _file_lines.cache_clear()  # each report reads the files as they are now
    blocks = [render_finding(f, report, read, color) + "\n" for f in report.findings]
    if summary:
        blocks.append(tail(report))
    return "\n".join(blocks) + "\n" if blocks else ""

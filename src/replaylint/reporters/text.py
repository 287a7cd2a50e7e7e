"""The default text format: `path:line: CODE message (call)`, the remedy indented beneath; a
fixable finding carries `[*]` after its code, and the summary counts them, as ruff's do."""

from __future__ import annotations

from typing import TYPE_CHECKING

from replaylint.reporters.roots import cause_count

if TYPE_CHECKING:
    from replaylint.core.findings import Finding, Report

BOLD, RED, DIM, CYAN, RESET = "\x1b[1m", "\x1b[31m", "\x1b[2m", "\x1b[36m", "\x1b[0m"
FIX_MARK = "[*]"


def styled(text: str, ansi: str, color: bool) -> str:
    return f"{ansi}{text}{RESET}" if color else text


SHOWN_HOPS = 12  # a longer chain shows its first hops, how many it leaves out, then its root


def code_and_mark(finding: Finding, report: Report, color: bool) -> str:
    """`ADK-W003`, or `ADK-W003 [*]` when `--fix` fixes it."""
    code = styled(finding.code.value, RED, color)
    if finding in report.fixable.safe:
        return f"{code} {styled(FIX_MARK, CYAN, color)}"
    return code


def chain_line(finding: Finding) -> str:
    """`fetch_rates -> requests.get (line 12)`; hops in another file name it: `(helpers.py:12)`.
    A chain of more than SHOWN_HOPS says where it is cut: `... (2,988 more hops) -> time.time`
    (the JSON and SARIF reports hold every hop)."""
    parts = [finding.call]
    links = finding.chain
    left_out = max(finding.hops, len(links)) - SHOWN_HOPS  # hops: its length before a cut
    for link in links if left_out <= 0 else (*links[: SHOWN_HOPS - 1], links[-1]):
        where = f"line {link.line}" if link.path == finding.path else f"{link.path}:{link.line}"
        parts.append(f"{link.call} ({where})")
    if left_out > 0:
        parts.insert(-1, left_out_text(left_out))
    return " -> ".join(parts)


def left_out_text(count: int) -> str:
    """What stands for the hops a shown chain leaves out: `... (2,988 more hops)`."""
    return f"... ({count:,} more hop{'' if count == 1 else 's'})"


def render_finding(finding: Finding, report: Report, *, color: bool = False) -> str:
    path = styled(finding.path, BOLD, color)
    lines = [f"{path}:{finding.line}: {code_and_mark(finding, report, color)} {finding.message}"]
    if finding.chain:
        lines.append(f"    {chain_line(finding)}")
    lines.append(f"    {styled(finding.remedy, DIM, color)}")
    return "\n".join(lines)


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def tail(report: Report) -> str:
    """`27 findings (from 4 causes) in 5 workflow modules (785 files checked).`; the causes part
    only when some findings share a root (roots.py); then what `--fix` can do, if anything."""
    count = len(report.findings)
    causes = cause_count(report.findings)
    grouped = f" (from {plural(causes, 'cause')})" if causes < count else ""
    lines = [
        f"{plural(count, 'finding')}{grouped} in {plural(report.workflow_modules, 'workflow module')}"
        f" ({plural(report.files, 'file')} checked)."
    ]
    fixes = fix_summary(report)
    return "\n".join([*lines, fixes] if fixes else lines)


def fix_summary(report: Report) -> str:
    """ruff's line: `[*] 2 fixable with the `--fix` option (1 hidden fix can be enabled with the
    `--unsafe-fixes` option).`; "" when no fix applies."""
    safe, hidden = len(report.fixable.safe), len(report.fixable.unsafe)
    more = ""
    if hidden:
        fixes = "fix" if hidden == 1 else "fixes"
        more = f"{hidden} hidden {fixes} can be enabled with the `--unsafe-fixes` option"
    if safe:
        return f"{FIX_MARK} {safe} fixable with the `--fix` option" + (
            f" ({more})." if more else "."
        )
    return f"No fixes available ({more})." if more else ""


def render(report: Report, *, color: bool = False, summary: bool = True) -> str:
    blocks = [render_finding(f, report, color=color) for f in report.findings]
    if summary:
        blocks.append(tail(report))
    return "\n".join(blocks) + "\n" if blocks else ""

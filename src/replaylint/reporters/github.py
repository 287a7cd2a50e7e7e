"""`--output-format github`: one GitHub Actions workflow command (`::error ...::`) per finding."""

from __future__ import annotations

from typing import TYPE_CHECKING

from replaylint.core.codes import WARNING_CODES
from replaylint.reporters.errors import tool_error
from replaylint.reporters.text import chain_line

if TYPE_CHECKING:
    from replaylint.core.findings import Finding, Report

# Suppression findings are advice about comments, not replay hazards: annotated as warnings,
# as SARIF levels them.


def escape_data(text: str) -> str:
    """The message part of a workflow command: `%`, CR and LF are percent-encoded."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A `key=value` property: as data, and `:` and `,` too, which delimit properties."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(finding: Finding) -> str:
    span = finding.span
    properties = [f"file={escape_property(finding.path)}", f"line={span.line}"]
    # GitHub reads columns only on a one-line range; a multi-line call is annotated by lines.
    if span.line == span.end_line:
        properties.append(f"col={span.column + 1}")
    properties.append(f"endLine={span.end_line}")
    if span.line == span.end_line:
        properties.append(f"endColumn={span.end_column + 1}")
    properties.append(f"title={escape_property(finding.code.value)}")
    lines = [finding.message]
    if finding.chain:
        lines.append(chain_line(finding))
    lines.append(finding.remedy)
    level = "warning" if finding.code in WARNING_CODES else "error"
    message = escape_data("\n".join(lines))
    return f"::{level} {','.join(properties)}::{message}"


def error_command(line: str) -> str:
    """An input that could not be checked at all is an annotation on that file, so CI shows
    why where it happened."""
    error = tool_error(line)
    where = f"file={escape_property(error.path)}," if error.path else ""
    return f"::error {where}title=replaylint::{escape_data(error.line)}"


def render(report: Report) -> str:
    errors = [error_command(line) for line in report.errors]
    return "".join(line + "\n" for line in [*(command(f) for f in report.findings), *errors])

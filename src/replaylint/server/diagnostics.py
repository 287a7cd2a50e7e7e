"""Findings as LSP diagnostics: the rule code, source "replaylint", the call's range, and each
hop of an ADK-W005 chain as related information pointing at its line, and for a root in a
helper the workflow calls that reach it."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from lsprotocol import types
from pygls.uris import from_fs_path

from replaylint.core.codes import WARNING_CODES, Code
from replaylint.core.docs import page_path
from replaylint.core.findings import ChainLink, Finding
from replaylint.server.ranges import line_range, span_range
from replaylint.server.reach import Reach

SOURCE = "replaylint"

# The lines of a file a chain hop points into (its buffer when it is the document itself).
LinesOf = Callable[[str], Sequence[str]]


def severity(code: Code) -> types.DiagnosticSeverity:
    if code in WARNING_CODES:  # about the comments, not about replay
        return types.DiagnosticSeverity.Warning
    return types.DiagnosticSeverity.Error


def _description(code: Code) -> types.CodeDescription | None:
    """The rule's page as a file link, where the installed package ships it."""
    page = page_path(code)
    return types.CodeDescription(href=page.as_uri()) if page.is_file() else None


def _hop(link: ChainLink, lines_of: LinesOf, encoding: str) -> types.DiagnosticRelatedInformation:
    # Chain paths are display paths: relative to the working directory, the workspace root.
    path = os.path.abspath(link.path)
    return types.DiagnosticRelatedInformation(
        location=types.Location(
            uri=from_fs_path(path) or path,
            range=line_range(link.line, lines_of(path), encoding),
        ),
        message=f"calls {link.call} ({link.path}:{link.line})",
    )


def _reached_from(
    site: Reach, lines_of: LinesOf, encoding: str
) -> types.DiagnosticRelatedInformation:
    path = os.path.abspath(site.path)
    return types.DiagnosticRelatedInformation(
        location=types.Location(
            uri=from_fs_path(path) or path,
            range=line_range(site.line, lines_of(path), encoding),
        ),
        message=f"reached from the workflow: {site.call} ({site.path}:{site.line})",
    )


def to_diagnostic(
    finding: Finding,
    lines: Sequence[str],
    lines_of: LinesOf,
    encoding: str,
    reached: Sequence[Reach] = (),
) -> types.Diagnostic:
    """One finding of a document whose text is `lines`; `encoding` is the negotiated position
    encoding. The message is the finding's sentence, then the remedy on a line of its own, as
    the text report prints them. Related information: each hop of its chain, then the workflow
    calls that reach it (`reached`, for a root in a helper)."""
    related = [_hop(link, lines_of, encoding) for link in finding.chain]
    related += [_reached_from(site, lines_of, encoding) for site in reached]
    return types.Diagnostic(
        range=span_range(finding.span, lines, encoding),
        message=f"{finding.message}\n{finding.remedy}",
        severity=severity(finding.code),
        code=finding.code.value,
        code_description=_description(finding.code),
        source=SOURCE,
        related_information=related or None,
        data={"code": finding.code.value},
    )

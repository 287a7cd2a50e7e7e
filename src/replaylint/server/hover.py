"""Hover over a diagnostic: the page of its rule, as `replaylint rule CODE` prints it."""

from __future__ import annotations

from collections.abc import Sequence

from lsprotocol import types

from replaylint.core.docs import page
from replaylint.core.findings import Finding
from replaylint.server.ranges import contains


def hover_at(
    diagnosed: Sequence[tuple[Finding, types.Diagnostic]], position: types.Position
) -> types.Hover | None:
    """The pages of the rules whose diagnostics cover `position` (each page once, in the order
    of the diagnostics), over the range of the first of them."""
    codes = []
    first: types.Range | None = None
    for finding, diagnostic in diagnosed:
        if contains(diagnostic.range, position):
            first = first or diagnostic.range
            if finding.code not in codes:
                codes.append(finding.code)
    if first is None:
        return None
    pages = []
    for code in codes:
        try:
            pages.append(page(code).rstrip("\n"))
        except OSError:  # a page missing from a broken install: say which, never fail the hover
            pages.append(f"**{code.value}**: its page is not installed.")
    return types.Hover(
        contents=types.MarkupContent(
            kind=types.MarkupKind.Markdown, value="\n\n---\n\n".join(pages)
        ),
        range=first,
    )

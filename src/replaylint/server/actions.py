"""Code actions for a document's diagnostics: ignore the code on this line, ignore it in this
file, and the rule's own fix where `replaylint.fixes` has one."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from lsprotocol import types

from replaylint.core.codes import UNSUPPRESSIBLE_CODES
from replaylint.core.findings import Finding
from replaylint.server.analysis import Analysis, source_bytes
from replaylint.server.directives import Edit, file_ignore, line_ignored
from replaylint.server.ranges import overlaps, to_units
from replaylint.server.rule_fixes import FixOffer, rule_fix

# (the finding's index in its check, the finding) -> the fix offered for it, if any.
Offers = Callable[[int, Finding], "FixOffer | None"]

# Findings about the directives themselves, or a module that was not checked: no ignore fits.
_LINES_WITH_BREAKS = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


def _text_edit(edit: Edit, lines: Sequence[str], encoding: str) -> types.TextEdit:
    line = lines[edit.line] if edit.line < len(lines) else ""
    return types.TextEdit(
        range=types.Range(
            start=types.Position(edit.line, to_units(line, edit.start, encoding)),
            end=types.Position(edit.line, to_units(line, edit.end, encoding)),
        ),
        new_text=edit.text,
    )


def _replacement(old: str, new: str, encoding: str) -> types.TextEdit:
    """One edit turning `old` into `new`: the lines between their common head and tail."""
    before = _LINES_WITH_BREAKS.findall(old)
    after = _LINES_WITH_BREAKS.findall(new)
    head = 0
    while head < min(len(before), len(after)) and before[head] == after[head]:
        head += 1
    tail = 0
    while tail < min(len(before), len(after)) - head and before[-1 - tail] == after[-1 - tail]:
        tail += 1
    stop = len(before) - tail
    if stop == len(before) and before and not before[-1].endswith(("\n", "\r")):
        last = before[-1]
        end = types.Position(len(before) - 1, to_units(last, len(last), encoding))
    else:
        end = types.Position(stop, 0)
    return types.TextEdit(
        range=types.Range(start=types.Position(head, 0), end=end),
        new_text="".join(after[head : len(after) - tail]),
    )


def _action(
    title: str,
    uri: str,
    edit: types.TextEdit | None,
    diagnostic: types.Diagnostic,
    preferred: bool = False,
    data: object = None,
) -> types.CodeAction:
    return types.CodeAction(
        title=title,
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diagnostic],
        edit=types.WorkspaceEdit(changes={uri: [edit]}) if edit is not None else None,
        is_preferred=preferred or None,
        data=data,
    )


def _asked(
    diagnostic: types.Diagnostic, wanted: types.Range, context: Sequence[types.Diagnostic]
) -> bool:
    """Is this diagnostic one the client asks about: touching the range, or handed back in the
    request's context (clients send the diagnostics of the cursor's line there)?"""
    if overlaps(diagnostic.range, wanted):
        return True
    return any(
        given.source == diagnostic.source
        and given.code == diagnostic.code
        and given.range == diagnostic.range
        for given in context
    )


def code_actions(
    uri: str,
    analysis: Analysis,
    diagnosed: Sequence[tuple[Finding, types.Diagnostic]],
    wanted: types.Range,
    encoding: str,
    context: Sequence[types.Diagnostic] = (),
    offers: Offers | None = None,
) -> list[types.CodeAction]:
    """The actions for the diagnostics asked about, fixes first, then one "on this line" and
    one "in this file" per code. With `offers` (for a client that resolves actions) a rule's
    fix comes without its edit, which `resolve_fix` works out once the action is chosen."""
    fixes: list[types.CodeAction] = []
    ignores: list[types.CodeAction] = []
    offered: set[tuple[str, int | str]] = set()
    lines = analysis.lines
    for index, (finding, diagnostic) in enumerate(diagnosed):
        if finding.code in UNSUPPRESSIBLE_CODES or not _asked(diagnostic, wanted, context):
            continue
        code = finding.code.value
        if offers is not None:
            offer = offers(index, finding)
            if offer is not None:
                data = {"uri": uri, "version": analysis.version, "finding": index}
                action = _action(offer.title, uri, None, diagnostic, offer.safe, data)
                fixes.append(action)
        else:
            fix = rule_fix(finding, analysis.text)
            if fix is not None:
                edit = _replacement(analysis.text, fix.fixed, encoding)
                fixes.append(_action(fix.title, uri, edit, diagnostic, preferred=fix.safe))
        ignored = line_ignored(*source_bytes(analysis.text), finding)
        if ignored is not None:
            on_line = _replacement(analysis.text, ignored, encoding)
            if (code, on_line.range.start.line) not in offered:
                offered.add((code, on_line.range.start.line))
                ignores.append(_action(f"Ignore {code} on this line", uri, on_line, diagnostic))
        in_file = file_ignore(analysis.text, lines, finding.code)
        if in_file is not None and (code, "file") not in offered:
            offered.add((code, "file"))
            title = f"Ignore {code} in this file"
            ignores.append(_action(title, uri, _text_edit(in_file, lines, encoding), diagnostic))
    return fixes + ignores


def resolve_fix(
    action: types.CodeAction,
    analysis: Analysis,
    diagnosed: Sequence[tuple[Finding, types.Diagnostic]],
    encoding: str,
) -> types.CodeAction:
    """The chosen fix action with its edit, when the check it was offered from is still the
    document's (the same version) and the fix applies there; as it came otherwise."""
    data = action.data if isinstance(action.data, dict) else {}
    index, uri = data.get("finding"), data.get("uri")
    if data.get("version") != analysis.version or not isinstance(index, int):
        return action
    if not isinstance(uri, str) or not 0 <= index < len(diagnosed):
        return action
    fix = rule_fix(diagnosed[index][0], analysis.text)
    if fix is not None:
        edit = _replacement(analysis.text, fix.fixed, encoding)
        action.edit = types.WorkspaceEdit(changes={uri: [edit]})
    return action

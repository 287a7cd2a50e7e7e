"""`# replaylint: ignore[ADK-W003] -- reason`: parsed once, applied after all findings exist.

A directive on a finding's line (any line of a multi-line call) silences the codes it names
there; on a `def`/`class` line (or one of its decorators) it covers that whole body;
`# replaylint: file-ignore[...]` covers the module. A flake8-style `# noqa: ADK-W003` is a line
directive too, but only when it names one of our codes: a bare `# noqa`, or one naming only
other tools' codes (`E501`), belongs to those tools. A directive that silences nothing is
ADK-S001; one naming an unknown code, or none, is ADK-S002. Rules never read comments.
A versioning finding (ADK-V001..V004) is never silenced by a comment: it compares two revisions,
and a comment on the new side cannot vouch for the runs the old side started; only the
configuration (select, ignore, per-file ignores) turns those codes off.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import libcst as cst

from replaylint.core.codes import RULES, UNSUPPRESSIBLE_CODES, Code, parse_code
from replaylint.core.findings import Finding, Span
from replaylint.parse import positions
from replaylint.resolve.model import ModuleInfo
from replaylint.suppressions.headers import headers

_DIRECTIVE = re.compile(
    r"#\s*replaylint\s*:\s*(?P<kind>ignore|file-ignore)\b(?:\[(?P<codes>[^\]]*)\])?",
    re.IGNORECASE,
)
# A comment that may hold a directive; most modules mention `replaylint` only in an import.
_MAYBE_DIRECTIVE = re.compile(rb"#[^\n]*replaylint\s*:\s*(?:file-)?ignore", re.IGNORECASE)
# A flake8-style noqa list (`noqa: E501, ADK-W003`): codes split by commas or spaces.
NOQA_CODE = r"[A-Za-z]+(?:-[A-Za-z]+)?[0-9]+"
NOQA = re.compile(rf"#\s*noqa\s*:\s*(?P<codes>{NOQA_CODE}(?:[\s,]+{NOQA_CODE})*)", re.IGNORECASE)
_MAYBE_NOQA = re.compile(rb"#[^\n]*noqa\s*:[^\n]*ADK-", re.IGNORECASE)
OUR_PREFIX = "ADK-"  # a noqa naming a code with this prefix is ours


@dataclass
class Directive:
    line: int
    column: int
    kind: str  # "line", "block" or "file"
    codes: list[Code] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)
    first: int = 0  # the lines it covers
    last: int = 0
    used: set[Code] = field(default_factory=set)
    style: str = "replaylint"  # or "noqa": never widened to a whole body


def _comments(text: str) -> list[tuple[int, int, str]]:
    found = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT and (
                "replaylint" in token.string or "noqa" in token.string.lower()
            ):
                found.append((token.start[0], token.start[1], token.string))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    return found


def _statements(tree: cst.Module) -> tuple[list[cst.CSTNode], list[cst.CSTNode]]:
    """(every def and class, every simple statement line), found by walking statements only."""
    found: list[cst.CSTNode] = []
    lines: list[cst.CSTNode] = []
    stack: list[cst.CSTNode] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, cst.SimpleStatementLine):
            lines.append(node)
            continue
        if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            found.append(node)
        body = getattr(node, "body", None)
        if isinstance(body, cst.BaseSuite):
            stack.extend(s for s in body.body if isinstance(s, _STATEMENTS))
        for extra in ("orelse", "finalbody"):
            part = getattr(node, extra, None)
            if part is not None and hasattr(part, "body"):
                inner = part.body
                if isinstance(inner, cst.BaseSuite):
                    stack.extend(s for s in inner.body if isinstance(s, _STATEMENTS))
                elif isinstance(inner, (list, tuple)):
                    stack.extend(s for s in inner if isinstance(s, _STATEMENTS))
        for handler in getattr(node, "handlers", ()) or ():
            stack.extend(s for s in handler.body.body if isinstance(s, _STATEMENTS))
    return found, lines


_STATEMENTS = (cst.BaseCompoundStatement, cst.SimpleStatementLine)


def parse(source: bytes, tree: cst.Module) -> list[Directive]:
    ours = b"replaylint" in source and _MAYBE_DIRECTIVE.search(source) is not None
    if not ours and _MAYBE_NOQA.search(source) is None:
        return []
    text = source.decode(tree.encoding, errors="replace")
    directives: list[Directive] = []
    for line, column, comment in _comments(text):
        # One comment may hold several directives (a noqa list, then `# replaylint: ignore[...]`);
        # each starts with its own `#`, so a reason that mentions the grammar is not one.
        for match in _DIRECTIVE.finditer(comment):
            kind = "file" if match.group("kind").lower() == "file-ignore" else "line"
            items = (match.group("codes") or "").split(",")
            directives.append(_directive(line, column + match.start(), kind, items, "replaylint"))
        for match in NOQA.finditer(comment):
            items = re.findall(NOQA_CODE, match.group("codes"))
            ours_only = [item for item in items if item.upper().startswith(OUR_PREFIX)]
            if ours_only:  # other tools' codes are theirs to judge, never ADK-S002
                directives.append(
                    _directive(line, column + match.start(), "line", ours_only, "noqa")
                )
    line_directives = [d for d in directives if d.kind == "line" and d.codes]
    if line_directives:
        try:
            _widen_to_blocks(tree, line_directives, text)
        except RecursionError:
            pass  # too deep to place statements: each directive keeps to its own line
    return directives


def _directive(line: int, column: int, kind: str, items: list[str], style: str) -> Directive:
    directive = Directive(line, column, kind, first=line, last=line, style=style)
    for item in items:
        item = item.strip()
        if not item:
            continue
        code = parse_code(item)
        if code is None:
            directive.unknown.append(item)
        elif code not in directive.codes:
            directive.codes.append(code)
    return directive


def _widen_to_blocks(tree: cst.Module, directives: list[Directive], text: str) -> None:
    """A directive on any line of a statement that spans several lines covers that statement,
    wherever a formatter moved the comment (the closing bracket of a split call, the last line
    of a backslash continuation, the `):` of a split header); one on any line of a def's or
    class's header (its decorators included) covers its body too. A noqa keeps to its
    statement (a compound statement's header), as flake8's and ruff's do."""
    blocks, lines = _statements(tree)
    names = {block: block.name for block in blocks}  # type: ignore[attr-defined]
    spans = positions.spans(tree, [*blocks, *names.values(), *lines])
    by_line: dict[int, list[Directive]] = {}
    for directive in directives:
        by_line.setdefault(directive.line, []).append(directive)
    for first, last in _multi_line(lines, spans):
        for line in range(first, last + 1):
            for directive in by_line.get(line, ()):
                directive.first, directive.last = first, last
    body_ends = {}  # the line of a def's or class's name -> the last line of its body
    for block in blocks:
        whole, name = spans.get(block), spans.get(names[block])
        if whole is not None and name is not None:
            body_ends[name.line] = whole.end_line
    for header in headers(text):
        body_end = None
        if header.definition:
            body_end = next(
                (end for line, end in body_ends.items() if header.first <= line <= header.last),
                None,
            )
        for line in range(header.first, header.last + 1):
            for directive in by_line.get(line, ()):
                if body_end is not None and directive.style != "noqa":
                    directive.kind = "block"
                    directive.first, directive.last = header.first, body_end
                else:
                    directive.first = min(directive.first, header.first)
                    directive.last = max(directive.last, header.last)


def _multi_line(lines: list[cst.CSTNode], spans: dict[cst.CSTNode, Span]) -> list[tuple[int, int]]:
    found = []
    for statement in lines:
        whole = spans.get(statement)
        if whole is not None and whole.line != whole.end_line:
            found.append((whole.line, whole.end_line))
    return found


def statement_extents(tree: cst.Module) -> list[tuple[int, int]]:
    """(first, last) line of each simple statement written over several lines: a directive on
    any of its lines covers all of it (where `--add-ignore` may put one)."""
    _, lines = _statements(tree)
    return _multi_line(lines, positions.spans(tree, lines))


def covering(directives: list[Directive], code: Code, span: Span) -> Directive | None:
    """The directive that silences `code` at `span`, if one does: the first in the module that
    covers it (a later one that covers it too stays unused); none for a code no comment may
    silence."""
    if code in UNSUPPRESSIBLE_CODES:
        return None
    for directive in directives:
        if code in directive.codes and (
            directive.kind == "file"
            or directive.first <= span.line <= directive.last
            or (directive.kind == "line" and span.line <= directive.line <= span.end_line)
        ):
            return directive
    return None


def vouch(modules: Iterable[ModuleInfo]) -> dict[int, list[Directive]]:
    """Each module's directives (id(module) -> them), parsed once before helper chains are
    computed: one on an unsafe root's own line vouches for it, so the helper holding it stops
    propagating that root and its callers get no ADK-W005 for it (the directive is then used)."""
    parsed: dict[int, list[Directive]] = {}
    for module in modules:
        directives = parse(module.source, module.tree)
        if not directives:
            continue
        parsed[id(module)] = directives
        hits = [h for f in [module.top, *module.functions] for h in f.hits if h.propagates]
        if not hits:
            continue
        wanted = {hit.node: hit.statement for hit in hits}
        try:
            spans = positions.spans_in_statements(
                module.tree, wanted, module.first_lines, module.source
            )
        except RecursionError:
            continue  # too deep to place: its roots keep propagating
        for hit in hits:
            span = spans.get(hit.node)
            directive = covering(directives, hit.code, span) if span is not None else None
            if directive is not None:
                hit.propagates = False
                directive.used.add(hit.code)
    return parsed


def apply(
    findings: list[Finding],
    directives: list[Directive],
    path: str,
    enabled: Callable[[Code], bool],
) -> list[Finding]:
    """The findings left after the directives, plus ADK-S001/S002 for the directives themselves."""
    if not directives:
        return findings
    kept = []
    for finding in findings:
        silencer = covering(directives, finding.code, finding.span)
        if silencer is None:
            kept.append(finding)
        else:
            silencer.used.add(finding.code)
    for directive in directives:
        span = Span(directive.line, directive.column, directive.line, directive.column)
        if directive.unknown or not (directive.codes or directive.unknown):
            named = ", ".join(directive.unknown) if directive.unknown else "no code"
            kept.append(Finding(Code.S002, path, span, named, RULES[Code.S002].remedy))
        unused = [c for c in directive.codes if c not in directive.used and enabled(c)]
        if unused:
            named = ", ".join(_unused(c) for c in unused)
            kept.append(Finding(Code.S001, path, span, named, RULES[Code.S001].remedy))
    return kept


def _unused(code: Code) -> str:
    """An unused code as ADK-S001 names it, with why, where no comment could have used it."""
    if code in UNSUPPRESSIBLE_CODES:
        return f"{code.value}, which no comment can silence"
    return code.value

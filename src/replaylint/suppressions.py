"""`# replaylint: ignore[ADK-W003] -- reason`: parsed once, applied after all findings exist.

A directive on a finding's line (any line of a multi-line call) silences the codes it names
there; on a `def`/`class` line (or one of its decorators) it covers that whole body;
`# replaylint: file-ignore[...]` covers the module. A directive that silences nothing is
ADK-S001; one naming an unknown code, or none, is ADK-S002. Rules never read comments.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import libcst as cst

from replaylint import positions
from replaylint.codes import RULES, Code, parse_code
from replaylint.findings import Finding, Span
from replaylint.resolve.model import ModuleInfo

_DIRECTIVE = re.compile(
    r"#\s*replaylint\s*:\s*(?P<kind>ignore|file-ignore)\b(?:\[(?P<codes>[^\]]*)\])?",
    re.IGNORECASE,
)
# A comment that may hold a directive; most modules mention `replaylint` only in an import.
_MAYBE_DIRECTIVE = re.compile(rb"#[^\n]*replaylint\s*:\s*(?:file-)?ignore", re.IGNORECASE)


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


def _comments(text: str) -> list[tuple[int, int, str]]:
    found = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT and "replaylint" in token.string:
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
    if b"replaylint" not in source or not _MAYBE_DIRECTIVE.search(source):
        return []
    text = source.decode(tree.encoding, errors="replace")
    directives: list[Directive] = []
    for line, column, comment in _comments(text):
        match = _DIRECTIVE.search(comment)
        if match is None:
            continue
        kind = "file" if match.group("kind").lower() == "file-ignore" else "line"
        directive = Directive(line, column, kind, first=line, last=line)
        for item in (match.group("codes") or "").split(","):
            item = item.strip()
            if not item:
                continue
            code = parse_code(item)
            if code is None:
                directive.unknown.append(item)
            elif code not in directive.codes:
                directive.codes.append(code)
        directives.append(directive)
    line_directives = [d for d in directives if d.kind == "line" and d.codes]
    if line_directives:
        try:
            _widen_to_blocks(tree, line_directives)
        except RecursionError:
            pass  # too deep to place statements: each directive keeps to its own line
    return directives


def _widen_to_blocks(tree: cst.Module, directives: list[Directive]) -> None:
    """A directive on a def/class line covers its body; one on any line of a statement that
    spans several lines covers that statement, wherever a formatter moved the comment (the
    closing bracket of a split call, the last line of a backslash continuation)."""
    blocks, lines = _statements(tree)
    names = {block: block.name for block in blocks}  # type: ignore[attr-defined]
    spans = positions.spans(tree, [*blocks, *names.values(), *lines])
    by_line = {d.line: d for d in directives}
    for statement in lines:
        whole = spans.get(statement)
        if whole is None or whole.line == whole.end_line:
            continue
        for line in range(whole.line, whole.end_line + 1):
            directive = by_line.get(line)
            if directive is not None:
                directive.first, directive.last = whole.line, whole.end_line
    for block in blocks:
        whole = spans.get(block)
        header = spans.get(names[block])
        if whole is None or header is None:
            continue
        first = whole.line - len(getattr(block, "decorators", ()))
        for line in range(min(first, whole.line), header.line + 1):
            directive = by_line.get(line)
            if directive is not None:
                directive.kind = "block"
                directive.first, directive.last = line, whole.end_line


def _covering(directives: list[Directive], code: Code, span: Span) -> Directive | None:
    """The directive that silences `code` at `span`, if one does."""
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
            directive = _covering(directives, hit.code, span) if span is not None else None
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
        covering = _covering(directives, finding.code, finding.span)
        if covering is None:
            kept.append(finding)
        else:
            covering.used.add(finding.code)
    for directive in directives:
        span = Span(directive.line, directive.column, directive.line, directive.column)
        if directive.unknown or not (directive.codes or directive.unknown):
            named = ", ".join(directive.unknown) if directive.unknown else "no code"
            kept.append(Finding(Code.S002, path, span, named, RULES[Code.S002].remedy))
        unused = [c for c in directive.codes if c not in directive.used and enabled(c)]
        if unused:
            kept.append(
                Finding(
                    Code.S001,
                    path,
                    span,
                    ", ".join(c.value for c in unused),
                    RULES[Code.S001].remedy,
                )
            )
    return kept

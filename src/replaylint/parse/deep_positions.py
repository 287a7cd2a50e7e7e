"""Positions inside a statement too deep for LibCST's code generation, read from CPython's tree.

Code generation recurses once per level of nesting, and the walk never raises the recursion
limit, so a finding inside a thousand-term expression cannot be placed that way. CPython's
parser already accepted the module and records a position on every expression: the calls,
attributes and subscripts of the statement are paired, in source order, with LibCST's nodes of
the same kind, and a node takes its partner's position. Both sides are walked with explicit
stacks. When the two trees do not pair up exactly, nothing is guessed (None).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize

import libcst as cst

from replaylint.core.findings import Span
from replaylint.parse import pyast
from replaylint.parse.children import children

_KINDS: dict[type[cst.CSTNode], type[ast.AST]] = {
    cst.Call: ast.Call,
    cst.Attribute: ast.Attribute,
    cst.Subscript: ast.Subscript,
}
_LINE_END = re.compile(r"\r\n|\r|\n")


def locate(
    source: bytes, statement: cst.CSTNode, index: int, wanted: set[cst.CSTNode]
) -> dict[cst.CSTNode, Span] | None:
    """Spans of `wanted` (calls, attributes, subscripts) inside `statement`, the LibCST statement
    whose first CPython statement is number `index` in preorder; None when they cannot be paired."""
    if any(type(node) not in _KINDS for node in wanted):
        return None
    try:
        tree = pyast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    count = len(statement.body) if isinstance(statement, cst.SimpleStatementLine) else 1
    theirs = _ast_nodes(_preorder(tree)[index : index + count])
    ours = _cst_nodes(statement)
    lines = _lines(source)
    result: dict[cst.CSTNode, Span] = {}
    for kind, mine in ours.items():
        partners = theirs.get(_KINDS[kind], [])
        if len(partners) != len(mine):
            return None
        for node, partner in zip(mine, partners, strict=True):
            if node in wanted:
                result[node] = _span(partner, lines)
    return result if len(result) == len(wanted) else None


def _preorder(tree: ast.Module) -> list[ast.stmt]:
    """Statements in the preorder parsing.py numbers them in."""
    found: list[ast.stmt] = []
    stack: list[ast.stmt] = list(reversed(tree.body))
    while stack:
        statement = stack.pop()
        found.append(statement)
        inner: list[ast.stmt] = []
        for name in ("body", "handlers", "orelse", "finalbody", "cases"):
            for item in getattr(statement, name, ()):
                inner.extend([item] if isinstance(item, ast.stmt) else item.body)
        stack.extend(reversed(inner))
    return found


def _ast_nodes(statements: list[ast.stmt]) -> dict[type[ast.AST], list[ast.AST]]:
    """Each kind's nodes under the statements, in source order (an enclosing node first)."""
    found: dict[type[ast.AST], list[ast.AST]] = {kind: [] for kind in _KINDS.values()}
    stack: list[ast.AST] = list(statements)
    while stack:
        node = stack.pop()
        if type(node) in found:
            found[type(node)].append(node)
        stack.extend(ast.iter_child_nodes(node))
    for nodes in found.values():
        nodes.sort(key=_order)
    return found


def _order(node: ast.AST) -> tuple[int, int, int, int]:
    # `a.b().c()`: the outer call starts where the inner one does and ends after it.
    end_line = getattr(node, "end_lineno", None) or 0
    end_column = getattr(node, "end_col_offset", None) or 0
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0), -end_line, -end_column)


def _cst_nodes(statement: cst.CSTNode) -> dict[type[cst.CSTNode], list[cst.CSTNode]]:
    """Each kind's nodes under the statement in lexical preorder (`children` is lexical)."""
    found: dict[type[cst.CSTNode], list[cst.CSTNode]] = {kind: [] for kind in _KINDS}
    stack: list[cst.CSTNode] = [statement]
    while stack:
        node = stack.pop()
        if type(node) in found:
            found[type(node)].append(node)
        stack.extend(reversed(children(node)))
    return found


def _lines(source: bytes) -> list[bytes]:
    """The source's lines as CPython counts them, in UTF-8 (its columns are UTF-8 offsets)."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
    except SyntaxError:
        encoding = "utf-8"
    text = source.decode(encoding, errors="replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    return [line.encode("utf-8") for line in _LINE_END.split(text)]


def _span(node: ast.AST, lines: list[bytes]) -> Span:
    line, end_line = node.lineno, node.end_lineno or node.lineno  # type: ignore[attr-defined]
    column = _characters(lines, line, node.col_offset)  # type: ignore[attr-defined]
    end_column = _characters(lines, end_line, node.end_col_offset or 0)  # type: ignore[attr-defined]
    return Span(line, column, end_line, end_column)


def _characters(lines: list[bytes], line: int, offset: int) -> int:
    """A UTF-8 byte offset on a line as a character column (LibCST's columns count characters)."""
    if 0 < line <= len(lines):
        return len(lines[line - 1][:offset].decode("utf-8", errors="ignore"))
    return offset

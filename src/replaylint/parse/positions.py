"""Line and column of the few nodes that carry a finding, computed only when there is one.

LibCST's PositionProvider records a range for every node of the module; we need a handful.
One code generation pass over the module with a state that marks only the wanted nodes costs
well under half the parse (bench/), and modules without findings never pay it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager

import libcst as cst
from libcst._nodes.internal import CodegenState

from replaylint.core.findings import Span
from replaylint.parse import deep_positions


class _MarkingState(CodegenState):
    """Code generation that remembers the token index where wanted nodes start and end."""

    __slots__ = ("wanted", "marks")
    wanted: set[cst.CSTNode]
    marks: dict[cst.CSTNode, tuple[int, int]]

    @contextmanager
    def record_syntactic_position(
        self,
        node: cst.CSTNode,
        *,
        start_node: cst.CSTNode | None = None,
        end_node: cst.CSTNode | None = None,
    ) -> Iterator[None]:
        if node in self.wanted:
            start = len(self.tokens)
            yield
            self.marks[node] = (start, len(self.tokens))
        else:
            yield

    def before_codegen(self, node: cst.CSTNode) -> None:
        # Nodes that never record a syntactic position (Name, Attribute, ...) are marked here.
        if node in self.wanted and node not in self.marks:
            self.marks[node] = (len(self.tokens), -1)

    def after_codegen(self, node: cst.CSTNode) -> None:
        mark = self.marks.get(node)
        if mark is not None and mark[1] == -1:
            self.marks[node] = (mark[0], len(self.tokens))


def spans(module: cst.Module, nodes: Iterable[cst.CSTNode]) -> dict[cst.CSTNode, Span]:
    """Spans of the wanted nodes, by one code generation pass over the whole module."""
    wanted = set(nodes)
    if not wanted:
        return {}
    return _locate(module, module, wanted, 1)


def spans_in_statements(
    module: cst.Module,
    nodes: dict[cst.CSTNode, cst.CSTNode | None],
    first_lines: list[int] | None,
    source: bytes | None = None,
) -> dict[cst.CSTNode, Span]:
    """Spans of nodes given with the innermost statement holding each: only those statements'
    code is generated, each at its origin line and with its own indentation, so what it costs is
    the size of the statements with findings, not of the module (the whole module is the
    fallback when the parsers' statements do not pair up or a node is not where it was seen)."""
    origins = statement_origins(module, first_lines) if first_lines is not None else None
    if origins is None:
        return spans(module, nodes)
    by_statement: dict[int, tuple[cst.CSTNode, set[cst.CSTNode]]] = {}
    for node, statement in nodes.items():
        if statement is None or id(statement) not in origins:
            return spans(module, nodes)
        by_statement.setdefault(id(statement), (statement, set()))[1].add(node)
    result: dict[cst.CSTNode, Span] = {}
    for key, (statement, wanted) in by_statement.items():
        line, indent, index = origins[key]
        try:
            found = _locate(module, statement, wanted, line, indent)
        except RecursionError:
            # Too deep to generate: CPython's tree has the positions (or RecursionError stands).
            deep = deep_positions.locate(source, statement, index, wanted) if source else None
            if deep is None:
                raise
            found = deep
        if len(found) < len(wanted):
            return spans(module, nodes)
        result.update(found)
    return result


def statement_origins(
    module: cst.Module, first_lines: list[int]
) -> dict[int, tuple[int, str, int]] | None:
    """id(statement) -> (the source line its generated code starts on, its indentation, its
    number among CPython's statements in preorder), for
    every LibCST statement, paired in preorder with CPython's first lines; None when they do not
    pair up. A statement's code starts with its leading blank and comment lines."""
    origins: dict[int, tuple[int, str, int]] = {}
    index = 0
    stack: list[tuple[cst.CSTNode, str] | int] = [(s, "") for s in reversed(module.body)]
    while stack:
        item = stack.pop()
        if isinstance(item, int):  # the small statements of a one-line suite (`if x: a(); b()`)
            index += item
            continue
        node, indent = item
        if index >= len(first_lines):
            return None
        leading = len(getattr(node, "leading_lines", ()))
        decorators = getattr(node, "decorators", ())
        if decorators:
            if _after_its_at(module, decorators[0]):
                return None  # CPython's first line is not the `@`'s: no pairing by lines
            leading += len(decorators[0].leading_lines)
        origins[id(node)] = (first_lines[index] - leading, indent, index)
        if isinstance(node, cst.SimpleStatementLine):
            index += len(node.body)
            continue
        index += 1
        inner: list[tuple[cst.CSTNode, str] | int] = []
        for suite, extra in _suites(node, module.default_indent):
            if isinstance(suite, cst.If):  # an elif: a nested if at the same indentation
                inner.append((suite, indent))
            elif isinstance(suite, cst.IndentedBlock):
                block = suite.indent if suite.indent is not None else module.default_indent
                deeper = indent + extra + block
                inner.extend((statement, deeper) for statement in suite.body)
            elif isinstance(suite, cst.SimpleStatementSuite):
                inner.append(len(suite.body))
        stack.extend(reversed(inner))
    return origins if index == len(first_lines) else None


def _after_its_at(module: cst.Module, decorator: cst.Decorator) -> bool:
    """Does a line end between the decorator's `@` and its expression's first token
    (`@(` or `@ \\` before a newline)? CPython then dates the decorator, and a statement's
    first line, from the later line (a parenthesized tuple from its parenthesis: it is
    judged the same way, to be safe)."""
    text = decorator.whitespace_after_at.value + module.code_for_node(decorator.decorator)
    for character in text:
        if character in " \t\f(\\":
            continue  # a backslash here can only continue the line: its newline follows
        return character in "\r\n#"  # a comment is always followed by a newline here
    return False


def _suites(node: cst.CSTNode, default_indent: str) -> list[tuple[cst.CSTNode, str]]:
    """A compound statement's blocks in source order (an elif stands for itself), each with the
    indentation it adds before its own block's (a match indents its cases)."""
    found: list[tuple[cst.CSTNode, str]] = []
    body = getattr(node, "body", None)
    if isinstance(body, cst.BaseSuite):
        found.append((body, ""))
    for handler in getattr(node, "handlers", ()):
        found.append((handler.body, ""))
    if isinstance(node, cst.Match):
        cases = node.indent if node.indent is not None else default_indent
        found.extend((case.body, cases) for case in node.cases)
    orelse = getattr(node, "orelse", None)
    if isinstance(orelse, cst.If):
        found.append((orelse, ""))
    elif orelse is not None:
        found.append((orelse.body, ""))
    finalbody = getattr(node, "finalbody", None)
    if finalbody is not None:
        found.append((finalbody.body, ""))
    return found


def _locate(
    module: cst.Module,
    root: cst.CSTNode,
    wanted: set[cst.CSTNode],
    first_line: int,
    indent: str = "",
) -> dict[cst.CSTNode, Span]:
    """Generate `root`'s code, whose first line is `first_line` of the source and which sits at
    `indent` (so every line comes out as it reads in the module), marking `wanted`."""
    state = _MarkingState(
        default_indent=module.default_indent, default_newline=module.default_newline
    )
    if indent:
        state.indent_tokens.append(indent)
    state.wanted = wanted
    state.marks = {}
    root._codegen(state)
    tokens = state.tokens
    # Token index -> (line, column), walking the tokens once up to the last mark.
    wanted_indices = sorted({i for pair in state.marks.values() for i in pair})
    positions: dict[int, tuple[int, int]] = {}
    line, column, index = first_line, 0, 0
    for target in wanted_indices:
        while index < target:
            line, column = _advance(tokens[index], line, column)
            index += 1
        positions[target] = (line, column)
    result: dict[cst.CSTNode, Span] = {}
    for node, (start, end) in state.marks.items():
        start_line, start_column = positions[start]
        start_line, start_column = _skip_leading(tokens, start, start_line, start_column)
        end_line, end_column = positions[end]
        result[node] = Span(start_line, start_column, end_line, end_column)
    return result


def _skip_leading(tokens: list[str], index: int, line: int, column: int) -> tuple[int, int]:
    """Nodes marked before their own code generation may start with whitespace tokens."""
    while index < len(tokens) and tokens[index].strip() == "":
        line, column = _advance(tokens[index], line, column)
        index += 1
    return line, column


def _advance(token: str, line: int, column: int) -> tuple[int, int]:
    """The position just after `token`, written at (line, column). Lines end as CPython ends
    them: at a newline, a carriage return and newline, or a lone carriage return."""
    newlines = token.count("\n") + token.count("\r") - token.count("\r\n")
    if newlines:
        return line + newlines, len(token) - max(token.rfind("\n"), token.rfind("\r")) - 1
    return line, column + len(token)

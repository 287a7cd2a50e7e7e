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

from replaylint.findings import Span


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
    module: cst.Module, nodes: dict[cst.CSTNode, int], origins: list[int] | None
) -> dict[cst.CSTNode, Span]:
    """Spans of nodes given with the index of the top-level statement holding each: only those
    statements' code is generated, each placed at its origin line (parsing.statement_origins)."""
    if origins is None:
        return spans(module, nodes)
    by_statement: dict[int, set[cst.CSTNode]] = {}
    for node, top in nodes.items():
        by_statement.setdefault(top, set()).add(node)
    result: dict[cst.CSTNode, Span] = {}
    for top, wanted in by_statement.items():
        found = _locate(module, module.body[top], wanted, origins[top])
        if len(found) < len(wanted):  # a node outside its recorded statement: never guess
            return spans(module, nodes)
        result.update(found)
    return result


def _locate(
    module: cst.Module, root: cst.CSTNode, wanted: set[cst.CSTNode], first_line: int
) -> dict[cst.CSTNode, Span]:
    """Generate `root`'s code, whose first line is `first_line` of the source, marking `wanted`."""
    state = _MarkingState(
        default_indent=module.default_indent, default_newline=module.default_newline
    )
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

"""The text of a class's or function's body, cut from its module's source lines (no code is
generated): what tells a workflow or handler renamed with the same body from a new one."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

import libcst as cst

from replaylint.parse.positions import statement_origins
from replaylint.resolve.model import ModuleInfo

# id(def or class) -> (its body's first line, the first line of what follows it, 0 at the end)
_Spans = dict[int, tuple[int, int]]


class Bodies:
    """Bodies of the definitions at module level and in classes, each module's lines and
    statement positions read once; any other definition's body is generated from its tree."""

    def __init__(self) -> None:
        self._spans: dict[int, tuple[ModuleInfo, _Spans, list[bytes]]] = {}

    def text(self, module: ModuleInfo, node: cst.CSTNode) -> str:
        body = getattr(node, "body", None)
        if not isinstance(body, cst.CSTNode):
            return ""
        spans, lines = self._of(module)
        span = spans.get(id(node))
        if span is None:
            return module.tree.code_for_node(body)
        first, after = span
        cut = b"\n".join(lines[first - 1 : after - 1 if after else len(lines)])
        return textwrap.dedent(cut.decode("utf-8", "replace")).rstrip()

    def _of(self, module: ModuleInfo) -> tuple[_Spans, list[bytes]]:
        known = self._spans.get(id(module))
        if known is None or known[0] is not module:
            origins = statement_origins(module.tree, module.first_lines or [])
            spans: _Spans = {}
            if origins is not None and module.first_lines:
                _collect(module.tree.body, 0, origins, spans)
            known = self._spans[id(module)] = (module, spans, module.source.split(b"\n"))
        return known[1], known[2]


def _collect(
    statements: Sequence[cst.CSTNode],
    after: int,
    origins: dict[int, tuple[int, str, int]],
    spans: _Spans,
) -> None:
    """The span of each definition's body among these statements (and in the classes among
    them): from its first statement's first line (comments before it included) to the line
    where the next statement, its own or its container's, begins."""
    for index, statement in enumerate(statements):
        following = origins[id(statements[index + 1])][0] if index + 1 < len(statements) else after
        if not isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            continue
        body = statement.body
        if not isinstance(body, cst.IndentedBlock) or not body.body:
            continue
        spans[id(statement)] = (origins[id(body.body[0])][0], following)
        if isinstance(statement, cst.ClassDef):
            _collect(body.body, following, origins, spans)

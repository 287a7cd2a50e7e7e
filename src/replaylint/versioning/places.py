"""Where skeleton items sit: a placeholder for each node while skeletons are built, its position
computed only when a finding is reported there (only that statement's code is generated)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import libcst as cst

from replaylint.core.findings import Span
from replaylint.parse.positions import spans_in_statements
from replaylint.resolve.model import FunctionInfo, ModuleInfo
from replaylint.versioning.model import NOWHERE, Item, Where


class Places:
    """Placeholders now (a negative line naming a node), real positions after `finish()`."""

    def __init__(self) -> None:
        self.names: dict[Path, str] = {}  # a module's path as reports show it, by its file
        self._nodes: list[tuple[ModuleInfo, cst.CSTNode, cst.CSTNode | None]] = []
        self._spans: dict[int, Span | None] = {}

    def at(
        self, function: FunctionInfo | None, node: cst.CSTNode, statement: cst.CSTNode | None
    ) -> Where:
        if function is None:
            return NOWHERE
        module = function.module
        key = self._remember(module, node, statement)
        held = self._remember(module, statement, statement) if statement is not None else key
        return Where(self._shown(module), -key, statement=-held)

    def definition(self, module: ModuleInfo, node: cst.CSTNode) -> Where:
        """A class's or function's own line: its name (decorators come before it)."""
        name = getattr(node, "name", node)
        key = self._remember(module, name, node)
        return Where(self._shown(module), -key, statement=-key)

    def _shown(self, module: ModuleInfo) -> str:
        return self.names.get(module.path, module.display)

    def restated(
        self, item: Item, caller: FunctionInfo | None, statement: cst.CSTNode | None
    ) -> Item:
        """An item a helper issues, placed at the caller's statement in the caller's block."""
        if caller is None or statement is None:
            return item
        held = -self._remember(caller.module, statement, statement)
        return dataclasses.replace(item, where=dataclasses.replace(item.where, statement=held))

    def _remember(
        self, module: ModuleInfo, node: cst.CSTNode, statement: cst.CSTNode | None
    ) -> int:
        self._nodes.append((module, node, statement))
        return len(self._nodes)

    def where(self, where: Where, at_statement: bool = False) -> Where:
        """The real position of a placeholder (`at_statement`: its statement's first line)."""
        if where.line >= 0:
            return where
        span = self._span(-where.line)
        if span is None:
            return dataclasses.replace(where, line=1, column=0, statement=1)
        held = self._span(-where.statement) or span
        if at_statement:
            return Where(where.path, held.line, 0, held.line, 0, held.line)
        return Where(where.path, span.line, span.column, span.end_line, span.end_column, held.line)

    def _span(self, key: int) -> Span | None:
        if key not in self._spans and 0 < key <= len(self._nodes):
            module, node, statement = self._nodes[key - 1]
            found = spans_in_statements(
                module.tree, {node: statement}, module.first_lines, module.source
            )
            self._spans[key] = found.get(node)
        return self._spans.get(key)

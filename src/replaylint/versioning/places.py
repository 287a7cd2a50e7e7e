"""Where skeleton items sit: positions asked for while a skeleton is built, computed afterwards
in one pass per module (only the statements that hold an item are generated again)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import libcst as cst

from replaylint.core.findings import Span
from replaylint.parse.positions import spans_in_statements
from replaylint.resolve.model import FunctionInfo, ModuleInfo
from replaylint.versioning.model import (
    NOWHERE,
    Block,
    Branches,
    Gate,
    Guarded,
    Item,
    Loop,
    Where,
)


class Places:
    """Placeholders now (a negative line naming a node), real positions after `finish()`."""

    def __init__(self, shown: Callable[[ModuleInfo], str]) -> None:
        self.shown = shown  # a module's path as reports show it
        self._nodes: list[tuple[ModuleInfo, cst.CSTNode, cst.CSTNode | None]] = []
        self._spans: dict[int, Span] = {}

    def at(
        self, function: FunctionInfo | None, node: cst.CSTNode, statement: cst.CSTNode | None
    ) -> Where:
        if function is None:
            return NOWHERE
        module = function.module
        key = self._remember(module, node, statement)
        held = self._remember(module, statement, statement) if statement is not None else key
        return Where(self.shown(module), -key, statement=-held)

    def definition(self, module: ModuleInfo, node: cst.CSTNode) -> Where:
        """A class's or function's own line: its name (decorators come before it)."""
        name = getattr(node, "name", node)
        key = self._remember(module, name, node)
        return Where(self.shown(module), -key, statement=-key)

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

    def finish(self) -> None:
        """Compute every position asked for, one pass per module."""
        by_module: dict[int, tuple[ModuleInfo, dict[cst.CSTNode, cst.CSTNode | None]]] = {}
        for module, node, statement in self._nodes:
            by_module.setdefault(id(module), (module, {}))[1][node] = statement
        found: dict[int, Span] = {}
        for module, wanted in by_module.values():
            spans = spans_in_statements(module.tree, wanted, module.first_lines, module.source)
            for node, span in spans.items():
                found[id(node)] = span
        self._spans = {
            key: found[id(node)]
            for key, (_, node, _) in enumerate(self._nodes, start=1)
            if id(node) in found
        }

    def where(self, where: Where) -> Where:
        if where.line >= 0:
            return where
        span = self._spans.get(-where.line)
        if span is None:
            return dataclasses.replace(where, line=1, statement=1)
        held = self._spans.get(-where.statement, span)
        return Where(where.path, span.line, span.column, span.end_line, span.end_column, held.line)

    def block(self, block: Block) -> Block:
        return tuple(self.item(item) for item in block)

    def item(self, item: Item) -> Item:
        where = self.where(item.where)
        if isinstance(item, Gate):
            return Gate(item.patch, self.block(item.new), self.block(item.old), where)
        if isinstance(item, Branches):
            return Branches(tuple(self.block(arm) for arm in item.arms), where)
        if isinstance(item, Loop):
            return Loop(self.block(item.body), where)
        if isinstance(item, Guarded):
            handlers = tuple(self.block(h) for h in item.handlers)
            return Guarded(self.block(item.body), handlers, self.block(item.final), where)
        return dataclasses.replace(item, where=where)

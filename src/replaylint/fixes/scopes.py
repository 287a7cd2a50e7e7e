"""The scopes a fix asks about, worked out for the part of the module that holds its findings.

LibCST's scope analysis of a whole module costs about a second on a 4,000-line test module,
and a fix asks about a few nodes in one or two of its functions. So the analysis runs on the
module with the bodies of the other top-level functions and classes left out: every name a
kept part reads resolves exactly as in the whole module, because a left-out body binds nothing
at module level (a body that declares `global` or `nonlocal` is kept). A question about a node
outside the kept part, and the count of every import's readers, go to the whole module's
analysis, worked out only when first needed.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from functools import cached_property

import libcst as cst
from libcst.metadata import MetadataWrapper, Scope, ScopeProvider

_EMPTY_BODY = cst.IndentedBlock(body=[cst.SimpleStatementLine(body=[cst.Pass()])])


class Scopes:
    """The scope at each node of `module`; `holding`: the ids of the top-level statements
    that hold the fixes' findings (located.py; None: the whole module is analysed)."""

    def __init__(
        self,
        module: cst.Module,
        holding: Collection[int] | None = None,
        parents: Mapping[cst.CSTNode, cst.CSTNode] | None = None,
    ) -> None:
        self.module = module
        self.part = module
        self._parents = parents
        if holding is not None and parents is not None:
            self.part = _kept_part(module, holding, parents)
        # The top-level statements analysed as they are in the module (by id).
        self._kept = {id(s) for s, t in zip(self.part.body, module.body, strict=True) if s is t}

    @cached_property
    def whole(self) -> Mapping[cst.CSTNode, Scope | None]:
        """The whole module's scopes."""
        if self.part is self.module:
            return self.of_part
        return MetadataWrapper(self.module, unsafe_skip_copy=True).resolve(ScopeProvider)

    @cached_property
    def of_part(self) -> Mapping[cst.CSTNode, Scope | None]:
        """The scopes of the kept part (`self.part`, the module less the bodies left out)."""
        return MetadataWrapper(self.part, unsafe_skip_copy=True).resolve(ScopeProvider)

    def holds(self, node: cst.CSTNode) -> bool:
        """Is `node` in the part analysed as it is in the module?"""
        if self.part is self.module:
            return True
        if self._parents is None or isinstance(node, cst.Module):
            return False
        return id(_top(node, self._parents)) in self._kept

    def at(self, node: cst.CSTNode) -> Scope | None:
        """The node's scope (None where LibCST's analysis gives none, as for whitespace)."""
        if self.holds(node):
            return self.of_part.get(node)
        return self.whole.get(node)  # a node of a body left out, or the module


def _kept_part(
    module: cst.Module, holding: Collection[int], parents: Mapping[cst.CSTNode, cst.CSTNode]
) -> cst.Module:
    """The module with the body of each top-level function and class that holds no finding
    (is not in `holding`) and declares no `global` or `nonlocal` replaced by `pass`."""
    declaring = {id(_top(node, parents)) for node in parents if isinstance(node, _DECLARATIONS)}
    body: list[cst.BaseStatement] = []
    changed = False
    for statement in module.body:
        if (
            isinstance(statement, (cst.FunctionDef, cst.ClassDef))
            and id(statement) not in declaring
            and id(statement) not in holding
        ):
            body.append(statement.with_changes(body=_EMPTY_BODY))
            changed = True
        else:
            body.append(statement)
    return module.with_changes(body=body) if changed else module


_DECLARATIONS = (cst.Global, cst.Nonlocal)


def _top(node: cst.CSTNode, parents: Mapping[cst.CSTNode, cst.CSTNode]) -> cst.CSTNode:
    """The top-level statement holding `node`."""
    parent = parents.get(node)
    while parent is not None and not isinstance(parent, cst.Module):
        node, parent = parent, parents.get(parent)
    return node

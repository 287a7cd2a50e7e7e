"""The names a fix relies on: how the module spells an import, free and builtin names, the run
context parameter at a call, and where a missing import is added."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import libcst as cst
from libcst.metadata import Assignment, BuiltinAssignment

from replaylint.fixes.data import Requirement
from replaylint.fixes.scopes import Scopes

BLOCKED = None  # a name the replacement needs is bound to something else: no fix


@dataclass(frozen=True)
class _Binding:
    """A name a top-level import binds: `local` reaches `qualified`, and through it every name
    under `reach` (`import a.b` binds `a` and reaches `a.b`; `from a import b` reaches `a.b`)."""

    local: str
    qualified: str
    reach: str
    node: cst.Import | cst.ImportFrom

    def spell(self, name: str) -> str | None:
        if name == self.reach or name.startswith(self.reach + "."):
            return self.local + name[len(self.qualified) :]
        if self.reach.startswith(name + ".") and name.startswith(self.qualified):
            return self.local + name[len(self.qualified) :]  # `import a.b` spells `a` too
        return None


class Names:
    """Questions about names at a node of one module (scope analysis done once)."""

    def __init__(self, module: cst.Module, scopes: Scopes | None = None) -> None:
        self.module = module
        self.scopes = scopes or Scopes(module)
        self.bindings = _top_level_bindings(self.module)
        self.import_index = _import_index(self.module.body)

    def spelling(self, requirement: Requirement, at: cst.CSTNode) -> str | None:
        """How the code at `at` names `requirement.qualified`: an existing import's spelling,
        "" when the import is missing and its name is free (add it), BLOCKED otherwise."""
        scope = self.scopes.at(at)
        if scope is None:
            return BLOCKED
        for binding in self.bindings:
            spelled = binding.spell(requirement.qualified)
            if spelled is not None and self._only_imports(binding.local, at):
                return spelled
        if self.is_free(requirement.local, at):
            return ""
        return BLOCKED

    def _only_imports(self, local: str, at: cst.CSTNode) -> bool:
        """Is `local` at `at` bound only by top-level imports that all mean the same module?"""
        scope = self.scopes.at(at)
        if scope is None:
            return False
        assignments = scope[local]
        nodes = {id(b.node): b.qualified for b in self.bindings if b.local == local}
        meanings = {nodes.get(id(getattr(a, "node", None))) for a in assignments}
        return bool(assignments) and None not in meanings and len(meanings) == 1

    def is_free(self, name: str, at: cst.CSTNode) -> bool:
        """Nothing binds `name` where `at` is, nor anywhere at the module's top level."""
        scope = self.scopes.at(at)
        if scope is None:
            return False
        return not scope[name] and not scope.globals[name]

    def is_builtin(self, name: str, at: cst.CSTNode) -> bool:
        scope = self.scopes.at(at)
        if scope is None:
            return False
        assignments = scope[name]
        return bool(assignments) and all(isinstance(a, BuiltinAssignment) for a in assignments)

    def is_parameter(self, name: str, param: cst.Param, at: cst.CSTNode) -> bool:
        """Does `name` at `at` mean the parameter `param` and nothing else?"""
        scope = self.scopes.at(at)
        if scope is None:
            return False
        assignments = scope[name]
        return bool(assignments) and all(
            isinstance(a, Assignment) and a.node is param for a in assignments
        )

    def names_of(self, node: cst.CSTNode) -> set[str]:
        """The qualified names an expression may stand for (`timezone.utc` ->
        `datetime.timezone.utc` after `from datetime import timezone`)."""
        # What QualifiedNameProvider gives, asked of the node's scope only for the few nodes a
        # fix looks at: the provider's own pass over every node cost as much as the scopes.
        scope = self.scopes.at(node)
        found = scope.get_qualified_names_for(node) if scope is not None else set()
        return {q.name for q in found}


def _top_level_bindings(module: cst.Module) -> list[_Binding]:
    """What the module's unconditional top-level imports bind (a conditional or a
    `TYPE_CHECKING` import is not there at run time, so it spells nothing)."""
    found: list[_Binding] = []
    for statement in module.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if isinstance(small, cst.Import):
                for alias in small.names:
                    full = _dotted(alias.name)
                    if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                        found.append(_Binding(alias.asname.name.value, full, full, small))
                    else:
                        first = full.split(".")[0]
                        found.append(_Binding(first, first, full, small))
            elif (
                isinstance(small, cst.ImportFrom)
                and not small.relative
                and small.module is not None
                and isinstance(small.names, (list, tuple))
            ):
                base = _dotted(small.module)
                for alias in small.names:
                    name = f"{base}.{_dotted(alias.name)}"
                    local = alias.evaluated_alias or _dotted(alias.name)
                    found.append(_Binding(local, name, name, small))
    return found


def _dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    return ""


def _is_import_line(statement: cst.BaseStatement) -> bool:
    return isinstance(statement, cst.SimpleStatementLine) and all(
        isinstance(small, (cst.Import, cst.ImportFrom)) for small in statement.body
    )


def _is_docstring(statement: cst.BaseStatement) -> bool:
    return (
        isinstance(statement, cst.SimpleStatementLine)
        and len(statement.body) == 1
        and isinstance(statement.body[0], cst.Expr)
        and isinstance(statement.body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    )


def _import_index(body: Sequence[cst.BaseStatement]) -> int:
    """Where an added import goes: after the last top-level import line that comes before the
    first definition, else after the module docstring, else first."""
    index = 1 if body and _is_docstring(body[0]) else 0
    for position, statement in enumerate(body):
        if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            break
        if _is_import_line(statement):
            index = position + 1
    return index


def with_imports(module: cst.Module, statements: list[str], index: int) -> cst.Module:
    """The module with import lines added at `index` (see _import_index), in order."""
    if not statements:
        return module
    body = list(module.body)
    lines: list[cst.BaseStatement] = []
    for text in statements:
        line = cst.parse_statement(text + "\n")
        lines.append(line)
    after_docstring = index > 0 and _is_docstring(body[index - 1])
    if after_docstring and isinstance(lines[0], cst.SimpleStatementLine):
        lines[0] = lines[0].with_changes(leading_lines=[cst.EmptyLine()])
    return module.with_changes(body=[*body[:index], *lines, *body[index:]])

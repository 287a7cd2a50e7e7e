"""After a fix: the imports its own edits left unused are removed, and no other. A name bound
by an import that was read before the edits and is read nowhere after them goes (its alias,
or the whole statement when it was the last); an import unused before is none of our business."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import libcst as cst
from libcst.metadata import MetadataWrapper, Scope, ScopeProvider

from replaylint.parse.children import children

ImportNode = cst.Import | cst.ImportFrom


def used_imports(
    module: cst.Module, scopes: Mapping[cst.CSTNode, Scope | None] | None = None
) -> dict[str, int]:
    """Name bound by a module-level import -> how many times it is read. `scopes`: the
    module's ScopeProvider metadata, when the caller has resolved it already."""
    if scopes is None:
        wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
        scopes = wrapper.resolve(ScopeProvider)
    scope = scopes.get(module)
    counts: dict[str, int] = {}
    if scope is None:
        return counts
    for assignment in scope.assignments:
        node = getattr(assignment, "node", None)
        if isinstance(node, (cst.Import, cst.ImportFrom)):
            counts[assignment.name] = counts.get(assignment.name, 0) + len(assignment.references)
    return counts


def may_leave_unused(
    module: cst.Module,
    scopes: Mapping[cst.CSTNode, Scope | None],
    edited: Iterable[cst.CSTNode],
) -> bool:
    """Can edits confined to the `edited` nodes of `module` leave an import without a reader?
    Only when every read of some import-bound name lies inside them: a read elsewhere is still
    there after the edits, and still the import's (an edit adds reads, and imports only of free
    names). When it cannot, the scopes of the edited module need not be worked out again, which
    costs as much as the module's own (most of a fix's time on a large module)."""
    edited = list(edited)
    scope = scopes.get(module)
    if scope is None:
        return False  # no import is read before: none is made unused
    inside: set[int] = set()
    stack = list(edited)
    while stack:
        node = stack.pop()
        if id(node) not in inside:
            inside.add(id(node))
            stack.extend(children(node))
    read: set[str] = set()  # import-bound names read before the edits
    read_outside: set[str] = set()  # ... and read somewhere the edits leave as it was
    for assignment in scope.assignments:
        if not isinstance(getattr(assignment, "node", None), (cst.Import, cst.ImportFrom)):
            continue
        for access in assignment.references:
            read.add(assignment.name)
            if id(access.node) not in inside:
                read_outside.add(assignment.name)
                break
    return bool(read - read_outside)


def made_unused(
    before: cst.Module, after: cst.Module, used_before: dict[str, int] | None = None
) -> frozenset[str]:
    """The names the edits between `before` and `after` left without a reader
    (`used_before`: used_imports(before), when the caller has it)."""
    if used_before is None:
        used_before = used_imports(before)
    used_after = used_imports(after)
    return frozenset(
        name for name, count in used_after.items() if count == 0 and used_before.get(name, 0) > 0
    )


def _bound_name(alias: cst.ImportAlias) -> str:
    """The name an alias binds: `import a.b` binds `a`, `import a.b as c` binds `c`."""
    if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
        return alias.asname.name.value
    node: cst.BaseExpression = alias.name
    while isinstance(node, cst.Attribute):
        node = node.value
    return node.value if isinstance(node, cst.Name) else ""


class _Remove(cst.CSTTransformer):
    """Drops the aliases of module-level imports that bind one of `names`."""

    def __init__(self, names: frozenset[str]) -> None:
        self.names = names

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False  # only module-level imports were counted

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine | cst.RemovalSentinel:
        body = []
        for statement in updated_node.body:
            if isinstance(statement, (cst.Import, cst.ImportFrom)):
                kept = self._kept(statement)
                if kept is None:
                    continue
                statement = kept
            body.append(statement)
        if not body:
            if _has_comment(updated_node):
                return updated_node  # a comment is never dropped with the statement it is on
            return cst.RemoveFromParent()
        if len(body) != len(updated_node.body):
            last = body[-1].with_changes(semicolon=cst.MaybeSentinel.DEFAULT)
            body[-1] = last
        return updated_node.with_changes(body=body)

    def _kept(self, statement: ImportNode) -> ImportNode | None:
        if isinstance(statement.names, cst.ImportStar):
            return statement
        aliases = [a for a in statement.names if _bound_name(a) not in self.names]
        if len(aliases) == len(statement.names):
            return statement
        if not aliases:
            return None
        aliases[-1] = aliases[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return statement.with_changes(names=aliases)


def _has_comment(line: cst.SimpleStatementLine) -> bool:
    if line.trailing_whitespace.comment is not None:
        return True
    return any(empty.comment is not None for empty in line.leading_lines)


def without_unused_imports(
    before: cst.Module, after: cst.Module, used_before: dict[str, int] | None = None
) -> cst.Module:
    """`after` less the imports its edits made unused."""
    unused = made_unused(before, after, used_before)
    if not unused:
        return after
    removed = after.visit(_Remove(unused))
    first = removed.body[0] if removed.body else None
    if first is None or not after.body or first is after.body[0]:
        return removed
    if any(line.comment is not None for line in removed.header):
        return removed  # a comment heads the file: the blank line under it stays
    # The file's first lines went: the blank lines that parted them from the rest go too.
    if isinstance(first, (cst.SimpleStatementLine, cst.BaseCompoundStatement)) and all(
        line.comment is None for line in first.leading_lines
    ):
        first = first.with_changes(leading_lines=[])
        removed = removed.with_changes(body=[first, *removed.body[1:]])
    return removed

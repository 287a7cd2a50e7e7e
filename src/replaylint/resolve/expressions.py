"""Expressions: attributes, subscripts, operators, literals and comprehensions, folded to values."""

from __future__ import annotations

import libcst as cst

from replaylint.resolve import folds, tables
from replaylint.resolve.facts import Reference
from replaylint.resolve.model import Class, ClassInfo, Func, FunctionInfo, LocalModule, Obj, Super
from replaylint.resolve.scopes import Scope
from replaylint.resolve.statements import loop_element
from replaylint.resolve.values import (
    MODULE_TABLE,
    UNKNOWN,
    Const,
    Ext,
    Mapping,
    ModuleTable,
    Namespace,
    OneOf,
    Seq,
    Table,
    Value,
)
from replaylint.resolve.walker import Walker


class Expressions(Walker):
    # The object of the subscript, attribute or method call being evaluated: reading it is
    # reported as that whole use (`os.environ["HOME"]`, `os.environ.get`), not on its own.
    _unreported: cst.CSTNode | None = None

    def _lookup(self, name: str) -> Value:
        value = super()._lookup(name)
        if (
            value is UNKNOWN
            and self.catalog.has_members(f"builtins.{name}")
            and self.scope.lookup(name) is None
        ):
            return Ext(f"builtins.{name}")  # a builtin the catalog names (`open`)
        return value

    def _name(self, node: cst.Name) -> Value:
        return self._read(node, self._lookup(node.value))

    def _quiet(self, node: cst.BaseExpression) -> Value:
        """Evaluate the object of a use that reports a read itself."""
        outer, self._unreported = self._unreported, node
        value = self.eval(node)
        self._unreported = outer
        return value

    def _read(self, node: cst.CSTNode, value: Value) -> Value:
        """Report `node` when it reads an object whose reading is unsafe (`sys.argv`)."""
        if isinstance(value, Ext) and Reference in self.wants and node is not self._unreported:
            if self.catalog.read_entry(value.path) is not None and not self._bound_as_is(node):
                self._report_read(node, value.path)
        return value

    def _report_read(self, node: cst.CSTNode, path: str) -> None:
        entry = self.catalog.read_entry(path)
        if entry is not None and Reference in self.wants:
            text = " ".join(self.m.tree.code_for_node(node).split())
            call = text if len(text) <= 60 else text[:57] + "..."
            self.sink.emit(Reference(node, self.site(), path, entry, call))

    def _bound_as_is(self, node: cst.CSTNode) -> bool:
        """`env = os.environ` only names the object (as `now = time.time` names a clock): the
        read is reported where the name is used."""
        line = self.statement
        return isinstance(line, cst.SimpleStatementLine) and any(
            isinstance(small, (cst.Assign, cst.AnnAssign)) and small.value is node
            for small in line.body
        )

    def _attribute(self, node: cst.Attribute) -> Value:
        value = self.attr(self._quiet(node.value), node.attr.value)
        if isinstance(value, Func) and value.bound and _is_property(value.info):
            # `self.now` on a @property runs its body: a call in disguise.
            self._helper(value.info, node, folds.written(node) or value.info.name)
            return value.info.returns
        return self._read(node, value)

    def attr(self, value: Value, name: str) -> Value:
        if isinstance(value, OneOf):
            return tables.one_of(self.attr(item, name) for item in value.items)
        if isinstance(value, Ext):
            if name == "__dict__":
                return Namespace(value)
            if value.path == "sys" and name == "modules":
                return MODULE_TABLE
            if value.path.endswith("()"):
                same = self.catalog.attribute_instance(value.path, name)
                if same is not None:
                    return Ext(same)  # `path.parent` is a Path too
            return Ext(f"{value.path}.{name}")
        if isinstance(value, LocalModule):
            if self.catalog.declared_unsafe(f"{value.info.name}.{name}"):
                return Ext(f"{value.info.name}.{name}")  # declared unsafe by the project
            found = value.info.exports.get(name)
            if found is not None:
                return found
            sub = self.project.resolve_module(f"{value.info.name}.{name}", 0, self.m)
            return LocalModule(sub) if sub is not None else UNKNOWN
        if isinstance(value, Super):
            for base in value.info.local_bases:
                found = base.lookup(name, instance=True)
                if isinstance(found, Func):
                    return Func(found.info, bound=True)
                if found is not None:
                    return found
            for external in value.info.external_bases:
                return (
                    Ext(f"{external}().{name}") if self.catalog.client_class(external) else UNKNOWN
                )
            return UNKNOWN
        if isinstance(value, Func) and name in self.catalog.wrapper_methods:
            # `send_email.invoke(args)` of a LangChain `@tool`: the tool runs the function.
            if not self.catalog.wrapping_decorators.isdisjoint(value.info.decorators):
                return value  # bound or not, as it was reached
            return UNKNOWN
        if isinstance(value, (Obj, Class)):
            if name == "__dict__":
                return Namespace(value)
            found = value.info.lookup(name, instance=isinstance(value, Obj))
            if isinstance(found, Func):
                return Func(found.info, bound=isinstance(value, Obj))
            if found is None and isinstance(value, Class):
                return self._inherited(value.info, name)
            if found is None:
                return self._client_member(value.info, name)
            return found
        return UNKNOWN

    def _inherited(self, info: ClassInfo, name: str) -> Value:
        """`LoggingRunner.run` of `class LoggingRunner(agents.Runner)`: a class attribute the
        local class leaves to an outside base, when the catalog says what that one does."""
        for current in info.lineage():
            for external in current.external_bases:
                candidate = f"{external}.{name}"
                if candidate in self.catalog.calls:
                    return Ext(candidate)
                client = self.catalog.client_class(candidate)
                if client is not None:
                    return Ext(f"{client}()")  # `Post.objects` of a Django model: its manager
        return UNKNOWN

    def _client_member(self, info: ClassInfo, name: str) -> Value:
        """`PostManager().filter` of `class PostManager(models.Manager)`: a method the local
        class leaves to an outside base that the catalog knows as a client is that client's."""
        for current in info.lineage():
            for external in current.external_bases:
                client = self.catalog.client_class(external)
                if client is not None:
                    return Ext(f"{client}().{name}")
        return UNKNOWN

    def _await(self, node: cst.Await) -> Value:
        return self.eval(node.expression)

    def _concatenated(self, node: cst.ConcatenatedString) -> Value:
        value = folds.literal(node)
        if value is UNKNOWN:
            self.eval(node.left)
            self.eval(node.right)
        return value

    def _fstring(self, node: cst.FormattedString) -> Value:
        parts: list[str] = []
        constant = True
        for part in node.parts:
            if isinstance(part, cst.FormattedStringText):
                parts.append(part.value)
                continue
            assert isinstance(part, cst.FormattedStringExpression)
            value = self.eval(part.expression)
            if (
                constant
                and isinstance(value, Const)
                and part.conversion is None
                and part.format_spec is None
            ):
                parts.append(str(value.value))
            else:
                constant = False
        return Const("".join(parts)) if constant else UNKNOWN

    def _binary(self, node: cst.BinaryOperation) -> Value:
        # `a + b + c + ...` nests to the left: walked along that spine in a loop, left to right,
        # so a sum of thousands of terms costs no recursion.
        spine = [node]
        while isinstance(spine[-1].left, cst.BinaryOperation):
            spine.append(spine[-1].left)
        value = self.eval(spine[-1].left)
        for operation in reversed(spine):
            value = self._combine(operation.operator, value, self.eval(operation.right))
        return value

    def _combine(self, operator: cst.BaseBinaryOp, left: Value, right: Value) -> Value:
        if isinstance(operator, cst.Divide) and isinstance(left, Ext) and left.path.endswith("()"):
            joined = self.catalog.attribute_instance(left.path, "__truediv__")
            if joined is not None:
                return Ext(joined)  # `base / "data.json"` is a Path like base
        if isinstance(operator, cst.BitOr):
            # A LangChain pipeline (`prompt | llm | parser`) runs the model when invoked.
            for side in (left, right):
                if isinstance(side, Ext) and "()" in side.path:
                    if self.catalog.client_class(side.path[: side.path.rfind("()")]) is not None:
                        return side
        algebra = self._set_algebra(operator, left, right)  # containers.py: `a | b` of sets
        return algebra if algebra is not None else folds.binary(operator, left, right)

    def _unary(self, node: cst.UnaryOperation) -> Value:
        value = self.eval(node.expression)
        if (
            isinstance(node.operator, cst.Minus)
            and isinstance(value, Const)
            and isinstance(value.value, int)
        ):
            return Const(-value.value)
        return UNKNOWN

    def _boolean(self, node: cst.BooleanOperation) -> Value:
        spine = [node]  # `a and b and ...` nests to the left too
        while isinstance(spine[-1].left, cst.BooleanOperation):
            spine.append(spine[-1].left)
        value = self.eval(spine[-1].left)
        for operation in reversed(spine):
            right = self.eval(operation.right)
            # `client = client or OpenAI()`: keep whichever side is known.
            value = value if value is not UNKNOWN and not isinstance(value, Const) else right
        return value

    def _if_exp(self, node: cst.IfExp) -> Value:
        self.eval(node.test)
        body = self.eval(node.body)
        orelse = self.eval(node.orelse)
        return body if body is not UNKNOWN else orelse

    def _sequence(self, node: cst.Tuple | cst.List) -> Value:
        items = []
        for element in node.elements:
            value = self.eval(element.value)
            items.append(UNKNOWN if isinstance(element, cst.StarredElement) else value)
        return Seq(tuple(items))

    def _dict(self, node: cst.Dict) -> Value:
        items: dict[object, Value] = {}
        known = True
        for element in node.elements:
            if isinstance(element, cst.DictElement):
                key = self.eval(element.key)
                value = self.eval(element.value)
                if isinstance(key, Const):
                    items[key.value] = value
                else:
                    known = False
            else:
                self.eval(element.value)
                known = False
        return Mapping(items) if known else UNKNOWN

    def _named_expr(self, node: cst.NamedExpr) -> Value:
        value = self.eval(node.value)
        if isinstance(node.target, cst.Name):
            self.fscope.names[node.target.value] = value
        return value

    def _comprehension(self, node: cst.CSTNode) -> Value:
        saved = self.scope
        self.scope = Scope(saved)
        clause = node.for_in  # type: ignore[attr-defined]
        first: Value | None = None
        while clause is not None:
            iterable = self.eval(clause.iter)
            first = iterable if first is None else first
            self._iterated(clause.iter, iterable)
            self._bind(clause.target, loop_element(iterable))
            for condition in clause.ifs:
                self.eval(condition.test)
            clause = clause.inner_for_in
        if isinstance(node, cst.DictComp):
            self.eval(node.key)
            self.eval(node.value)
        else:
            self.eval(node.elt)  # type: ignore[attr-defined]
        self.scope = saved
        if isinstance(node, cst.DictComp) and first is not None:
            return tables.comprehension_table(node, first)
        return UNKNOWN

    def _subscript(self, node: cst.Subscript) -> Value:
        base = self._quiet(node.value)
        parts: list[Value | None] = []
        is_slice = False
        for element in node.slice:
            inner = element.slice
            if isinstance(inner, cst.Index):
                parts.append(self.eval(inner.value))
            else:
                assert isinstance(inner, cst.Slice)
                is_slice = True
                for bound in (inner.lower, inner.upper, inner.step):
                    parts.append(self.eval(bound) if bound is not None else None)
        if isinstance(base, Ext) and self.catalog.read_entry(base.path) is not None:
            self._report_read(node, base.path)  # `os.environ["HOME"]`: one read, as written
            return UNKNOWN
        if len(node.slice) != 1:
            return UNKNOWN
        if not is_slice and isinstance(base, (Namespace, ModuleTable)):
            return self._read(node, self._index_namespace(base, parts[0] or UNKNOWN, node))
        text = folds.str_const(base)
        if text is not None:
            return folds.subscript(text, parts, is_slice)
        if isinstance(base, (Mapping, Table)) and not is_slice:
            return tables.entry(base, parts[0] or UNKNOWN)
        if isinstance(base, Seq) and not is_slice:
            index = parts[0]
            if isinstance(index, Const) and isinstance(index.value, int):
                try:
                    return base.items[index.value]
                except IndexError:
                    return UNKNOWN
        return UNKNOWN

    def _index_namespace(self, table: Value, key: Value, node: cst.CSTNode) -> Value:
        name = folds.str_const(key)
        if name is None:
            target = table.target if isinstance(table, Namespace) else None
            if isinstance(table, ModuleTable) or target is None or self._may_reach_unsafe(target):
                self._unfoldable(node)
            return UNKNOWN
        if isinstance(table, ModuleTable):
            return self._module_value(name, node, False)
        target = table.target if isinstance(table, Namespace) else None
        if target is None:
            found = self.module_scope.names.get(name)
            return found if found is not None else self._lookup(name)
        return self.attr(target, name)

    def _may_reach_unsafe(self, value: Value) -> bool:
        if isinstance(value, Ext):
            return self.catalog.has_members(value.path)
        return isinstance(value, (Namespace, ModuleTable, LocalModule))


def _is_property(info: FunctionInfo) -> bool:
    return any(d.rsplit(".", 1)[-1] in ("property", "cached_property") for d in info.decorators)

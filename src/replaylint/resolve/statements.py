"""Statements: assignments and their bindings, control flow, and the regions never replayed."""

from __future__ import annotations

import libcst as cst

from replaylint.resolve import folds
from replaylint.resolve.facts import CLASS, INSTANCE, LOCAL, MODULE, Store
from replaylint.resolve.model import Class, ClassInfo, Func, LocalModule, Obj
from replaylint.resolve.outside_workflow import RunsOutsideWorkflow
from replaylint.resolve.values import UNKNOWN, Const, Ext, Mapping, Seq, SetOf, Value
from replaylint.resolve.walker import children
from replaylint.resolve.workflows import is_main_guard, type_checking_name


class Statements(RunsOutsideWorkflow):
    def _simple_line(self, node: cst.CSTNode) -> None:
        for small in node.body:  # type: ignore[attr-defined]
            self.stmt(small)

    def _block(self, node: cst.CSTNode) -> None:
        for statement in node.body:  # type: ignore[attr-defined]
            self.stmt(statement)

    def _suite(self, node: cst.BaseSuite) -> None:
        statements = node.body
        for index, statement in enumerate(statements):
            self.rest_outside = False  # only the statement just walked may set it
            self.stmt(statement)
            if self.rest_outside:
                # `if workflow.in_workflow(): return ...` above: what follows runs only
                # outside a workflow, for the helper's other callers.
                self.rest_outside = False
                saved = self.governed, self.dead
                self.governed, self.dead = False, True
                for rest in statements[index + 1 :]:
                    self.stmt(rest)
                self.governed, self.dead = saved
                return

    def _expr_stmt(self, node: cst.Expr) -> None:
        self.eval(node.value)

    def _return(self, node: cst.Return) -> None:
        if node.value is not None:
            value = self.eval(node.value)
            if isinstance(value, Func):
                self._drop_implicit(value.info)  # handed back: it runs where the caller calls it
            if self.func.returns is UNKNOWN and isinstance(value, (Ext, Obj, Func, SetOf, Seq)):
                self.func.returns = value

    def _global(self, node: cst.Global | cst.Nonlocal) -> None:
        names = {item.name.value for item in node.names}
        if isinstance(node, cst.Global):
            self.scope.globals_.update(names)
        else:
            self.scope.nonlocals.update(names)

    def _del(self, node: cst.Del) -> None:
        self._bind(node.target, UNKNOWN)

    def _assign(self, node: cst.Assign) -> None:
        value = self.eval(node.value)
        aliased = (
            Store in self.wants
            and self.scope is not self.module_scope
            and isinstance(node.value, (cst.Name, cst.Attribute))
            and self._state_of(node.value) == MODULE
        )
        for target in node.targets:
            self._bind(target.target, value)
            if aliased and isinstance(target.target, cst.Name):
                self.scope.module_aliases.add(target.target.value)

    def _ann_assign(self, node: cst.AnnAssign) -> None:
        value = self.eval(node.value) if node.value is not None else UNKNOWN
        declared = self._set_annotation(node.annotation.annotation)
        if isinstance(declared, SetOf):
            # `tags: set[str] = field(default_factory=set)`: the declared type says what it holds.
            value = declared
        elif value is UNKNOWN or (isinstance(value, Const) and value.value is None):
            # `_ds: SQLAlchemyDatasource | None = None`, filled in by an init function: what
            # the name holds once it is used is what the annotation says.
            declared_value = self.sole_annotation_value(node.annotation.annotation)
            if declared_value is not UNKNOWN or value is UNKNOWN:
                value = declared_value
        if node.value is not None or value is not UNKNOWN:
            self._bind(node.target, value)

    def _aug_assign(self, node: cst.AugAssign) -> None:
        value = self.eval(node.value)
        target = node.target
        if not isinstance(target, cst.Name):
            self.eval(target)
        # `seen |= names` keeps `seen` a set; any other result is left unknown.
        current = self._lookup(target.value) if isinstance(target, cst.Name) else UNKNOWN
        result = self._set_algebra(node.operator, current, value)
        self._bind(target, UNKNOWN if result is None else result)

    def _bind(self, target: cst.BaseExpression, value: Value) -> None:
        if isinstance(target, cst.Name):
            name = target.value
            if isinstance(value, Func) and value.info.name == "<lambda>":
                value.info.name = name
                value.info.qualname = value.info.qualname.replace("<lambda>", name)
                self._drop_implicit(value.info)  # bound to a name: it runs where it is called
            scope = self.module_scope if name in self.scope.globals_ else self.scope
            if scope is self.module_scope and self.func is not self.m.top:
                self.rebinds_globals = True
            if name in self.scope.nonlocals:
                scope = self.scope.enclosing_owner(name) or self.scope
            scope.names[name] = value
            scope.module_aliases.discard(name)  # rebound: `_assign` marks it again if it is one
            if Store in self.wants:
                binding = (
                    MODULE if scope is self.module_scope else CLASS if scope.is_class else LOCAL
                )
                self.sink.emit(Store(target, self.site(), name, value, binding))
        elif isinstance(target, cst.Attribute):
            owner = self.eval(target.value)
            name = target.attr.value
            if Store in self.wants:
                self.sink.emit(
                    Store(target, self.site(), name, value, self._state_of(target.value))
                )
            if isinstance(owner, Obj):
                previous = owner.info.instance_attrs.get(name)
                # Keep the most informative binding: a client stored in __init__ stays known
                # even when another method later resets the attribute to something opaque; a
                # declared set stays what its annotation says.
                declared = isinstance(previous, SetOf) and previous.declared
                if declared and (value is UNKNOWN or isinstance(value, SetOf)):
                    pass
                elif value is not UNKNOWN or previous is None:
                    owner.info.instance_attrs[name] = value
            elif isinstance(owner, Class):
                owner.info.attrs[name] = value
        elif isinstance(target, (cst.Tuple, cst.List)):
            elements = target.elements
            starred = any(isinstance(e, cst.StarredElement) for e in elements)
            if isinstance(value, Seq) and not starred and len(value.items) == len(elements):
                for element, item in zip(elements, value.items, strict=True):
                    self._bind(element.value, item)
            else:
                for element in elements:
                    self._bind(element.value, UNKNOWN)
        elif isinstance(target, cst.StarredElement):
            self._bind(target.value, UNKNOWN)
        elif isinstance(target, cst.Subscript):
            self.eval(target)
            if Store in self.wants:
                base = target.value
                name = folds.dotted(base) or ""
                self.sink.emit(Store(target, self.site(), name, value, self._state_of(base)))

    def _state_of(self, expr: cst.BaseExpression) -> str:
        """Whose state the object `expr` denotes: a class's (`Run`, `cls`, `type(self)`,
        `self.__class__`, a class defined at module level), a module's (what a module-level
        name or `global` holds, and what is reached from it; any module's attributes), an
        instance's (what is reached from `self` or another instance), else the function's own."""
        steps: list[str] = []
        node = expr
        while isinstance(node, (cst.Attribute, cst.Subscript)):
            steps.append(node.attr.value if isinstance(node, cst.Attribute) else "")
            node = node.value
        state = LOCAL
        if isinstance(node, cst.Name):
            name = node.value
            owner = self.scope.owner(name)
            if name in self.scope.globals_ or owner is self.module_scope:
                state, owner = MODULE, self.module_scope
            elif owner is not None and name in owner.module_aliases:
                return MODULE
            elif owner is None or owner.is_class:
                return LOCAL  # a builtin, or a class body's namespace as the class is built
            value = owner.names.get(name, UNKNOWN)
        elif _type_of_call(node, self.scope.lookup("type") is None):
            assert isinstance(node, cst.Call)
            instance = self._peek(node.args[0].value)
            value = Class(instance.info) if isinstance(instance, Obj) else UNKNOWN
        else:
            return LOCAL
        for step in [*reversed(steps), None]:
            if self._module_level_class(value):
                return CLASS
            if isinstance(value, LocalModule) or (
                isinstance(value, Ext) and "()" not in value.path
            ):
                state = MODULE
            elif isinstance(value, Obj) and state == LOCAL:
                state = INSTANCE
            if step is None:
                break
            if isinstance(value, Obj) and _shared_class_attribute(value.info, step):
                return CLASS  # `history: list = []` in the class body, changed through self
            if step == "__class__" and isinstance(value, Obj):
                value = Class(value.info)
            else:
                value = self.attr(value, step) if step else UNKNOWN
        return state

    def _if(self, node: cst.If) -> None:
        if self._is_type_checking(node.test) or is_main_guard(node.test):
            # Never run on the workflow path: `if TYPE_CHECKING:` only binds names for
            # annotations (walked so `client: "OpenAI"` still resolves), `__main__` only runs
            # when the file is a script.
            saved = self.governed, self.exempt, self.dead
            self.governed, self.exempt, self.dead = False, True, True
            self._suite(node.body)
            self.governed, self.exempt, self.dead = saved
            if node.orelse is not None:
                self.stmt(node.orelse)
            return
        inside, replaying = self._guard_test(node.test)
        if replaying is not None:
            first_run = node.body if not replaying else node.orelse
            if first_run is not None and not self._made_once(first_run):
                replaying = None  # what it leaves is read after it: replayed code as written
        exits = inside is True and node.orelse is None and always_leaves(node.body)
        # `if workflow.in_workflow(): ... else: ...`: one branch never runs in a workflow;
        # `if not ctx.is_replaying: ...`: one runs the first time only, never on a replay.
        holds = inside if inside is not None else replaying
        if holds is not None:
            self._branch(node.body, dead=not holds)
        else:
            self._suite(node.body)
        if node.orelse is not None:
            orelse = node.orelse
            if holds is not None:
                self._branch(orelse, dead=holds)
            elif isinstance(orelse, cst.If):
                self._if(orelse)
            else:
                self._suite(orelse.body)
        self.rest_outside = exits

    def _branch(self, node: cst.CSTNode, dead: bool) -> None:
        """Walk a branch as written, or (`dead`) as never replayed."""
        saved = self.governed, self.dead
        if dead:
            self.governed, self.dead = False, True
        if isinstance(node, cst.If):
            self._if(node)
        elif isinstance(node, cst.Else):
            self._suite(node.body)
        else:
            self._suite(node)  # type: ignore[arg-type]
        self.governed, self.dead = saved

    def _is_type_checking(self, test: cst.BaseExpression) -> bool:
        if type_checking_name(test) is not None:
            return True
        value = self._peek(test)
        return isinstance(value, Ext) and value.path.endswith(".TYPE_CHECKING")

    def _for(self, node: cst.For) -> None:
        iterable = self.eval(node.iter)
        self._iterated(node.iter, iterable, loop=True)
        self._bind(node.target, loop_element(iterable))
        self._suite(node.body)
        if node.orelse is not None:
            self._suite(node.orelse.body)

    def _while(self, node: cst.While) -> None:
        self.eval(node.test)
        self._suite(node.body)
        if node.orelse is not None:
            self._suite(node.orelse.body)

    def _try(self, node: cst.Try | cst.TryStar) -> None:
        self._suite(node.body)
        # `try: now = workflow.now() except Exception: now = datetime.now()`: the fallback
        # runs only outside a workflow, where the framework's call raises.
        outside = self._fails_outside_workflow_only(node.body)
        for handler in node.handlers:
            if handler.type is not None:
                self.eval(handler.type)
            if handler.name is not None:
                self._bind(handler.name.name, UNKNOWN)
            self._branch(handler.body, dead=outside)
        if node.orelse is not None:
            self._suite(node.orelse.body)
        if node.finalbody is not None:
            self._suite(node.finalbody.body)

    def _with(self, node: cst.With) -> None:
        for item in node.items:
            value = self.eval(item.item)
            if item.asname is not None:
                # Clients return themselves from __enter__; anything else is opaque.
                entered = (
                    value if isinstance(value, (Ext, Obj)) and _is_instance(value) else UNKNOWN
                )
                self._bind(item.asname.name, entered)
        self._suite(node.body)

    def _match(self, node: cst.Match) -> None:
        self.eval(node.subject)
        for case in node.cases:
            for child in children(case.pattern):
                if isinstance(child, cst.Name):
                    self.scope.names[child.value] = UNKNOWN
            if case.guard is not None:
                self.eval(case.guard)
            self._suite(case.body)


def loop_element(iterable: Value) -> Value:
    """What a loop over a literal binds: `for clock in (time.time, time.monotonic)` binds a root.
    The first element the guard knows stands for all of them (a may-analysis)."""
    if isinstance(iterable, Seq):
        for item in iterable.items:
            if isinstance(item, (Ext, Func, Class, Obj)):
                return item
    return UNKNOWN


def _type_of_call(node: cst.BaseExpression, builtin: bool) -> bool:
    """`type(self)`: the builtin (unshadowed) called on one positional argument."""
    return (
        builtin
        and isinstance(node, cst.Call)
        and isinstance(node.func, cst.Name)
        and node.func.value == "type"
        and len(node.args) == 1
        and node.args[0].keyword is None
        and not node.args[0].star
    )


def _is_instance(value: Value) -> bool:
    return isinstance(value, Obj) or (isinstance(value, Ext) and "()" in value.path)


# Bases and decorators whose class-body values are per-instance fields or defaults.
_FIELD_MODELS = ("pydantic.", "sqlmodel.", "msgspec.", "attr.", "attrs.", "dataclasses.")


def _shared_class_attribute(info: ClassInfo, name: str) -> bool:
    """Is `self.<name>` a mutable container of the class body, shared by every instance (no
    method assigns its own `self.<name>`, and the class is no model that copies defaults)?"""
    if name not in info.attrs or name in info.instance_attrs:
        return False
    if any(base.startswith(_FIELD_MODELS) for base in info.external_bases):
        return False
    if any(decorator.startswith(_FIELD_MODELS) for decorator in info.decorators):
        return False
    value = info.attrs[name]
    if isinstance(value, SetOf) and value.declared:
        return False  # only an annotation says it is a set: `ids: set[str] = field(...)`
    return isinstance(value, (Seq, Mapping, SetOf))


def always_leaves(body: cst.BaseSuite) -> bool:
    """Does this block end in a `return` or a `raise` (so the statements after its `if` run only
    when the test fails)?"""
    if not body.body:
        return False
    last = body.body[-1]
    if isinstance(last, cst.SimpleStatementLine):
        return bool(last.body) and isinstance(last.body[-1], (cst.Return, cst.Raise))
    if isinstance(body, cst.SimpleStatementSuite):
        return isinstance(last, (cst.Return, cst.Raise))
    return False

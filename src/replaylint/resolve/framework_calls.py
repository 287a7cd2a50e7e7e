"""Calls a framework gives a meaning beyond their value: a run that stops until it is resumed,
callables the framework itself calls inside a workflow, and what a recorder runs."""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from replaylint.presets.mechanisms import Hosted
from replaylint.presets.records import Preset
from replaylint.resolve import folds
from replaylint.resolve.model import ClassInfo, Func, FunctionInfo, Holding, Obj
from replaylint.resolve.values import UNKNOWN, Const, Ext, Mapping, Seq, Value
from replaylint.resolve.walker import Walker


class FrameworkCalls(Walker):
    def _framework_call(
        self,
        node: cst.Call,
        path: str,
        receiver: Value | None,
        values: list[Value],
        value: Value,
        recorded_by: Preset | None,
    ) -> Value:
        """What the frameworks make of a resolved call, once its arguments are walked; the
        call's value, or the holder of callables it builds."""
        inside = self.func is not self.m.top
        keywords = frozenset(a.keyword.value for a in node.args if a.keyword is not None)
        stops = self.frameworks.suspending(path, keywords)
        if stops is not None and inside:
            self.func.suspends.append((node, self.statement, stops.name))
        marks = self.frameworks.entry_call(path)
        if marks is not None and inside and self.func.entry is None:
            # `DurableAIAgentOrchestrationContext(ctx)`: the function wraps its run context.
            self._entry(self.func, marks.name)
        registered = self.frameworks.conditional_registrar(path)
        if registered is not None:
            # `builder.add_node("review", lambda state: review(state, rules))` too.
            for info in (i for given in values for i in _callables(given)):
                if info.entry is None:
                    info.suspending = registered.name
                    info.registration = info.registration or node
                    self.project.registered(info, self.m)
        if recorded_by is not None and recorded_by.suspends.nests_by(path):
            # `ctx.run(child)`, `context.parallel([a, b])`: recorded, unless the child itself
            # suspends (settled later). A child that its context parameter's type alone made
            # an entry is one such child too.
            for child in (info for given in values for info in _children(given)):
                if child.by_context and child.entry == recorded_by.name:
                    child.entry, child.by_context = None, False
                if child.entry is not None:
                    continue
                if child.suspending is None and id(child) in self.walked:
                    # Its body was walked before this call: once more, with its context.
                    self.walk_again |= child.module is self.m
                child.suspending = recorded_by.name
                self.project.registered(child, self.m)
        rules = self.frameworks.hosted(path)
        if isinstance(value, Ext) and value.path != path + "()":
            # A rule may name what the call built (`<durable>dbos()`, a durable agent).
            rules += self.frameworks.hosted(value.path)
        for preset, rule in rules:
            value = self._hosted(node, path, preset, rule, receiver, values, value)
        return value

    def _agent_tool(
        self, info: FunctionInfo, nodes: Sequence[cst.Decorator], values: list[Value]
    ) -> None:
        """`@agent.tool` / `@agent.tool_plain`: the agent holds the function as the decorators
        below it leave it, and when a framework runs that agent as a workflow (pydantic-ai's
        DBOS durability, or `DBOSAgent(agent)` before or after), calls it inside that workflow.
        A step below the tool decorator is what the agent holds, and stays recorded; one above
        it (`@DBOS.step()` over `@agent.tool_plain`) wraps only the module's name: the agent
        holds the plain function and runs it in the workflow."""
        steps = [
            index
            for index, value in enumerate(values)
            if isinstance(value, Ext)
            and any(self.frameworks.recorded_decorator(p) for p in _spellings(value.path))
        ]
        for index, (node, value) in enumerate(zip(nodes, values, strict=False)):
            if not isinstance(value, Ext):
                continue
            plain = not any(step > index for step in steps)  # no step below this decorator
            for preset, rule in self.frameworks.hosted(value.path):
                if "0" not in rule.arguments:
                    continue
                if rule.role == "hosts" and plain:
                    self._host([info], preset.name)
                elif rule.role == "holds":
                    holder = self._holder(node)
                    if holder is None:
                        continue
                    holder.hold([info])
                    if plain and info.activity is not None:
                        holder.plain.add(id(info))  # the step wraps the module's name only
                    if holder.hosted_by is not None and plain:
                        self._host([info], holder.hosted_by)

    def _holder(self, decorator: cst.Decorator) -> Holding | None:
        """The object a decorator method is called on (`agent` in `@agent.tool`), when it holds
        callables; looked up by its name alone, calling nothing."""
        expr = decorator.decorator
        callee = expr.func if isinstance(expr, cst.Call) else expr
        if not isinstance(callee, cst.Attribute) or folds.dotted(callee.value) is None:
            return None
        receiver = self.eval(callee.value)
        return receiver if isinstance(receiver, Holding) else None

    def _register(self, path: str, node: cst.Call) -> bool:
        """`Orchestrator.create(fn)`, `worker.add_orchestrator(fn)`, `worker.add_activity(fn)`:
        the function handed over becomes replayed code, or a recorded zone."""
        workflow = self.frameworks.workflow_registrar(path)
        recorded = None if workflow is not None else self.frameworks.recorded_registrar(path)
        # `builder.add_node(review)`: replayed only if it reaches a suspending call.
        conditional = self.frameworks.conditional_registrar(path)
        if workflow is None and recorded is None and conditional is None:
            return False
        for arg in node.args:
            value = self._peek(arg.value)
            if isinstance(value, Func):
                if value.info.registration is None:
                    value.info.registration = node
                if workflow is not None:
                    self._entry(value.info, workflow.name)
                elif recorded is not None:
                    value.info.activity = "recorded"
                elif conditional is not None and value.info.entry is None:
                    value.info.suspending = conditional.name
                self.project.registered(value.info, self.m)
        return True

    def _hosted(
        self,
        node: cst.Call,
        path: str,
        preset: Preset,
        rule: Hosted,
        receiver: Value | None,
        values: list[Value],
        value: Value,
    ) -> Value:
        held = [
            info
            for given in _given(node, values, rule.arguments)
            for info in _callables(given)
            if not (rule.sync_only and _is_async(info))
            and (rule.when is None or _holds(node, values, rule.when, info))
        ]
        if rule.role == "holds":
            if isinstance(receiver, Holding):  # a builder's method: it returns the builder
                receiver.hold(held)
                if receiver.hosted_by is not None:  # `agent.tool(fn)` once DBOSAgent wraps it
                    self._host(held, receiver.hosted_by)
                return receiver
            if isinstance(value, Holding):
                value.hold(held)
                return value
            built = value.path if isinstance(value, Ext) else path + "()"
            return Holding(built, held)
        if isinstance(receiver, Holding):
            held = [*held, *receiver.held]
        if rule.role == "runs":
            written = folds.written(node.func) or path
            for info in held:
                # The framework calls it from here: what it reaches is reported where it is.
                self._helper(info, node, written, reported=False)
        else:  # hosts: the framework calls it inside its own workflows
            for given in _given(node, values, rule.arguments):
                if isinstance(given, Holding):  # so are the callables it is given later
                    given.hosted_by = preset.name
                    for info in given.held:
                        if id(info) in given.plain:
                            self._unrecorded(info)
            self._host(held, preset.name)
        return value

    def _unrecorded(self, info: FunctionInfo) -> None:
        """A step whose plain function an agent holds (`@DBOS.step()` over `@agent.tool_plain`),
        now run by its framework: a unit whose lines are its own (a call of its module name is
        still the step), its body walked as workflow code when its turn comes."""
        info.unit, info.activity, info.exempt = True, None, False
        pending = self.pending_of.get(id(info))
        if pending is not None and id(info) not in self.walked:
            governed = (pending[0], pending[1], pending[2], True)
            self.pending[self.pending.index(pending)] = governed
            self.pending_of[id(info)] = governed

    def _host(self, held: list[FunctionInfo], framework: str) -> None:
        for info in held:
            if info.entry is None:
                self._entry(info, framework)
                info.hosted = True
                if not info.exempt and info.activity is not None:
                    info.unit, info.activity = True, None  # a task placed in the workflow
                self.project.registered(info, self.m)


def _given(node: cst.Call, values: list[Value], names: tuple[str, ...]) -> list[Value]:
    """The values of the arguments `names` names: positions ("0") and keywords, "*" all."""
    picked: list[Value] = []
    position = 0
    for arg, value in zip(node.args, values, strict=False):
        key: str | None = None
        if arg.keyword is not None:
            key = arg.keyword.value
        elif not arg.star:
            key = str(position)
            position += 1
        if "*" in names or (key is not None and key in names):
            picked.append(value)
    return picked


def _callables(value: Value, depth: int = 0) -> list[FunctionInfo]:
    """The functions of the checked code a value is or holds (in lists, dicts and holders)."""
    if depth > 8:
        return []
    if isinstance(value, Func):
        return [value.info]
    if isinstance(value, Holding):
        return list(value.held)
    if isinstance(value, Obj):  # a hooks object: the framework calls its methods
        return _methods(value.info)
    items: tuple[Value, ...] = ()
    if isinstance(value, Seq):
        items = value.items
    elif isinstance(value, Mapping):
        items = tuple(value.items.values())
    return [info for item in items for info in _callables(item, depth + 1)]


def _children(value: Value) -> list[FunctionInfo]:
    """The functions a recorder is handed: one, or a list of them (`context.parallel`)."""
    if isinstance(value, Func):
        return [value.info]
    if isinstance(value, Seq):
        return [item.info for item in value.items if isinstance(item, Func)]
    return []


def _methods(info: ClassInfo) -> list[FunctionInfo]:
    found: list[FunctionInfo] = []
    for cls in [info, *info.local_bases]:
        for name, value in cls.attrs.items():
            if isinstance(value, Func) and not name.startswith("__"):
                found.append(value.info)
    return found


def _holds(node: cst.Call, values: list[Value], when: tuple[str, str], info: FunctionInfo) -> bool:
    """Does the call's argument at `when`'s path (`metadata.execute_in`) hold its value?"""
    path, equals = when
    parts = path.replace("{name}", info.name).split(".")
    found = _given(node, values, (parts[0],))
    value: Value = found[0] if found else UNKNOWN
    for part in parts[1:]:
        value = value.items.get(part, UNKNOWN) if isinstance(value, Mapping) else UNKNOWN
    return isinstance(value, Const) and value.value == equals


def _is_async(info: FunctionInfo) -> bool:
    return isinstance(info.node, cst.FunctionDef) and info.node.asynchronous is not None


def _spellings(path: str) -> tuple[str, ...]:
    """A decorator's path, and the decorator a call made (`step = DBOS.step()`, then `@step`)."""
    return (path, path[:-2]) if path.endswith("()") else (path,)

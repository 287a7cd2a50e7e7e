"""Where a value goes on the workflow path: from the expression that makes it, through locals,
helpers' parameters and returns, to the first thing a replay depends on that it reaches.

A replay depends on a branch or loop condition, a durable command's target or arguments (an
activity, a step, a child workflow, a timer, a signal), the workflow's result, its instance
state, and module state that the workflow path reads back. A value that only reaches logging, a
local never read, a once-per-process cache or an object nothing reads decides nothing. The
search is bounded (`BUDGET` steps): past it, the value is taken to decide (reported).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import libcst as cst

from replaylint.graph.bodies import STATEMENTS, Body
from replaylint.graph.caches import fills_a_cache
from replaylint.graph.guards import first_write
from replaylint.graph.log_lines import logs, only_logged, only_logs
from replaylint.graph.seen_sets import tested_in_a_seen_set
from replaylint.graph.syntax import (
    TAKING,
    assigned,
    binds_locally,
    decision_at,
    is_key,
    parameter,
    reads,
    root_name,
    self_name,
    used_as_key,
    written,
)
from replaylint.resolve.model import FunctionInfo, HelperCall

BUDGET = 4000
_CACHES = ("functools.lru_cache", "functools.cache", "functools.cached_property")


@dataclass(frozen=True)
class Decision:
    """What the value reaches (`what`, e.g. "the condition"), at `node` in `function`."""

    what: str
    function: FunctionInfo
    node: cst.CSTNode
    statement: cst.CSTNode | None


@dataclass(frozen=True)
class Sinks:
    """The calls a value's path ends at: what records its arguments, and what only logs."""

    command: Callable[[str], bool]  # a resolved path whose arguments the history records
    logger: Callable[[str], bool]  # a resolved path that only writes a log line
    child_workflows: Callable[[str], bool]  # does this preset record a direct call of a workflow
    # The arguments by which a replay finds a recorded call's result (a step's id), None for
    # all: a value given elsewhere goes into a result already recorded and decides nothing.
    keys: Callable[[str], tuple[str, ...] | None] = lambda path: None
    answers: Callable[[FunctionInfo], bool] = lambda function: False  # a query's handler


@dataclass(frozen=True)
class _Back:
    """Where a helper's return goes: the call in its caller (and where that one returns)."""

    function: FunctionInfo
    call: cst.CSTNode
    outer: _Back | None


_Item = tuple[FunctionInfo, cst.CSTNode, "_Back | None"]


class Flow:
    """Follows values over the functions of one workflow module's path."""

    def __init__(
        self, on_path: Iterable[FunctionInfo], sinks: Sinks, not_rerun: frozenset[int] = frozenset()
    ) -> None:
        self.path = {id(f): f for f in on_path}
        self.sinks = sinks
        self.not_rerun = not_rerun  # functions only entries a replay never runs again reach
        self._bodies: dict[int, Body] = {}
        self._callers: dict[int, list[tuple[FunctionInfo, HelperCall]]] = {}
        for function in self.path.values():
            for call in function.calls:
                if call.governed and not call.dead:
                    self._callers.setdefault(id(call.target), []).append((function, call))

    def body(self, function: FunctionInfo) -> Body:
        found = self._bodies.get(id(function))
        if found is None:
            found = self._bodies[id(function)] = Body(function)
        return found

    # ------------------------------------------------------------------ the search

    def reaches(
        self,
        function: FunctionInfo,
        node: cst.CSTNode,
        commands: bool = True,
        stable_keys: bool = False,
    ) -> Decision | None:
        """The first decision the value of `node` (in `function`) reaches; `commands`: whether a
        durable command's arguments count (not for values fixed per deployed version)."""
        keys = self._as_keys(function, node) if stable_keys else frozenset()
        return self._search([(function, node, None)], commands, keys)

    def _as_keys(self, function: FunctionInfo, node: cst.CSTNode) -> frozenset[int]:
        """The value itself and the reads of a local bound to exactly it (`key = id(x)`): where
        one of these is only a key, the value goes no further. What is computed from it
        (`hash(x) % 2`, a bucket) is a number of its own, and is followed."""
        body = self.body(function)
        found = {id(node)}
        parent = body.parents.get(id(node))
        if isinstance(parent, cst.Assign) and parent.value is node and len(parent.targets) == 1:
            target = parent.targets[0].target
            statement = body.statement_of(parent)
            if isinstance(target, cst.Name) and statement is not None:
                found.update(id(use) for use in body.uses_after(target.value, statement))
        return frozenset(found)

    def read_back(self, reads: list[tuple[FunctionInfo, cst.CSTNode]]) -> Decision | None:
        """The first decision one of these reads of some state reaches."""
        return self._search([(f, n, None) for f, n in reads], True)

    def _search(
        self, start: list[_Item], commands: bool, keys: frozenset[int] = frozenset()
    ) -> Decision | None:
        """The first decision the values reach; one of `keys` (ids of nodes) only used to look
        an entry up there (`memo[k]`, `memo.get(k)`) goes no further (an identity's or a
        hash's lookups come out the same in every process)."""
        stack = list(reversed(start))
        seen: set[tuple[int, int, int]] = set()
        steps = 0
        while stack:
            function, node, back = stack.pop()
            key = (id(function), id(node), id(back))
            if key in seen:
                continue
            seen.add(key)
            steps += 1
            if steps > BUDGET:
                return Decision("a decision past the search's bound", function, node, None)
            if id(node) in keys and (
                used_as_key(node, self.body(function).parent_of, lookups_only=True)
                or tested_in_a_seen_set(self.body(function), node)
            ):
                continue
            found = self._climb(function, node, back, commands, stack)
            if found is not None:
                return found
        return None

    def _climb(
        self,
        function: FunctionInfo,
        node: cst.CSTNode,
        back: _Back | None,
        commands: bool,
        stack: list[_Item],
    ) -> Decision | None:
        """Up from `node` through the expressions that hold it, to where its value ends."""
        if id(function) in self.not_rerun:
            return None  # decided where a replay never goes (an update's validator)
        body = self.body(function)
        child = node
        keyed: cst.CSTNode | None = None  # the membership test the value is the key of
        while True:
            parent = body.parents.get(id(child))
            if parent is None:
                return None
            here = body.statement_of(parent)
            if not function.replays(here):
                return None  # after a prefix entry's last suspend: decided once, not on replay
            if isinstance(parent, cst.Comparison) and parent.left is child:
                keyed = parent
            decided = decision_at(parent, child)
            if decided is not None:
                if isinstance(parent, cst.If) and parent.test is keyed:
                    if fills_a_cache(function, parent, self.body, self.sinks.command):
                        return None  # whether a once-per-process cache is filled: no decision
                if isinstance(parent, cst.If) and only_logs(function, parent, self.sinks.logger):
                    return None  # which way it goes, a log line is written or not
                return Decision(decided, function, parent, here)
            if isinstance(parent, cst.Return):
                return self._returned(function, parent, here, back, stack)
            if isinstance(parent, cst.Arg):
                call = body.parents.get(id(parent))
                if isinstance(call, cst.Call):
                    return self._argument(function, call, parent, back, commands, stack)
            if isinstance(parent, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
                if parent.value is child and here is not None:
                    targets = assigned(parent)
                    return self._stored(function, targets, here, back, stack)
                return None
            if isinstance(parent, cst.NamedExpr) and parent.value is child and here is not None:
                # Read later in its own statement too: `[f(c) for r in rows if (c := g(r))]`.
                self._stored(function, [parent.target], here, back, stack, walrus=True)
            if isinstance(parent, cst.WithItem) and parent.asname is not None and here:
                return self._stored(function, [parent.asname.name], here, back, stack)
            if isinstance(parent, STATEMENTS):
                return None  # a whole expression statement, or a block: the value is dropped
            child = parent

    def _returned(
        self,
        function: FunctionInfo,
        node: cst.CSTNode,
        statement: cst.CSTNode | None,
        back: _Back | None,
        stack: list[_Item],
    ) -> Decision | None:
        if back is not None:
            stack.append((back.function, back.call, back.outer))
            return None
        if any(d.startswith(_CACHES) for d in function.decorators) or self.sinks.answers(function):
            return None  # computed once per process; or a query's answer, which no history holds
        callers = self._callers.get(id(function), [])
        if function.entry is not None or (function.module.marked and not callers):
            return Decision("the workflow's result", function, node, statement)
        stack.extend((caller, call.node, None) for caller, call in callers)
        return None

    def _argument(
        self,
        function: FunctionInfo,
        call: cst.Call,
        arg: cst.Arg,
        back: _Back | None,
        commands: bool,
        stack: list[_Item],
    ) -> Decision | None:
        body = self.body(function)
        here = body.statement_of(call)
        path = function.external.get(id(call), "")
        if logs(path, call, self.sinks.logger):
            return None
        if path and self.sinks.command(path):
            if not commands or not is_key(call, arg, self.sinks.keys(path)):
                return None
            return Decision(f"the argument of {written(call.func)}", function, call, here)
        helper = body.helpers.get(id(call))
        if helper is not None:
            target = helper.target
            if target.is_exempt() or (
                target.entry is not None and self.sinks.child_workflows(target.entry)
            ):
                keys = next(
                    (k for d in target.decorators if (k := self.sinks.keys(d)) is not None), None
                )
                if not commands or not is_key(call, arg, keys):
                    return None
                return Decision(f"the argument of {written(call.func)}", function, call, here)
            param = parameter(target, call, arg)
            if param is not None:
                uses = self.body(target).loads.get(param, [])
                outer = _Back(function, call, back)
                stack.extend((target, use, outer) for use in uses)
                return None
        if isinstance(call.func, cst.Attribute) and call.func.attr.value in TAKING and here:
            self._stored(function, [call.func.value], here, back, stack)
        stack.append((function, call, back))  # what the call returns carries the value on
        return None

    def _stored(
        self,
        function: FunctionInfo,
        targets: list[cst.BaseExpression],
        statement: cst.CSTNode,
        back: _Back | None,
        stack: list[_Item],
        walrus: bool = False,
    ) -> Decision | None:
        body = self.body(function)
        while targets:
            target = targets.pop()
            if isinstance(target, (cst.Tuple, cst.List)):
                targets.extend(e.value for e in target.elements)
                continue
            if isinstance(target, cst.StarredElement):
                targets.append(target.value)
                continue
            root, first = root_name(target)
            if root is None:
                continue
            name = root.value
            if first is not None and name == self_name(function):
                if function.cls is not None and function.cls.workflow is not None:
                    what = "the workflow's instance state"
                    return Decision(what, function, target, statement)
                stack.extend((m, read, None) for m, read in self._attribute_reads(function, first))
                continue
            if name in body.globals or function is function.module.top:
                if first_write(function, statement, target):
                    continue  # a cache filled once per process
                stack.extend((f, read, None) for f, read in self.global_reads(function, name))
                continue
            uses = body.uses_after(name, statement, walrus)
            stack.extend((function, use, back) for use in uses)
        return None

    def only_logged(self, function: FunctionInfo, node: cst.CSTNode) -> bool:
        """Is the value of `node` only written into a log line (graph/log_lines.py)?"""
        return only_logged(self.body(function), function, node, self.sinks.logger)

    def only_handed_to_commands(self, function: FunctionInfo, node: cst.CSTNode) -> bool:
        """Is the value of `node` only ever handed to durable commands (directly, or through
        locals bound to it), never called or used here? `getattr(activities, name)` given to
        `workflow.execute_activity` names an activity; the workflow never runs it."""
        body = self.body(function)
        todo = [node]
        while todo:
            current = todo.pop()
            parent = body.parents.get(id(current))
            if isinstance(parent, cst.Arg):
                call = body.parents.get(id(parent))
                path = function.external.get(id(call), "") if isinstance(call, cst.Call) else ""
                if not (path and self.sinks.command(path)):
                    return False
                continue
            statement = body.statement_of(current)
            if (
                isinstance(parent, cst.Assign)
                and parent.value is current
                and len(parent.targets) == 1
                and isinstance(parent.targets[0].target, cst.Name)
                and statement is not None
            ):
                todo.extend(body.uses_after(parent.targets[0].target.value, statement))
                continue
            return False
        return True

    # ------------------------------------------------------------------ state read back

    def global_reads(
        self, writer: FunctionInfo, name: str
    ) -> list[tuple[FunctionInfo, cst.CSTNode]]:
        """Reads of the module global `name` on the path, in functions of its module that do not
        bind it themselves, other than updates of it in place (`X += 1`, `X.append(...)`)."""
        found: list[tuple[FunctionInfo, cst.CSTNode]] = []
        module = writer.module
        for function in self.path.values():
            if function.module is not module or function is module.top:
                continue
            body = self.body(function)
            if name not in body.globals and binds_locally(body, name):
                continue
            found += [(function, use) for use in body.loads.get(name, []) if reads(body, use)]
        return found

    def _attribute_reads(
        self, writer: FunctionInfo, attribute: str
    ) -> list[tuple[FunctionInfo, cst.CSTNode]]:
        """Reads of `self.<attribute>` in the methods of the writer's class on the path."""
        found: list[tuple[FunctionInfo, cst.CSTNode]] = []
        for function in self.path.values():
            if function.cls is None or function.cls is not writer.cls:
                continue
            body = self.body(function)
            owner = self_name(function)
            for use in body.loads.get(owner, []) if owner else []:
                parent = body.parents.get(id(use))
                if isinstance(parent, cst.Attribute) and parent.attr.value == attribute:
                    if reads(body, parent):
                        found.append((function, parent))
        return found

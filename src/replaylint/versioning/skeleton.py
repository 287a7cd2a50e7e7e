"""The skeleton of each workflow entry, built from one walk of its module: durable commands in
order, the control flow they sit in, and the project's helpers followed into (as ADK-W005 does)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import libcst as cst

from replaylint.presets.records import Versioning
from replaylint.resolve.facts import Call
from replaylint.resolve.model import FunctionInfo
from replaylint.versioning.model import (
    Block,
    Branches,
    Deprecation,
    DurableCommand,
    Gate,
    Guarded,
    Item,
    Loop,
)
from replaylint.versioning.places import Places
from replaylint.versioning.syntax import (
    alternatives,
    argument_nodes,
    attribute_chain,
    body_of,
    call_of,
    children,
    choice,
    elements,
    ends_block,
    parameters,
    rebound,
    receiver_of,
    suite,
    text_argument,
    unnegated,
    work_of,
)
from replaylint.versioning.targets import Targets

MAX_DEPTH = 12  # helper frames followed, as ADK-W005's chains are cut
_COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)


class CallFacts:
    """The facts the walk emitted for calls of values outside the checked code, by call node."""

    subscribed: frozenset[type] = frozenset({Call})

    def __init__(self) -> None:
        self.by_node: dict[int, Call] = {}

    def emit(self, fact: object) -> None:
        if isinstance(fact, Call):
            self.by_node[id(fact.node)] = fact


class Builder:
    """Builds the skeleton of one entry function; helpers are inlined at their call."""

    def __init__(
        self,
        calls: CallFacts,
        helpers: dict[int, list[FunctionInfo]],
        facts: Versioning,
        places: Places,
        name_of: Callable[[FunctionInfo], str],
        children: frozenset[str] = frozenset(),
        context: tuple[str, int | None] = ("", None),
    ) -> None:
        self.calls = calls
        self.helpers = helpers
        self.facts = facts
        self.places = places
        self.name_of = name_of  # the registered name of a step or child workflow function
        self.targets = Targets(name_of, facts.qualified_names)
        self.children = children  # frameworks where calling a workflow starts a child
        # The run context's instance path and its parameter's position in an entry: what an
        # unannotated context stands for, in the entry and in the helpers it is handed to.
        self.context, self.context_param = context
        self._inlining: list[int] = []
        self._gate_names: dict[str, str] = {}
        self._context_names: frozenset[str] = frozenset()
        self._handles: dict[str, str] = {}  # locals holding a framework object (a handle)
        self._rebound_names: dict[int, frozenset[str]] = {}
        self._function: FunctionInfo | None = None
        self._statement: cst.CSTNode | None = None

    # ------------------------------------------------------------------ functions

    def build(self, function: FunctionInfo) -> Block:
        self._inlining = [id(function)]
        params = parameters(function)
        position = self.context_param
        names = {params[position]} if position is not None and position < len(params) else set()
        return self._body(function, frozenset(names))

    def _body(self, function: FunctionInfo, context_names: frozenset[str]) -> Block:
        outer = (
            self._function,
            self._gate_names,
            self._statement,
            self._context_names,
            self._handles,
        )
        self._function, self._gate_names, self._handles = function, {}, {}
        self._context_names = context_names
        try:
            node = function.node
            if isinstance(node, cst.FunctionDef):
                return tuple(self._statements(suite(node.body)))
            if isinstance(node, cst.Lambda):
                return tuple(self._expression(node.body))
            return ()
        finally:
            (
                self._function,
                self._gate_names,
                self._statement,
                self._context_names,
                self._handles,
            ) = outer

    def _inline(self, target: FunctionInfo, call: cst.Call) -> list[Item]:
        if id(target) in self._inlining or len(self._inlining) >= MAX_DEPTH:
            return []  # recursion: the commands of the first frame stand for it
        self._inlining.append(id(target))
        try:
            items = self._body(target, self._context_handed(target, call))
        finally:
            self._inlining.pop()
        statement = self._statement
        return [self.places.restated(item, self._function, statement) for item in items]

    def _rebound(self) -> frozenset[str]:
        key = id(self._function)
        found = self._rebound_names.get(key)
        if found is None:
            found = self._rebound_names[key] = rebound(self._function)
        return found

    # ------------------------------------------------------------------ statements

    def _statements(self, statements: Iterable[cst.CSTNode]) -> list[Item]:
        items: list[Item] = []
        for statement in statements:
            self._statement = statement
            items.extend(self._statement_items(statement))
            if ends_block(statement):
                break  # what follows a return or raise never runs
        return items

    def _statement_items(self, node: cst.CSTNode) -> list[Item]:
        if isinstance(node, cst.SimpleStatementLine):
            items: list[Item] = []
            for small in node.body:
                self._remember_gate(small)
                items.extend(self._expression(small))
            return items
        if isinstance(node, cst.If):
            return self._if(node)
        if isinstance(node, (cst.For, cst.While)):
            head = node.iter if isinstance(node, cst.For) else node.test
            items = self._expression(head)
            body = self._block(node.body)
            if body:
                items.append(Loop(body, self.places.at(self._function, node, node)))
            if node.orelse is not None:
                items.extend(self._block(node.orelse.body))
            return items
        if isinstance(node, (cst.Try, cst.TryStar)):
            return self._try(node)
        if isinstance(node, cst.With):
            items = [i for w in node.items for i in self._expression(w.item)]
            return items + list(self._block(node.body))
        if isinstance(node, cst.Match):
            arms = tuple(self._block(case.body) for case in node.cases)
            items = self._expression(node.subject)
            if any(arms):
                items.append(Branches((*arms, ()), self.places.at(self._function, node, node)))
            return items
        if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            return []  # defined, not run: a call of it is followed where it is made
        return self._expression(node)

    def _block(self, body: cst.BaseSuite | Sequence[cst.CSTNode]) -> Block:
        statements = suite(body) if isinstance(body, cst.BaseSuite) else body
        saved = self._statement
        try:
            return tuple(self._statements(statements))
        finally:
            self._statement = saved

    def _if(self, node: cst.If) -> list[Item]:
        test, negated = unnegated(node.test)
        patch = self._gate(test)
        orelse: Block = ()
        if isinstance(node.orelse, cst.If):
            saved = self._statement
            self._statement = node.orelse
            orelse = tuple(self._if(node.orelse))
            self._statement = saved
        elif isinstance(node.orelse, cst.Else):
            orelse = self._block(node.orelse.body)
        body = self._block(node.body)
        if patch is not None:
            new, old = (orelse, body) if negated else (body, orelse)
            where = self.places.at(self._function, call_of(test) or test, self._statement)
            return [Gate(patch, new, old, where)]
        items = self._expression(node.test)
        if body or orelse:
            where = self.places.at(self._function, node, self._statement)
            items.append(choice(node, body, orelse, where))
        return items

    def _try(self, node: cst.Try | cst.TryStar) -> list[Item]:
        body = self._block(node.body)
        if node.orelse is not None:
            body += self._block(node.orelse.body)
        handlers = tuple(self._block(h.body) for h in node.handlers)
        final = self._block(node.finalbody.body) if node.finalbody is not None else ()
        if not any(handlers) and not final:
            return list(body)  # nothing but the body issues commands: the try changes nothing
        return [Guarded(body, handlers, final, self.places.at(self._function, node, node))]

    # ------------------------------------------------------------------ gates

    def _gate(self, test: cst.BaseExpression) -> str | None:
        """The patch id when `test` asks a version gate (or names a local that holds one)."""
        if isinstance(test, cst.Name):
            return self._gate_names.get(test.value)
        call = call_of(test)
        fact = self.calls.by_node.get(id(call)) if call is not None else None
        path = self._path(call, fact) if call is not None else ""
        if call is not None and path and self.facts.gates.matches(path):
            return text_argument(call, fact, ("0", "patch_id", "patch_name", "name"))
        return None

    def _remember_gate(self, small: cst.BaseSmallStatement) -> None:
        """`use_new = workflow.patched("x")`: a later `if use_new:` is that gate; and
        `handle = workflow.get_external_workflow_handle(...)`: `handle.signal(...)` is its."""
        if isinstance(small, cst.Assign) and len(small.targets) == 1:
            target = small.targets[0].target
            patch = self._gate(small.value)
            if isinstance(target, cst.Name) and patch is not None:
                self._gate_names[target.value] = patch
            call = call_of(small.value)
            if isinstance(target, cst.Name) and call is not None:
                made = self._path(call, self.calls.by_node.get(id(call)))
                if made:
                    self._handles[target.value] = made + "()"

    def _context_handed(self, target: FunctionInfo, call: cst.Call) -> frozenset[str]:
        """The helper's parameters that receive this frame's run context."""
        params = parameters(target)
        offset = 1 if target.cls is not None and params[:1] in (["self"], ["cls"]) else 0
        names = set()
        positional = [a.value for a in call.args if a.keyword is None and not a.star]
        for index, value in enumerate(positional):
            if isinstance(value, cst.Name) and value.value in self._context_names:
                if index + offset < len(params):
                    names.add(params[index + offset])
        for arg in call.args:
            if arg.keyword is not None and isinstance(arg.value, cst.Name):
                if arg.value.value in self._context_names:
                    names.add(arg.keyword.value)
        return frozenset(names)

    # ------------------------------------------------------------------ expressions

    def _expression(self, node: cst.CSTNode) -> list[Item]:
        """The commands an expression issues, in evaluation order (arguments before the call)."""
        if isinstance(node, (cst.Lambda, cst.FunctionDef, cst.ClassDef)):
            return []
        if isinstance(node, _COMPREHENSIONS):
            return self._comprehension(node)
        if isinstance(node, cst.IfExp):
            items = self._expression(node.test)
            arms = (tuple(self._expression(node.body)), tuple(self._expression(node.orelse)))
            if any(arms):
                items.append(Branches(arms, self.places.at(self._function, node, self._statement)))
            return items
        if isinstance(node, cst.BooleanOperation):
            items = self._expression(node.left)
            right = tuple(self._expression(node.right))
            if right:
                where = self.places.at(self._function, node, self._statement)
                items.append(Branches((right, ()), where))
            return items
        items = [item for child in children(node) for item in self._expression(child)]
        if isinstance(node, cst.Call):
            items.extend(self._call(node))
        return items

    def _comprehension(self, node: cst.CSTNode) -> list[Item]:
        loop = node.for_in  # type: ignore[attr-defined]
        items = self._expression(loop.iter)
        inner: list[Item] = []
        part: cst.CSTNode | None = loop
        while isinstance(part, cst.CompFor):
            inner += [i for cond in part.ifs for i in self._expression(cond.test)]
            part = part.inner_for_in
            if part is not None:
                inner += self._expression(part.iter)
        for element in elements(node):
            inner += self._expression(element)
        if inner:
            items.append(Loop(tuple(inner), self.places.at(self._function, node, self._statement)))
        return items

    def _call(self, node: cst.Call) -> list[Item]:
        fact = self.calls.by_node.get(id(node))
        path = self._path(node, fact)
        if path:
            found = self._framework_call(node, fact, path)
            if found is not None:
                return [found]
        items: list[Item] = []
        for target in self.helpers.get(id(node), ()):
            items.extend(self._helper_call(node, target))
        return items

    def _path(self, node: cst.Call, fact: Call | None) -> str:
        """The resolved path of the called value; where the walk has none, what the builder
        knows: an unannotated run context (the runtime's `ctx`, a helper's parameter that was
        handed the context), or a local or call result that is a framework object (a handle:
        `workflow.get_external_workflow_handle(id).signal(...)`)."""
        if fact is not None:
            return fact.path
        func = node.func
        if not isinstance(func, cst.Attribute):
            return ""
        receiver = func.value
        if isinstance(receiver, cst.Call):
            made = self._path(receiver, self.calls.by_node.get(id(receiver)))
            return f"{made}().{func.attr.value}" if made else ""
        chain = attribute_chain(func)
        if not chain:
            return ""
        if self.context and chain[0] in self._context_names:
            return ".".join([self.context, *chain[1:]])
        if chain[0] in self._handles:
            return ".".join([self._handles[chain[0]], *chain[1:]])
        task = receiver_of(node, self._function)
        return f"{task.decorators[0]}().{func.attr.value}" if task is not None else ""

    def _framework_call(self, node: cst.Call, fact: Call | None, path: str) -> Item | None:
        where = self.places.at(self._function, node, self._statement)
        if self.facts.deprecations.matches(path):
            patch = text_argument(node, fact, ("0", "patch_id", "patch_name", "name"))
            return Deprecation(patch or "", where)
        keywords = frozenset(a.keyword.value for a in node.args if a.keyword is not None)
        kind = self.facts.command_kind(path, keywords)
        if kind is None:
            return None
        keys = self.facts.target_keys(kind, path)
        work = work_of(node, keys, self._function) if self.facts.argued(kind) else ""
        written = argument_nodes(node, keys)
        if written and isinstance(written[0], cst.IfExp):
            # `run(a if x else b)`: each alternative is the command a run of that arm records.
            targets = [
                self.targets.of_alternative(leaf, self._function)
                for leaf in alternatives(written[0])
            ]
            arms = tuple((DurableCommand(kind, target, where, work),) for target in targets)
            return Branches(arms, where, kind)
        target = self.targets.of_call(node, fact, keys, self._function, self._rebound())
        return DurableCommand(kind, target, where, work)

    def _helper_call(self, node: cst.Call, target: FunctionInfo) -> list[Item]:
        where = self.places.at(self._function, node, self._statement)
        kind = self.facts.step_kind(target.decorators)
        if kind is not None:
            work = body_of(target) if self.facts.argued(kind) else ""
            return [DurableCommand(kind, self.name_of(target), where, work)]
        if target.entry is not None and target.entry in self.children:
            return [DurableCommand("child workflow", self.name_of(target), where)]
        if target.is_exempt():
            return []  # a recorded zone of another kind: served from history, no command here
        return self._inline(target, node)

"""Calls the walk resolves on what reaches them rather than on what they say.

- A handler picked from a dispatch table by a key known only at run time
  (`HANDLERS[name](args)`, resolve/tables.py) runs one of its functions: the call is a call
  of each.
- A method called through a parameter nothing types (`agent_ctx.gateway.generate(...)`, in a
  helper whose `agent_ctx` is unannotated or `Any`): the body is walked once, before its
  callers are known, so the call resolves to nothing there. It is kept (which parameter, which
  attributes), and each call of the helper on the workflow path that hands that parameter an
  object of the checked code resolves it on the object, as an annotation naming the object's
  class would. Only functions of the checked code are resolved this way: a hazard of an
  outside package reached through such a parameter is not (its fact would belong to the
  helper's own walk)."""

from __future__ import annotations

import libcst as cst

from replaylint.parse.children import children, target_names
from replaylint.resolve import folds
from replaylint.resolve.model import Func, FunctionInfo, HelperCall, ThroughParam
from replaylint.resolve.parameters import parameter_of
from replaylint.resolve.values import UNKNOWN, OneOf, Value
from replaylint.resolve.walker import Walker

_DEPTH = 4  # attributes between the parameter and the method (`ctx.deps.gateway.generate`)


class ThroughParams(Walker):
    def _through_params(self, callee: Value, node: cst.Call, values: list[Value]) -> None:
        """A call just applied: kept when it resolved to nothing, resolving the calls of the
        helper it calls through what it hands that helper's parameters."""
        if callee is UNKNOWN:
            self._through_param(node)
        elif isinstance(callee, OneOf):
            self._dispatched(callee, node)
        elif isinstance(callee, Func):
            self._resolve_through_params(callee, node, values)

    def _dispatched(self, callee: OneOf, node: cst.Call) -> None:
        """`HANDLERS[name](args)`, a dispatch table's entry picked by a key known only at run
        time (resolve/tables.py): the call runs one of its functions, so it is a call of each
        (as `HANDLERS["send"](args)` is of the one it names)."""
        for value in callee.items:
            if isinstance(value, Func):  # named by the function: the key is not known here
                self._helper(value.info, node, value.info.name)
                self._walk_nested_now(value.info)

    def _through_param(self, node: cst.Call) -> None:
        """An unresolved call of this function's body: kept when it is a method reached from a
        parameter nothing types (`agent_ctx.gateway.generate(...)`)."""
        info = self.func
        if not info.open_params:
            return
        chain: list[str] = []
        func: cst.BaseExpression = node.func
        while isinstance(func, cst.Attribute) and len(chain) <= _DEPTH:
            chain.append(func.attr.value)
            func = func.value
        if not chain or not isinstance(func, cst.Name) or func.value not in info.open_params:
            return
        if any(kept.node is node for kept in info.through_params):
            return  # the body walked again
        written = folds.written(node.func) or chain[0]
        info.through_params.append(
            ThroughParam(
                func.value,
                tuple(reversed(chain)),
                node,
                written,
                self.governed,
                self.dead,
                self.statement,
            )
        )

    def _stored_in(self, info: FunctionInfo) -> set[str]:
        """The names `info`'s body binds, read once per function (only when a call through
        one of its parameters resolves, which is rare)."""
        stored = self.stored_in.get(id(info))
        if stored is None:
            stored = self.stored_in[id(info)] = _stored(info.node)
        return stored

    def _resolve_through_params(self, callee: Func, node: cst.Call, values: list[Value]) -> None:
        """A call of `callee`: what it hands each parameter its body calls methods through
        resolves those calls (edges of `callee`, made once each). Only a call on the workflow
        path resolves them: an edge holds for every caller, and an activity handing the helper
        an object with an unsafe method would make a workflow's call of it look unsafe."""
        info = callee.info
        if not info.through_params or not self.governed or self.dead:
            return
        handed: dict[str, Value] = {}
        position = 0
        for arg, value in zip(node.args, values, strict=False):
            name = parameter_of(callee, node, arg, position)
            if name is not None:
                handed[name] = value
            if arg.keyword is None and not arg.star:
                position += 1
        for kept in info.through_params:
            value = handed.get(kept.param, UNKNOWN)
            for name in kept.chain:
                value = self.attr(value, name) if value is not UNKNOWN else UNKNOWN
            if not isinstance(value, Func) or _made(info, value.info, kept.node):
                continue
            if kept.param in self._stored_in(info):
                continue  # bound again in the body: no longer what the caller handed
            info.calls.append(
                HelperCall(
                    value.info,
                    kept.node,
                    kept.written,
                    kept.governed,
                    dead=kept.dead,
                    statement=kept.statement,
                )
            )


def _stored(node: cst.CSTNode) -> set[str]:
    """The names a function's body binds (its nested scopes' own aside)."""
    found: set[str] = set()
    stack = list(children(node))
    while stack:
        current = stack.pop()
        target: cst.CSTNode | None = None
        if isinstance(current, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.For)):
            target = current.target
        elif isinstance(current, (cst.NamedExpr, cst.AsName)):
            target = current.target if isinstance(current, cst.NamedExpr) else current.name
        if target is not None:
            found |= {n.value for n in target_names(target)}
        if not isinstance(current, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            stack.extend(children(current))
    return found


def _made(info: FunctionInfo, target: FunctionInfo, node: cst.CSTNode) -> bool:
    return any(edge.node is node and edge.target is target for edge in info.calls)

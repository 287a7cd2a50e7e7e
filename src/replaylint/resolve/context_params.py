"""A run context handed to a helper whose parameter says nothing of its type.

`def notify(ctx, data): yield ctx.call_activity(send, input=data)`, called from a workflow
with the workflow's own context: the helper's `ctx` is unannotated, so its value is unknown,
and `send` handed to an unknown call would be taken for a call of `send` on the workflow path.
The analysis does not carry a caller's arguments into a helper's body (it is walked once, often
before its callers, or in another module), so the parameter's use decides: one whose name says
it is a context (`ctx`, `context`, `wf_ctx`), whose method is a call some framework's run
context records or suspends at (`call_activity`, `run`, `step`, `ctx.step.run`), is that
framework's context: one the module imports, or, in a module that imports no framework, any.
"""

from __future__ import annotations

import libcst as cst

from replaylint.presets.frameworks import Frameworks
from replaylint.resolve.model import FunctionInfo, ImportEdge
from replaylint.resolve.values import Ext


def guessed_context(
    frameworks: Frameworks,
    func: FunctionInfo,
    imports: list[ImportEdge],
    owner: cst.BaseExpression,
    method: str,
) -> Ext | None:
    """What `owner` is, when it is a parameter named as a context (`ctx`) whose annotation says
    nothing of its type (none, `Any`, `object`), or an attribute of one (`ctx.step`), and
    `owner.method` is a call a framework's run context records or suspends at; None otherwise.
    In a module that imports frameworks (`imports`, looked at last: every method call of an
    unknown object comes here), only theirs count: a `contextvars` context's `ctx.run(fn)`
    beside Temporal is no framework's. One that imports none is a helper of whichever module
    imports it (the answer must not depend on which is read first): any framework's run
    context counts."""
    middle: list[str] = []
    while isinstance(owner, cst.Attribute):
        middle.insert(0, owner.attr.value)
        owner = owner.value
    if not isinstance(owner, cst.Name):
        return None
    lowered = owner.value.lower()
    if "ctx" not in lowered and "context" not in lowered:
        return None
    if not _unannotated_parameter(func.node, owner.value):
        return None
    imported = {edge.module for edge in imports}
    own = [
        preset
        for preset in frameworks.presets
        if any(m == p or m.startswith(p + ".") for m in imported for p in preset.packages)
    ]
    # A module that imports no framework is a helper of whichever imports it: any run context.
    for preset in own or frameworks.presets:
        if not preset.context_type:
            continue
        receiver = preset.context_type + "()" + "".join(f".{name}" for name in middle)
        path = f"{receiver}.{method}"
        if frameworks.recorder(path) is not None or frameworks.suspending(path, frozenset()):
            return Ext(receiver)
    return None


def _unannotated_parameter(node: cst.CSTNode, name: str) -> bool:
    """Is `name` a parameter whose annotation says nothing of its type (none, `Any`,
    `typing.Any`, `object`)?"""
    if not isinstance(node, (cst.FunctionDef, cst.Lambda)):
        return False
    params = node.params
    every = [*params.posonly_params, *params.params, *params.kwonly_params]
    return any(p.name.value == name and _says_nothing(p.annotation) for p in every)


def _says_nothing(annotation: cst.Annotation | None) -> bool:
    if annotation is None:
        return True
    spelled = annotation.annotation
    if isinstance(spelled, cst.SimpleString):  # `ctx: "Any"`
        return spelled.value.strip("\"'") in ("Any", "object")
    if isinstance(spelled, cst.Attribute):  # `typing.Any`, `t.Any`
        return spelled.attr.value == "Any"
    return isinstance(spelled, cst.Name) and spelled.value in ("Any", "object")

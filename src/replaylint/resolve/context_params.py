"""A run context handed to a helper whose parameter says nothing of its type.

`def notify(ctx, data): yield ctx.call_activity(send, input=data)`, called from a workflow
with the workflow's own context: the helper's `ctx` is unannotated, so its value is unknown,
and `send` handed to an unknown call would be taken for a call of `send` on the workflow path.
The analysis does not carry a caller's arguments into a helper's body (it is walked once, often
before its callers, or in another module), so the parameter's use decides: one whose name says
it is a context (`ctx`, `context`, `wf_ctx`), whose method is a call some framework's run
context records (`call_activity`, `run`, `step`), is that framework's context. A framework the
module imports is preferred where several record the method.
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
    name: str,
    method: str,
) -> Ext | None:
    """The run context an unannotated parameter `name` of `func` is, when the call of its
    `method` is one a framework's run context records; else None."""
    lowered = name.lower()
    if "ctx" not in lowered and "context" not in lowered:
        return None
    if not _unannotated_parameter(func.node, name):
        return None
    found = []
    for preset in frameworks.presets:
        if not preset.context_type:
            continue
        receiver = preset.context_type + "()"
        if frameworks.recorder(f"{receiver}.{method}") is not None:
            found.append((preset.packages, receiver))
    if not found:
        return None
    imported = [edge.module for edge in imports]
    for packages, receiver in found:
        if any(m == p or m.startswith(p + ".") for m in imported for p in packages):
            return Ext(receiver)
    return Ext(found[0][1])


def _unannotated_parameter(node: cst.CSTNode, name: str) -> bool:
    if not isinstance(node, (cst.FunctionDef, cst.Lambda)):
        return False
    params = node.params
    every = [*params.posonly_params, *params.params, *params.kwonly_params]
    return any(p.name.value == name and p.annotation is None for p in every)

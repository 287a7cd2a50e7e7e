"""ADK-W006 unfoldable-access: a dynamic access the guard cannot fold to a name. Docs and examples: rules/ADK-W006.md."""

from __future__ import annotations

import libcst as cst

from replaylint.core.codes import Code
from replaylint.parse.children import children
from replaylint.resolve.facts import Fact, Unfoldable
from replaylint.resolve.model import FunctionInfo, Hit
from replaylint.rules.base import FactRule, Reason, Replay


class UnfoldableAccess(FactRule):
    code = Code.W006
    facts = (Unfoldable,)

    def on_fact(self, fact: Fact) -> None:
        assert isinstance(fact, Unfoldable)
        if _compiled_for(fact.node, fact.site.statement):
            return  # `eval(compile(tree, ...))`: one access, reported once, by the eval
        # Unproven, not unsafe: reported where it is written, never propagated to callers.
        self.report(fact, fact.text, "cannot be folded", propagates=False, pending="reference")

    def confirm(self, hit: Hit, function: FunctionInfo, replay: Replay) -> Reason | None:
        """Whatever an access names, if it is only handed to durable commands (an activity
        looked up by name for `workflow.execute_activity`) it is never run here."""
        if replay.flow.only_handed_to_commands(function, hit.node):
            return None
        return Reason("")


_RUNNERS = frozenset({"eval", "exec"})


def _compiled_for(node: cst.CSTNode, statement: cst.CSTNode | None) -> bool:
    """Is `node` a `compile(...)` call handed straight to `eval` or `exec` in its statement?"""
    if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Name)):
        return False
    if node.func.value != "compile" or statement is None:
        return False
    stack = [statement]
    while stack:
        current = stack.pop()
        if (
            isinstance(current, cst.Call)
            and isinstance(current.func, cst.Name)
            and current.func.value in _RUNNERS
            and current.args
            and current.args[0].value is node
        ):
            return True
        stack.extend(children(current))
    return False

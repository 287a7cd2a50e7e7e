"""ADK-W006 unfoldable-access: a dynamic access the guard cannot fold to a name. Docs and examples: rules/ADK-W006.md."""

from __future__ import annotations

from replaylint.core.codes import Code
from replaylint.resolve.facts import Fact, Unfoldable
from replaylint.resolve.model import FunctionInfo, Hit
from replaylint.rules.base import FactRule, Reason, Replay


class UnfoldableAccess(FactRule):
    code = Code.W006
    facts = (Unfoldable,)

    def on_fact(self, fact: Fact) -> None:
        assert isinstance(fact, Unfoldable)
        # Unproven, not unsafe: reported where it is written, never propagated to callers.
        self.report(fact, fact.text, "cannot be folded", propagates=False, pending="reference")

    def confirm(self, hit: Hit, function: FunctionInfo, replay: Replay) -> Reason | None:
        """Whatever an access names, if it is only handed to durable commands (an activity
        looked up by name for `workflow.execute_activity`) it is never run here."""
        if replay.flow.only_handed_to_commands(function, hit.node):
            return None
        return Reason("")

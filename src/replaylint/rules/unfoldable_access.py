"""ADK-W006 unfoldable-access: a dynamic access the guard cannot fold to a name. Docs and examples: rules/ADK-W006.md."""

from replaylint.core.codes import Code
from replaylint.resolve.facts import Fact, Unfoldable
from replaylint.rules.base import FactRule


class UnfoldableAccess(FactRule):
    code = Code.W006
    facts = (Unfoldable,)

    def on_fact(self, fact: Fact) -> None:
        assert isinstance(fact, Unfoldable)
        # Unproven, not unsafe: reported where it is written, never propagated to callers.
        self.report(fact, fact.text, "cannot be folded", propagates=False)

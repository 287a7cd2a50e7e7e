"""ADK-W006 unfoldable-access: a dynamic access the guard cannot fold to a name. Docs and examples: rules/ADK-W006.md."""

from replaylint.codes import Code
from replaylint.rules.base import Rule


class UnfoldableAccess(Rule):
    code = Code.W006

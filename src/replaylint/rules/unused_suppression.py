"""ADK-S001 unused-suppression: a suppression comment that matches no finding, found by
replaylint.suppressions (no fact reaches it). Docs: rules/ADK-S001.md."""

from replaylint.core.codes import Code
from replaylint.rules.base import Rule


class UnusedSuppression(Rule):
    code = Code.S001

"""ADK-S001 unused-suppression and ADK-S002 invalid-suppression: findings about the ignore
comments themselves, produced by replaylint.suppressions.directives. Docs: rules/ADK-S001.md, ADK-S002.md."""

from replaylint.core.codes import Code
from replaylint.rules.base import Rule


class UnusedSuppression(Rule):
    code = Code.S001


class InvalidSuppression(Rule):
    code = Code.S002

"""ADK-S002 invalid-suppression: a suppression comment that names an unknown code or none, found
by replaylint.suppressions (no fact reaches it). Docs: rules/ADK-S002.md."""

from replaylint.core.codes import Code
from replaylint.rules.base import Rule


class InvalidSuppression(Rule):
    code = Code.S002

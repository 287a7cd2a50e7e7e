"""ADK-W005 unsafe-helper-call: a call to a helper of the checked code that reaches an unsafe root. Docs and examples: rules/ADK-W005.md."""

from replaylint.codes import Code
from replaylint.rules.base import Rule


class UnsafeHelperCall(Rule):
    code = Code.W005

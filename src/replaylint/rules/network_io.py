"""ADK-W004 network-call-in-workflow: network I/O on the workflow path. Docs and examples: rules/ADK-W004.md."""

from replaylint.codes import Code
from replaylint.rules.base import Rule


class NetworkCallInWorkflow(Rule):
    code = Code.W004

"""ADK-E001 unreadable-workflow-module: a workflow module that cannot be decoded or parsed."""

from replaylint.codes import Code
from replaylint.rules.base import Rule


class UnreadableWorkflowModule(Rule):
    code = Code.E001

"""ADK-E001 unreadable-workflow-module: a workflow module that cannot be decoded or parsed; the
engine reports it from the parse failure (no fact reaches it). Docs: rules/ADK-E001.md."""

from replaylint.core.codes import Code
from replaylint.rules.base import Rule


class UnreadableWorkflowModule(Rule):
    code = Code.E001

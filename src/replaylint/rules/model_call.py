"""ADK-W001 model-call-in-workflow: a model-provider call reached on the workflow path. Docs and examples: rules/ADK-W001.md."""

from replaylint.codes import Code
from replaylint.rules.base import Rule


class ModelCallInWorkflow(Rule):
    code = Code.W001

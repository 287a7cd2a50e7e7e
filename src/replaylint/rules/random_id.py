"""ADK-W002 random-id-in-workflow: randomness or a fresh id drawn on the workflow path. Docs and examples: rules/ADK-W002.md."""

from replaylint.codes import Code
from replaylint.rules.base import Rule


class RandomIdInWorkflow(Rule):
    code = Code.W002

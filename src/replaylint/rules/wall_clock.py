"""ADK-W003 wall-clock-in-workflow: a wall-clock read or a real sleep on the workflow path. Docs and examples: rules/ADK-W003.md."""

from replaylint.codes import Code
from replaylint.rules.base import Rule


class WallClockInWorkflow(Rule):
    code = Code.W003

"""ADK-W003 wall-clock-in-workflow: a wall-clock read or a real sleep on the workflow path. Docs and examples: rules/ADK-W003.md."""

from replaylint.core.codes import Code
from replaylint.rules.catalog_rule import CatalogRule


class WallClockInWorkflow(CatalogRule):
    code = Code.W003
    category = "clock"  # clock reads and real sleeps

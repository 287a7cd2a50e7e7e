"""ADK-W003 wall-clock-in-workflow: the wall clock read, or a real sleep, on the workflow path. Docs and examples: rules/ADK-W003.md."""

from replaylint.core.codes import Code
from replaylint.rules.catalog_rule import CatalogRule


class WallClockInWorkflow(CatalogRule):
    code = Code.W003  # its catalog category: clock reads and real sleeps

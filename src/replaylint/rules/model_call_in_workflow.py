"""ADK-W001 model-call-in-workflow: a model provider called on the workflow path. Docs and examples: rules/ADK-W001.md."""

from replaylint.core.codes import Code
from replaylint.rules.catalog_rule import CatalogRule


class ModelCallInWorkflow(CatalogRule):
    code = Code.W001  # its catalog category: provider clients and SDK calls that run a model (catalog [[client]], [[factory]])

"""ADK-W007 process-environment-in-workflow: the process or host environment read on the workflow path. Docs and examples: rules/ADK-W007.md."""

from replaylint.core.codes import Code
from replaylint.rules.catalog_rule import CatalogRule


class ProcessEnvironmentInWorkflow(CatalogRule):
    code = (
        Code.W007
    )  # its catalog category: os.environ, sys.argv, the process's ids, the host's name and cwd

"""ADK-W004 network-call-in-workflow: network I/O on the workflow path. Docs and examples: rules/ADK-W004.md."""

from replaylint.core.codes import Code
from replaylint.rules.catalog_rule import CatalogRule


class NetworkCallInWorkflow(CatalogRule):
    code = (
        Code.W004
    )  # its catalog category: HTTP clients, sockets, DNS, and the stdlib's network modules

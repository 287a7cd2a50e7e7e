"""ADK-W002 random-id-in-workflow: a random value or id drawn on the workflow path. Docs and examples: rules/ADK-W002.md."""

from replaylint.core.codes import Code
from replaylint.rules.catalog_rule import CatalogRule


class RandomIdInWorkflow(CatalogRule):
    code = (
        Code.W002
    )  # its catalog category: random, secrets, uuid1/uuid4, os.urandom and unseeded generators

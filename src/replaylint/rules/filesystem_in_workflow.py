"""ADK-W008 filesystem-in-workflow: the filesystem used on the workflow path. Docs and examples: rules/ADK-W008.md."""

from replaylint.core.codes import Code
from replaylint.rules.catalog_rule import CatalogRule


class FilesystemInWorkflow(CatalogRule):
    code = Code.W008  # its catalog category: open, pathlib reads and listings, os and os.path stats, shutil, tempfile

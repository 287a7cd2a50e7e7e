"""ADK-W009 thread-or-process-in-workflow: a thread, process or executor started on the workflow path. Docs and examples: rules/ADK-W009.md."""

from replaylint.core.codes import Code
from replaylint.rules.catalog_rule import CatalogRule


class ThreadOrProcessInWorkflow(CatalogRule):
    code = Code.W009  # its catalog category: threading, executors, multiprocessing, subprocess, os.system/fork/exec

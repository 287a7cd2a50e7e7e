"""ADK-W007 process-environment-in-workflow: the process or host environment read on the workflow path, where the value decides the replay. Docs and examples: rules/ADK-W007.md."""

from __future__ import annotations

from replaylint.core.codes import Code
from replaylint.resolve.model import FunctionInfo, Hit
from replaylint.rules.base import Reason, Replay
from replaylint.rules.catalog_rule import CatalogRule


class ProcessEnvironmentInWorkflow(CatalogRule):
    code = Code.W007  # its catalog category: os.environ, sys.argv, the process's ids, the host
    pending = "flow"

    def confirm(self, hit: Hit, function: FunctionInfo, replay: Replay) -> Reason | None:
        """Reported where the value reaches a decision of the replay. A value a framework fixes
        per deployed version (AWS's environment variables) decides only by a branch or the
        result: a durable command's argument is the same on every replay of that version."""
        fixed = replay.frameworks.fixed_environment(hit.path, replay.module.frameworks)
        decision = replay.flow.reaches(function, hit.node, commands=not fixed)
        return Reason("it reaches", decision) if decision is not None else None

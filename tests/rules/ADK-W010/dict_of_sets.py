"""A dict's entry read with a set as its default (`deps.get(k, set())`) is a set whose
elements the guard cannot see: iterating it follows their hashes."""
from datetime import timedelta

from temporalio import workflow


@workflow.defn
class Schedule:
    @workflow.run
    async def run(self, edges: list) -> int:
        deps: dict = {}
        for edge in edges:
            deps.setdefault(edge["target"], set()).add(edge["source"])
        for dep in deps.get("n1", set()):  # expect: ADK-W010
            await workflow.execute_activity(
                "run_node", dep, start_to_close_timeout=timedelta(seconds=5)
            )
        return len(deps.get("n2", set())) + sum(1 for d in sorted(deps.get("n3", set())) if d)

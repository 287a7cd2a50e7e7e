"""A dict built over a set takes its keys in hash order; while it is only asked for entries by
key that order is never seen. Iterated, it is."""
from datetime import timedelta

from temporalio import workflow


@workflow.defn
class Graph:
    @workflow.run
    async def run(self, nodes: list, edges: list) -> list:
        node_map = {n["id"]: n for n in nodes}
        node_ids = set(node_map.keys())
        deps = {nid: set() for nid in node_ids}
        for edge in edges:
            if edge["target"] in deps:
                deps[edge["target"]].add(edge["source"])
        ready = [nid for nid in node_map if not deps.get(nid)]
        order = {nid: 0 for nid in node_ids}  # expect: ADK-W010
        for nid in order:
            await workflow.execute_activity(
                "visit", nid, start_to_close_timeout=timedelta(seconds=5)
            )
        return ready

"""The worker hands the graph to the plugin, which places its nodes."""
from temporalio import workflow
from temporalio.client import Client
from temporalio.langgraph import LangGraphPlugin, graph
from temporalio.worker import Worker

from graph import build


@workflow.defn
class Research:
    @workflow.run
    async def run(self, topics: list) -> dict:
        return await graph("research").compile().ainvoke({"topics": topics})


async def main() -> None:
    client = await Client.connect("localhost:7233")
    plugin = LangGraphPlugin(graphs={"research": build()})
    worker = Worker(client, task_queue="research", workflows=[Research], plugins=[plugin])
    await worker.run()

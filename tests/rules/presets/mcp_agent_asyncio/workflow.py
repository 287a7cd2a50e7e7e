"""The same workflow as mcp_agent_temporal/, on the asyncio engine: nothing is replayed."""
import time
import uuid

import httpx
from mcp_agent.app import MCPApp
from mcp_agent.executor.workflow import Workflow, WorkflowResult

app = MCPApp(name="research")
started = time.time()  # module-level code, not the workflow's


@app.workflow_task
async def fetch(url: str) -> str:
    # Runs as a recorded activity: its network call is served from history on replay.
    async with httpx.AsyncClient() as client:
        return (await client.get(url)).text


def stamp() -> float:
    return time.time()


@app.workflow
class Research(Workflow[str]):
    @app.workflow_run
    async def run(self, url: str) -> WorkflowResult[str]:
        page = await fetch(url)
        marker = str(uuid.uuid4())
        when = stamp()
        return WorkflowResult(value=f"{page}{marker}{when}")

    def helper_nobody_calls(self) -> float:
        return time.time()

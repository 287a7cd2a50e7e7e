from temporalio import workflow

from agents import Runner


@workflow.defn
class Hello:
    @workflow.run
    async def run(self, prompt: str) -> str:
        return await Runner.run("assistant", prompt)  # expect: ADK-W005

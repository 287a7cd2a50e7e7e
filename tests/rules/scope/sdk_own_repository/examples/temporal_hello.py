"""An example workflow in the SDK's repository: `Runner.run` is the SDK's, made durable by
Temporal's OpenAI Agents plugin, not a local helper whose internals are walked."""

from temporalio import workflow

from agents import Runner


@workflow.defn
class Hello:
    @workflow.run
    async def run(self, prompt: str) -> str:
        return await Runner.run("assistant", prompt)

"""The OpenAI Agents SDK's own package, in its own repository (published as openai-agents)."""

import time


class Runner:
    @classmethod
    async def run(cls, agent: object, prompt: str) -> str:
        started = time.time()
        return f"{agent}: {prompt} at {started}"

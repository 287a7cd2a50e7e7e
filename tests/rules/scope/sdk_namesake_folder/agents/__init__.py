"""An app's own `agents` package: the same name as the SDK's, but this is not its repository."""

import time


class Runner:
    @classmethod
    async def run(cls, agent: object, prompt: str) -> str:
        started = time.time()  # expect: ADK-W003
        return f"{agent}: {prompt} at {started}"

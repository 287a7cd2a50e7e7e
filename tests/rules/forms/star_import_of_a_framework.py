"""`from temporalio.workflow import *`: `defn`, `run` and `now` are the framework's."""

import time
from temporalio.workflow import *


@defn
class Greeting:
    @run
    async def run(self) -> str:
        started = now()
        return f"{started} {time.time()}"  # expect: ADK-W003


@defn
class Archive:
    @run
    async def run(self, path: str) -> str:
        with open(path) as handle:  # expect: ADK-W008
            return handle.read()

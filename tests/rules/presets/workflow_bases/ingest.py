import os
import time

from stages import Stage


class Ingest(Stage):
    async def run(self, payload: dict) -> dict:
        if os.environ.get("DRY_RUN"):  # expect: ADK-W007
            return {}
        return {"at": time.time()}  # expect: ADK-W003

    def describe(self) -> str:
        return f"ingest at {time.time()}"  # not run(), and nothing run() reaches

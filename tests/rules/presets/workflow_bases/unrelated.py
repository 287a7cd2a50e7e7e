import time


class Pipeline:
    """Another Pipeline, not the SDK's: no workflow."""

    async def run(self, payload: dict) -> dict:
        return {"at": time.time()}

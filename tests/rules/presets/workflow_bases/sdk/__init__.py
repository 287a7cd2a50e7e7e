class Pipeline:
    """Subclasses become workflows: their run() is the workflow's run."""

    async def run(self, payload: dict) -> dict:
        raise NotImplementedError

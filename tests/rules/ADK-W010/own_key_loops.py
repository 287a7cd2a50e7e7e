"""A loop over a set whose every pass only adds, discards or drops its own element, never
failing, leaves the same state in any order; one that does anything else with the elements,
or may fail at whichever is missing first, follows their order."""

from temporalio import workflow


@workflow.defn
class Streams:
    def __init__(self) -> None:
        self.streams: dict[str, int] = {}
        self.open: set[str] = set()
        self.closed: list[str] = []

    @workflow.run
    async def run(self, drop: list[str]) -> int:
        gone = set(drop)
        for name in gone:
            self.streams.pop(name, None)
            self.open.discard(name)
        for name in gone:  # expect: ADK-W010
            self.closed.append(name)
        for name in gone:  # expect: ADK-W010
            self.streams.pop(name)
        for name in gone:  # expect: ADK-W010
            del self.streams[name]
        return len(self.streams) + len(self.closed)

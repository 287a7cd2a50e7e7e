"""A container of the class body changed through self is shared by every instance."""
from pydantic import BaseModel
from temporalio import workflow


class Settings(BaseModel):
    tags: list = []  # a pydantic default: each model gets its own copy


@workflow.defn(sandboxed=False)
class Shared:
    history: list = []
    seen: dict = {}
    own: list = []
    ALLOWED = ["a", "b"]

    def __init__(self) -> None:
        self.own = []

    @workflow.run
    async def run(self, x: str) -> int:
        self.history.append(x)  # expect: ADK-W011
        self.seen[x] = True  # written, never read back: decides nothing
        self.own.append(x)  # assigned in __init__: the instance's own
        settings = Settings()
        settings.tags.append(x)  # a local model's own list
        return len(self.history) + len(self.ALLOWED)


@workflow.defn(sandboxed=False)
class WithState:
    """A dataclass's fields are each instance's own, whatever the annotation says."""

    def __init__(self) -> None:
        self.state = State()

    @workflow.run
    async def run(self, job: str) -> None:
        self.state.assigned.add(job)
        self.state.nodes[job] = None


from dataclasses import dataclass, field  # noqa: E402


@dataclass
class State:
    assigned: set[str] = field(default_factory=set)
    nodes: dict = field(default_factory=dict)

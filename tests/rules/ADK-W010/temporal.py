"""A Temporal workflow: its methods and the helpers they reach are checked; activities are not."""
from datetime import timedelta

from temporalio import activity, workflow


def _fan_out(names):
    return [n for n in set(names)]  # expect: ADK-W010


def _ordered(names):
    return [n for n in sorted(set(names))]


@activity.defn
async def notify(names: list[str]) -> None:
    for name in set(names):
        print(name, hash(name))


@workflow.defn
class Broadcast:
    def __init__(self) -> None:
        self.pending: set[str] = set()
        self.done: set[int] = set()

    @workflow.run
    async def run(self, names: list[str]) -> list[str]:
        for name in self.pending:  # expect: ADK-W010
            await workflow.execute_activity(notify, [name], start_to_close_timeout=timedelta(1))
        for number in self.done:
            print(number)
        first = _fan_out(names)  # expect: ADK-W005
        second = _ordered(names)
        return first + second

    @workflow.signal
    def add(self, name: str) -> None:
        self.pending.add(name)
        print(", ".join(self.pending))  # a log line (catalog [loggers]): no decision

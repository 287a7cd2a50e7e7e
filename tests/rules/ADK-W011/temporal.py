"""Temporal's sandbox gives each run its own copy of a workflow's modules: their state is the
run's own, however it is written (temporal_unsandboxed.py has the workflows that opt out)."""
from datetime import timedelta

from temporalio import activity, workflow

_attempts: dict[str, int] = {}
_completed: list[str] = []


def _remember(name: str) -> None:
    _completed.append(name)


@activity.defn
async def charge(order: str) -> str:
    _attempts[order] = _attempts.get(order, 0) + 1
    return order


@workflow.defn
class Checkout:
    started = 0

    def __init__(self) -> None:
        self.seen: list[str] = []

    @workflow.run
    async def run(self, order: str) -> str:
        Checkout.started += 1
        self.seen.append(order)
        _remember(order)
        if Checkout.started > 1 or _completed:
            return order
        return await workflow.execute_activity(charge, order, start_to_close_timeout=timedelta(1))

    @workflow.signal
    def retry(self, order: str) -> None:
        _attempts[order] = 0

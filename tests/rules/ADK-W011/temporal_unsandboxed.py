"""A workflow that runs outside Temporal's sandbox shares its module's state with every run on
the worker: state the workflow path reads back is reported, write-only state is not."""
from datetime import timedelta

from temporalio import activity, workflow

_attempts: dict[str, int] = {}
_completed: list[str] = []
_audit: list[str] = []


def _remember(name: str) -> None:
    _completed.append(name)  # expect: ADK-W011


@activity.defn
async def charge(order: str) -> str:
    _attempts[order] = _attempts.get(order, 0) + 1
    return order


@workflow.defn(sandboxed=False)
class Checkout:
    started = 0

    def __init__(self) -> None:
        self.seen: list[str] = []

    @workflow.run
    async def run(self, order: str) -> str:
        Checkout.started += 1  # expect: ADK-W011
        self.seen.append(order)
        _audit.append(order)  # never read back: decides nothing
        _remember(order)  # expect: ADK-W005
        Checkout.reset()  # expect: ADK-W005
        if Checkout.started > 1 or len(_completed) > 3:
            workflow.logger.info("again: %s", _audit)
            return order
        return await workflow.execute_activity(charge, order, start_to_close_timeout=timedelta(1))

    @workflow.signal
    def retry(self, order: str) -> None:
        _attempts[order] = 0  # only the activity reads it back (recorded): write-only here

    @classmethod
    def reset(cls) -> None:
        cls.started = 0  # expect: ADK-W011

    @classmethod
    def configure(cls) -> None:
        cls.started = 1  # never called from the workflow: worker setup

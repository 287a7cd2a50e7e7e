"""A store guarded as a cache is filled (`if MODE is None:`) is a once-per-process cache only when
what it keeps is the same for every run: the first run's own argument, kept, decides every
later run on the worker."""
from datetime import timedelta

from temporalio import workflow

MODE = None
CLIENT = None


def set_mode_if_unset(mode: bool) -> None:
    global MODE
    if MODE is None:
        MODE = mode  # expect: ADK-W011


def client() -> dict:
    global CLIENT
    if CLIENT is None:
        CLIENT = dict(region="eu")
    return CLIENT


@workflow.defn(sandboxed=False)
class Flow:
    @workflow.run
    async def run(self, goal: str, multi: bool) -> str:
        set_mode_if_unset(multi)  # expect: ADK-W005
        if MODE and client()["region"] == "eu":
            return await workflow.execute_activity(
                "pick", goal, start_to_close_timeout=timedelta(seconds=5)
            )
        return goal

"""The Temporal workflow the histories of this folder replay against (written here, see README.md)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from temporalio import workflow


@workflow.defn(name="SayHelloWorkflow")
class Greeter:
    """Asks the `say_hello` activity to greet the name it is given, and returns the greeting.

    The recorded input also carries flags (`should_wait`, `should_error`, ...) that the
    test workflow of temporalio's own suite acts on; the recorded runs acted on none of
    them before completing, so this workflow reads only the name.
    """

    @workflow.run
    async def run(self, request: dict[str, Any]) -> str:
        return await workflow.execute_activity(
            "say_hello", request["name"], schedule_to_close_timeout=timedelta(seconds=60)
        )

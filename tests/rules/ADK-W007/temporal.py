import os
import sys
from datetime import timedelta

from temporalio import activity, workflow

TASK_QUEUE = os.environ.get("TASK_QUEUE", "orders")  # module level: runs once, at import


def _region():
    return os.getenv("REGION")  # expect: ADK-W007


@activity.defn
async def load_config(name: str) -> dict:
    return {"name": name, "region": os.environ["REGION"], "host": os.uname().nodename}


@workflow.defn
class OrderWorkflow:
    @workflow.run
    async def run(self, name: str) -> dict:
        config = await workflow.execute_activity(
            load_config, name, start_to_close_timeout=timedelta(seconds=10)
        )
        debug = os.environ.get("DEBUG")  # expect: ADK-W007
        region = _region()  # expect: ADK-W005
        return {"config": config, "debug": debug, "region": region}


async def main() -> None:
    print(sys.argv, os.getpid(), TASK_QUEUE)


if __name__ == "__main__":
    print(os.environ["HOME"])

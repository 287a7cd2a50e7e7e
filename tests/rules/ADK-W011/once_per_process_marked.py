"""In a module marked as workflow code every function is on the path: a cached function that
takes no argument still writes once per process, and exempts only what it writes itself."""
import functools
import os

__adk_workflow__ = True
COUNT = 0
SEEN: list = []


def g(x: str) -> bool:
    global COUNT
    COUNT += 1  # expect: ADK-W011
    SEEN.append(x)  # expect: ADK-W011
    return COUNT < 3 and x in SEEN


@functools.lru_cache
def settings() -> dict:
    os.environ["REGION"] = "eu"
    return {"region": os.environ["REGION"]}

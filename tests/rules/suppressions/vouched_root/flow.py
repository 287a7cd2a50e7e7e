from helpers import backoff, jitter

__adk_workflow__ = True


def run() -> tuple[float, float]:
    return backoff(), jitter()  # expect: ADK-W005

import random
import time


def backoff() -> float:
    # Only logged, never decides anything: vouched for where it is written.
    return time.time()  # replaylint: ignore[ADK-W003] -- only logged


def jitter() -> float:
    return random.random()

import random
import time
import uuid

__adk_workflow__ = True


def stamp():
    return time.time()  # replaylint: ignore[ADK-W003] -- only logged


def both():
    return time.time(), uuid.uuid4()  # replaylint: ignore[ADK-W003, random-id-in-workflow] -- demo


def multi_line():
    return time.strftime(
        "%Y"
    )  # replaylint: ignore[ADK-W003] -- on the last line of the call


def covered():  # replaylint: ignore[ADK-W002] -- the whole body
    first = random.random()
    second = uuid.uuid4()
    return first, second, time.time()  # expect: ADK-W003


@staticmethod
def decorated():  # replaylint: ignore[ADK-W003]
    return time.monotonic()


class Sampler:  # replaylint: ignore[ADK-W002] -- every method
    def draw(self):
        return random.choice([1, 2])


def wrong_code():
    return time.time()  # replaylint: ignore[ADK-W002] -- expect: ADK-S001 ADK-W003


def unknown_code():
    return time.time()  # replaylint: ignore[ADK-W999] -- expect: ADK-S002 ADK-W003


def blanket():
    return time.time()  # replaylint: ignore -- expect: ADK-S002 ADK-W003


# replaylint: ignore[ADK-W004] -- expect: ADK-S001
TEXT = "# replaylint: ignore[ADK-W001] inside a string is not a directive"

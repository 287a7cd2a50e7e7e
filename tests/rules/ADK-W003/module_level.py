import time

__adk_workflow__ = True

LOADED_AT = time.time()  # expect: ADK-W003


class Config:
    created = time.monotonic()  # expect: ADK-W003


def handler(started=time.time()):  # expect: ADK-W003
    return started

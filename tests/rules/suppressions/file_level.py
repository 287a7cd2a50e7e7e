# replaylint: file-ignore[ADK-W003] -- a demo module that reads the clock on purpose
import time
import uuid

__adk_workflow__ = True


def run():
    time.sleep(1)
    return time.time(), uuid.uuid4()  # expect: ADK-W002

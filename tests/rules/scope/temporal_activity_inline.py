import time

from temporalio import activity

__adk_workflow__ = True


@activity.defn
def slow(seconds):
    time.sleep(seconds)


def run():
    return slow(1)  # expect: ADK-W005

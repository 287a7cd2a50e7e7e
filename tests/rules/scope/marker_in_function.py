import time


def configure():
    __adk_workflow__ = True
    return __adk_workflow__


if time:
    __adk_workflow__ = True

DOC = "__adk_workflow__ = True"


def run():
    return time.time()

from time import *  # expect: ADK-W006

__adk_workflow__ = True


def wait():
    sleep(1)  # expect: ADK-W003
    return time()  # expect: ADK-W003

import time

__adk_workflow__ = True


def outer():
    t = None

    def inner():
        nonlocal t
        t = time

    inner()
    return t.time()  # expect: ADK-W003


CLOCK = None


def setup():
    global CLOCK
    CLOCK = time  # expect: ADK-W011


def use():
    return CLOCK.time()  # expect: ADK-W003

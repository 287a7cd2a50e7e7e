import time

from replaylint.workflows import activity

__adk_workflow__ = True


@activity
def read_clock():
    return time.time()


def total(items):
    return sum(item["price"] for item in items)


def run(items):
    started = read_clock()
    return total(items), started

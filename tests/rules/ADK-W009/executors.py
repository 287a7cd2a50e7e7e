"""An executor received from elsewhere (a parameter, an attribute) is reported where work is
handed to it; one built here is reported where it is built."""
from concurrent.futures import Executor, ThreadPoolExecutor

__adk_workflow__ = True


def work(item):
    return item


class Fanout:
    def __init__(self, pool: ThreadPoolExecutor):
        self.pool = pool

    def spread(self, items):
        return [self.pool.submit(work, item) for item in items]  # expect: ADK-W009


def run(pool: Executor, items):
    first = pool.submit(work, items[0])  # expect: ADK-W009
    rest = list(pool.map(work, items[1:]))  # expect: ADK-W009
    return first, rest

"""Traps that must stay clean: the run's own state, import-time setup, caches filled once."""
import logging

import numpy as np
from opentelemetry import metrics

__adk_workflow__ = True

LIMITS = {"max": 3}
HANDLERS = {}
HANDLERS["default"] = print  # module-level code: import time, not a run
log = logging.getLogger(__name__)
_client = None
_MEMO = {}


class Counter:
    total = 0
    total += 1  # the class body, as the class is built

    def __init__(self):
        self.count = 0
        self.items = []
        self.index = {}

    def bump(self, key):
        self.count += 1
        self.items.append(key)
        self.index[key] = self.count
        self.items.sort()
        return LIMITS["max"] - self.count


def local_state(key):
    cache = {}
    cache[key] = 1
    seen = set()
    seen.add(key)
    items = []
    items.append(key)

    class Local:
        hits = 0

    Local.hits += 1
    return cache, seen, items, len(LIMITS), log.info("read only")


def reads(key):
    value = LIMITS.get(key)
    copy = dict(LIMITS)
    copy["extra"] = 1
    return value, copy, LIMITS.copy()


def client():
    global _client
    if _client is None:
        _client = logging.getLogger("client")
    return _client


def memo(key):
    if key in _MEMO:
        return _MEMO[key]
    _MEMO[key] = key.upper()
    return _MEMO[key]


def nonlocal_state():
    total = 0

    def add():
        nonlocal total
        total += 1

    add()
    return total


REQUESTS = metrics.get_meter("shop").create_counter("requests")


class Calculator:
    def add(self, a, b):
        return a + b


CALC = Calculator()


def other_objects(x):
    REQUESTS.add(1)  # a metric, not state the run reads
    padded = np.append([1], x)  # a module's function
    return CALC.add(1, x), padded  # a method of its own, which may change nothing

"""The writes of forms.py with nothing on the workflow path reading them back: write-only state
decides nothing in a replay. Another module's state changed in place is reported all the same."""
import collections

import settings

__adk_workflow__ = True

counter = 0
CACHE = {}
REGISTRY = []
SEEN = set()
RECENT = collections.deque(maxlen=10)


class Config:
    debug = False


CONFIG = Config()


class Registry(dict):
    pass


NAMES = Registry()
HANDLERS = collections.defaultdict(list)


def rebind(name):
    global counter
    counter += 1  # expect: ADK-W011 (read back by flag_once's condition)
    counter = len(name)  # expect: ADK-W011


def containers(key, value):
    CACHE[key] = value
    CACHE[key]["hits"] += 1
    del CACHE[key]
    REGISTRY.append(value)
    REGISTRY.extend([value])
    CACHE.update({key: value})
    CACHE.setdefault(key, [])
    CACHE.pop(key, None)
    SEEN.add(key)
    RECENT.appendleft(key)
    NAMES.update({key: value})
    HANDLERS[key].append(value)


def objects(value):
    CONFIG.debug = True
    CONFIG.level = value
    settings.TIMEOUT = 5  # expect: ADK-W011
    settings.FLAGS["beta"] = True  # expect: ADK-W011


class Workflow:
    runs = 0
    names: list[str] = []

    def __init__(self):
        self.local_runs = 0

    def start(self, name):
        type(self).runs += 1
        Workflow.runs = 7
        self.__class__.names = [name]
        Workflow.names.append(name)
        self.local_runs += 1

    @classmethod
    def reset(cls):
        cls.runs = 0


def flag_once():
    global counter
    if not counter:
        counter = 1  # expect: ADK-W011

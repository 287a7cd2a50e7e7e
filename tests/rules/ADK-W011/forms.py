"""Every way a run writes state that outlives it (globals, module containers, class attributes),
read back by the workflow path (decide): write_only.py has the same writes, never read back."""
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
    counter += 1  # expect: ADK-W011:4
    counter = len(name)  # expect: ADK-W011


def containers(key, value):
    CACHE[key] = value  # expect: ADK-W011
    CACHE[key]["hits"] += 1  # expect: ADK-W011
    del CACHE[key]  # expect: ADK-W011
    REGISTRY.append(value)  # expect: ADK-W011
    REGISTRY.extend([value])  # expect: ADK-W011
    CACHE.update({key: value})  # expect: ADK-W011
    CACHE.setdefault(key, [])  # expect: ADK-W011
    CACHE.pop(key, None)  # expect: ADK-W011
    SEEN.add(key)  # expect: ADK-W011
    RECENT.appendleft(key)  # expect: ADK-W011
    NAMES.update({key: value})  # expect: ADK-W011
    HANDLERS[key].append(value)  # expect: ADK-W011


def objects(value):
    CONFIG.debug = True  # expect: ADK-W011
    CONFIG.level = value  # expect: ADK-W011
    settings.TIMEOUT = 5  # expect: ADK-W011
    settings.FLAGS["beta"] = True  # expect: ADK-W011


class Workflow:
    runs = 0
    names: list[str] = []

    def __init__(self):
        self.local_runs = 0

    def start(self, name):
        type(self).runs += 1  # expect: ADK-W011
        Workflow.runs = 7  # expect: ADK-W011
        self.__class__.names = [name]  # expect: ADK-W011
        Workflow.names.append(name)  # expect: ADK-W011
        self.local_runs += 1

    @classmethod
    def reset(cls):
        cls.runs = 0  # expect: ADK-W011


def flag_once():
    global counter
    if not counter:
        counter = 1  # expect: ADK-W011


def decide():
    """Reads every piece of state back into a decision: so each write above is reported."""
    if counter or CACHE or REGISTRY or SEEN or RECENT or NAMES or HANDLERS or CONFIG.debug:
        return Workflow.runs, Workflow.names
    return None

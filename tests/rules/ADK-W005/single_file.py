import random
import time

__adk_workflow__ = True


def now_ms():
    return int(time.time() * 1000)  # expect: ADK-W003


def stamp(event):
    event["at"] = now_ms()  # expect: ADK-W005
    return event


def decorate(events):
    return [stamp(e) for e in events]  # expect: ADK-W005


def even(n):
    if n == 0:
        return random.random()  # expect: ADK-W002
    return odd(n - 1)  # expect: ADK-W005


def odd(n):
    return even(n - 1)  # expect: ADK-W005


def countdown(n):
    return countdown(n - 1) if n else 0


def jittered(n):
    if n == 0:
        return random.random()  # expect: ADK-W002
    return jittered(n - 1) + 1  # a call of itself: its root is reported where it is


class Pipeline:
    def _sample(self):
        return random.choice([1, 2])  # expect: ADK-W002

    def step(self):
        return self._sample()  # expect: ADK-W005

    @classmethod
    def build(cls):
        return cls().step()  # expect: ADK-W005

    @staticmethod
    def static():
        return Pipeline.build()  # expect: ADK-W005


def outer():
    def inner():
        return time.monotonic()  # expect: ADK-W003

    return inner()  # expect: ADK-W005


roll = lambda: random.randint(1, 6)  # expect: ADK-W002


def use_lambda():
    return roll()  # expect: ADK-W005


def safe_chain():
    return countdown(3)

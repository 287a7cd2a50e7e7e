import random
import time
from datetime import datetime

__adk_workflow__ = True

t = time
now = time.time
clock, rng = time, random


class Timer:
    read = time.monotonic

    def elapsed(self):
        return self.read()  # expect: ADK-W003

    @classmethod
    def stamp(cls):
        return cls.read()  # expect: ADK-W003


def run(sleep=time.sleep):
    t.sleep(1)  # expect: ADK-W003
    now()  # expect: ADK-W003
    clock.time()  # expect: ADK-W003
    sleep(2)  # expect: ADK-W003
    if (c := datetime).now():  # expect: ADK-W003
        pass
    Timer.read()  # expect: ADK-W003
    alias = now
    return alias()  # expect: ADK-W003

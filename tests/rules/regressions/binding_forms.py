import importlib
import random
import time
from typing import TYPE_CHECKING as TC

from langchain_core.prompts import ChatPromptTemplate
from langchain_openai import ChatOpenAI

__adk_workflow__ = True

if TC:
    LOADED = time.time()


class Base:
    def stamp(self):
        return time.time()  # expect: ADK-W003


class Child(Base):
    jitter = staticmethod(lambda: random.random())  # expect: ADK-W002

    def stamp(self):
        return super().stamp()  # expect: ADK-W005

    def noisy(self):
        return self.jitter()  # expect: ADK-W005

    @property
    def now(self):
        return time.monotonic()  # expect: ADK-W003

    def read(self):
        return self.now  # expect: ADK-W005


class Dice(random.Random):
    pass


def run(url, x):
    stamps = [f() for f in (time.time, time.monotonic)]  # expect: ADK-W003
    opener = __import__("urllib.request", fromlist=["urlopen"]).urlopen(url)  # expect: ADK-W004
    again = importlib.import_module(".request", "urllib").urlopen(url)  # expect: ADK-W004
    dice = Dice()  # expect: ADK-W002
    seeded = Dice(7)
    chain = ChatPromptTemplate.from_template("{x}") | ChatOpenAI()
    answer = chain.invoke({"x": x})  # expect: ADK-W001
    return stamps, opener, again, dice, seeded, answer


CLOCKS = {"wall": time.time, "cpu": time.process_time}


def from_a_table(kind):
    a = CLOCKS["wall"]()  # expect: ADK-W003
    b = CLOCKS.get("cpu")()  # expect: ADK-W003
    c = CLOCKS[kind]
    return a, b, c

import importlib
import os
import sys

__adk_workflow__ = True

NAME = "environ"


def computed():
    a = getattr(os, "environ")["A"]  # expect: ADK-W007
    b = getattr(os, "get" + "env")("B")  # expect: ADK-W007
    c = getattr(os, NAME).get("C")  # expect: ADK-W007
    d = vars(os)["environ"]["D"]  # expect: ADK-W007
    e = os.__dict__["getpid"]()  # expect: ADK-W007
    f = "F" in getattr(os, "environ")  # expect: ADK-W007
    return a, b, c, d, e, f


def through_globals():
    a = sys.modules["os"].environ["A"]  # expect: ADK-W007
    b = importlib.import_module("os").getenv("B")  # expect: ADK-W007
    c = __import__("sys").argv[1]  # expect: ADK-W007
    d = globals()["os"].environ.get("D")  # expect: ADK-W007
    return a, b, c, d

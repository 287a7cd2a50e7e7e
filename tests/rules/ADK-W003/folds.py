import builtins
import importlib
import sys
import time

__adk_workflow__ = True

NAME = "time"


def computed():
    a = getattr(time, "time")()  # expect: ADK-W003
    b = getattr(time, "ti" + "me")()  # expect: ADK-W003
    c = getattr(time, f"{NAME}")()  # expect: ADK-W003
    d = getattr(time, "".join(["sl", "eep"]))(1)  # expect: ADK-W003
    e = vars(time)["time"]()  # expect: ADK-W003
    f = time.__dict__["monotonic"]()  # expect: ADK-W003
    g = getattr(time, "EMIT"[::-1].lower().replace("e", "e"))()  # expect: ADK-W003
    return a, b, c, d, e, f, g


def through_globals():
    a = globals()["time"].time()  # expect: ADK-W003
    b = sys.modules["time"].time()  # expect: ADK-W003
    c = __import__("time").time()  # expect: ADK-W003
    d = importlib.import_module("time").sleep(2)  # expect: ADK-W003
    e = builtins.__import__("time").time()  # expect: ADK-W003
    f = sys.modules.get("time").time()  # expect: ADK-W003
    g = globals().get("time").time()  # expect: ADK-W003
    h = getattr(importlib.import_module("datetime"), "datetime").now()  # expect: ADK-W003
    return a, b, c, d, e, f, g, h

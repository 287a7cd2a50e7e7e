import builtins
import importlib
import os

__adk_workflow__ = True


def computed(name):
    a = getattr(os, "list" + "dir")(".")  # expect: ADK-W008
    b = vars(os)["remove"](name)  # expect: ADK-W008
    c = builtins.open(name)  # expect: ADK-W008
    d = getattr(builtins, "open")(name)  # expect: ADK-W008
    e = importlib.import_module("shutil").copy(name, "b")  # expect: ADK-W008
    f = getattr(os.path, "exists")(name)  # expect: ADK-W008
    return a, b, c, d, e, f

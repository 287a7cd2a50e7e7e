import importlib
import os
import threading

__adk_workflow__ = True


class Worker(threading.Thread):
    def run(self):
        return None


def computed():
    a = getattr(threading, "Thread")(target=print)  # expect: ADK-W009
    b = getattr(os, "sys" + "tem")("true")  # expect: ADK-W009
    c = importlib.import_module("subprocess").run(["true"])  # expect: ADK-W009
    d = vars(threading)["Timer"](1, print)  # expect: ADK-W009
    e = Worker()  # expect: ADK-W009
    return a, b, c, d, e

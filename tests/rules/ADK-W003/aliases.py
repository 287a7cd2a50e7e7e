import time as t
from datetime import datetime as DT
from time import monotonic, sleep as nap

__adk_workflow__ = True


def step():
    a = t.time()  # expect: ADK-W003:8
    b = DT.now()  # expect: ADK-W003
    c = monotonic()  # expect: ADK-W003
    nap(0.5)  # expect: ADK-W003
    return a, b, c

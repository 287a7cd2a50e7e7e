"""Bound to a name, an environment object is read where the name is used, once per use."""
import os
import sys

__adk_workflow__ = True

ENV = os.environ
read_var = os.getenv


class Settings:
    source = os.environ

    def region(self):
        return self.source["REGION"]  # expect: ADK-W007


def run(getter=os.getenv):
    env = os.environ
    a = env["A"]  # expect: ADK-W007
    b = ENV.get("B")  # expect: ADK-W007
    c = read_var("C")  # expect: ADK-W007
    d = getter("D")  # expect: ADK-W007
    args = sys.argv
    e = args[1:]  # expect: ADK-W007
    if (snapshot := os.environ):  # expect: ADK-W007
        pass
    get = os.environ.get
    f = get("F")  # expect: ADK-W007
    return a, b, c, d, e, f

import os as operating
import platform as pf
import sys as system
from os import environ as env, getenv as read_var
from socket import gethostname as hostname
from sys import argv

__adk_workflow__ = True


def configure():
    a = operating.environ["A"]  # expect: ADK-W007
    b = env.get("B")  # expect: ADK-W007
    c = read_var("C")  # expect: ADK-W007
    d = argv[0]  # expect: ADK-W007
    e = system.argv[0]  # expect: ADK-W007
    f = hostname()  # expect: ADK-W007
    g = pf.node()  # expect: ADK-W007
    h = operating.getpid()  # expect: ADK-W007
    return a, b, c, d, e, f, g, h

import os as operating
import os.path as osp
import shutil as sh
from glob import glob as find
from io import open as io_open
from os import listdir as ls
from os.path import exists
from pathlib import Path as P

__adk_workflow__ = True


def run(name):
    a = io_open(name)  # expect: ADK-W008
    b = ls(".")  # expect: ADK-W008
    c = exists(name)  # expect: ADK-W008
    d = P(name).read_text()  # expect: ADK-W008
    e = find("*.txt")  # expect: ADK-W008
    f = operating.listdir(".")  # expect: ADK-W008
    g = osp.isfile(name)  # expect: ADK-W008
    sh.move(name, "done")  # expect: ADK-W008
    return a, b, c, d, e, f, g

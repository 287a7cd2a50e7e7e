"""The same file access in a module without the marker: nothing is reported."""
import os
from pathlib import Path

__adk_workflow__ = False


def run():
    with open("x") as handle:
        return handle.read(), Path("y").read_text(), os.listdir(".")

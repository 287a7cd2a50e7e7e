"""The same reads in a module without the marker: nothing is reported."""
import os
import sys

__adk_workflow__ = False


def run():
    return os.environ["HOME"], os.getenv("X"), sys.argv, os.getpid()

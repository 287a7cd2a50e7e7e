"""The same calls in a module without the marker: nothing is reported."""
import time
from datetime import datetime

__adk_workflow__ = False


def run():
    time.sleep(1)
    return datetime.now(), time.time()

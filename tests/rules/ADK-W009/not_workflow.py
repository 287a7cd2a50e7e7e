"""The same starts in a module without the marker: nothing is reported."""
import subprocess
import threading

__adk_workflow__ = False


def run():
    threading.Thread(target=print).start()
    return subprocess.run(["ls"])

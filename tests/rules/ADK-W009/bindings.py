import subprocess
import threading
from concurrent.futures import ThreadPoolExecutor

__adk_workflow__ = True

spawn = threading.Thread
pool_class = ThreadPoolExecutor


class Runner:
    launcher = subprocess.run

    def go(self):
        return self.launcher(["true"])  # expect: ADK-W009


def run(starter=subprocess.Popen):
    a = spawn(target=print)  # expect: ADK-W009
    b = pool_class()  # expect: ADK-W009
    c = starter(["true"])  # expect: ADK-W009
    alias = subprocess.check_call
    d = alias(["true"])  # expect: ADK-W009
    return a, b, c, d

import os
from pathlib import Path

__adk_workflow__ = True

reader = open
exists = os.path.exists


class Store:
    root = Path("/data")

    def __init__(self, base: Path):
        self.base = base

    def load(self, name):
        return (self.base / name).read_bytes()  # expect: ADK-W008

    def listing(self):
        return list(self.root.iterdir())  # expect: ADK-W008


def run(name, opener=open):
    a = reader(name)  # expect: ADK-W008
    b = exists(name)  # expect: ADK-W008
    c = opener(name)  # expect: ADK-W008
    path = Path(name)
    d = path.read_text()  # expect: ADK-W008
    remove = os.remove
    remove(name)  # expect: ADK-W008
    files = list(map(open, [name]))  # expect: ADK-W008
    return a, b, c, d, files

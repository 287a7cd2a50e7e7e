"""Traps: shadowing, a user's own environ, pure os.path arithmetic, text that mentions the APIs."""
import os
import sys

__adk_workflow__ = True


class Config:
    def __init__(self, values):
        self.environ = values

    def getenv(self, name):
        return self.environ.get(name)


def run(config: Config, environ, settings):
    # os.environ["HOME"] in a comment is not a read
    note = "read os.environ and sys.argv here"
    a = config.environ["HOME"]
    b = config.getenv("HOME")
    c = environ["HOME"]
    d = settings.argv
    e = os.path.join("a", "b")
    f = os.path.basename("a/b.txt")
    g = os.sep
    h = sys.version_info >= (3, 10)
    i = sys.maxsize
    return note, a, b, c, d, e, f, g, h, i


def shadowed():
    os = Config({"HOME": "/"})
    return os.environ["HOME"], os.getenv("HOME")


def local_import():
    from mylib import environ

    return environ["HOME"]

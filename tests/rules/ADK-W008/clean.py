"""Traps: pure path arithmetic, a user's own open(), file-like objects in memory, text."""
import io
import os
from pathlib import Path, PurePosixPath

__adk_workflow__ = True


class Archive:
    def open(self, name):
        return name

    def exists(self):
        return True


def run(archive: Archive, files, name: str):
    # open("x") in a comment is not a call
    note = "call open() and Path.read_text() here"
    a = Path("a") / "b"
    b = Path(name).name
    c = Path(name).suffix
    d = Path(name).with_suffix(".json").stem
    e = os.path.join("a", name)
    f = os.path.basename(name)
    g = os.path.splitext(name)[0]
    h = PurePosixPath(name).parts
    i = archive.open(name)
    j = archive.exists()
    k = files.open(name)
    buffer = io.StringIO("text")
    m = buffer.read()
    n = io.BytesIO(b"x").getvalue()
    o = os.path.normpath(name)
    return note, a, b, c, d, e, f, g, h, i, j, k, m, n, o


def shadowed(name):
    open = Archive().open
    return open(name)


def local_import(name):
    from mylib import open

    return open(name)

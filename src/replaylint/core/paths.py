"""How paths are shown: relative to the working directory, with `/`, one printable line."""

from __future__ import annotations

import os

# What marks a repository's root: the folders nothing is looked for above.
REPOSITORY_MARKERS = (".git", ".hg")
# What marks a project's folder short of a repository: its build settings.
PROJECT_FILES = ("pyproject.toml", "setup.py", "setup.cfg")


def project_folder(folder: str) -> str | None:
    """The repository root holding `folder`, else the outermost folder with a pyproject.toml,
    setup.py or setup.cfg above it; None when `folder` belongs to no project at all. In `os`
    terms only: a warm re-run answered from its memo (index/rerun.py) looks for its cache
    before anything as heavy as pathlib is imported."""
    current, found = folder, None
    while True:
        if any(os.path.exists(os.path.join(current, m)) for m in REPOSITORY_MARKERS):
            return current
        if any(os.path.isfile(os.path.join(current, m)) for m in PROJECT_FILES):
            found = current
        parent = os.path.dirname(current)
        if parent == current:
            return found
        current = parent


def application_folder(folder: str) -> str | None:
    """The nearest folder holding `folder` with a pyproject.toml, setup.py or setup.cfg, up
    to its repository root (one application of a repository of several, each with its own
    project file); else project_folder's answer."""
    current = folder
    while True:
        if any(os.path.isfile(os.path.join(current, m)) for m in PROJECT_FILES):
            return current
        parent = os.path.dirname(current)
        at_root = any(os.path.exists(os.path.join(current, m)) for m in REPOSITORY_MARKERS)
        if at_root or parent == current:
            return project_folder(folder)
        current = parent


def printable(path: str) -> str:
    """`path` as one printable line that any stream can encode.

    On POSIX a name that is not valid UTF-8 arrives with each bad byte as a lone surrogate
    (`b"bad\\xff.py"` is `"bad\\udcff.py"`); writing that to a UTF-8 stdout raises. Such bytes
    are shown as `\\xff`, and control characters (a newline in a name would split a one-line
    error) as `\\n`, `\\x1b`, ... Printable names come back unchanged, and cheaply.
    """
    if path.isprintable():
        return path
    try:
        text = path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # a surrogate no byte produced (Windows names, API callers)
        text = path.encode("utf-8", "backslashreplace").decode("utf-8")
    return "".join(
        c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text
    )


def display_path(path: str | os.PathLike[str]) -> str:
    """Paths in reports: relative to the working directory, with `/`."""
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        relative = os.fspath(path)
    return printable(relative.replace(os.sep, "/"))

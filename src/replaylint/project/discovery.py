"""Expands command-line paths into the Python files to check; never parses, never raises."""

from __future__ import annotations

import errno
import fnmatch
import logging
import os
import stat
from collections.abc import Iterable

from replaylint.core.paths import display_path, printable
from replaylint.project.gitignore import IgnoreStack, parse
from replaylint.project.prefilter import kind_of, read_regular

log = logging.getLogger("replaylint")

# Directories never worth walking into: VCS data, caches, build output, dependencies.
DEFAULT_EXCLUDES = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".tox",
        ".nox",
        ".venv",
        "venv",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        "__pycache__",
        "build",
        "dist",
        "node_modules",
        "site-packages",
        ".eggs",
    }
)


def _reason(error: OSError) -> str:
    return error.strerror or str(error)


def _missing(raw: str, error: OSError | ValueError) -> str:
    """Why a path named on the command line cannot be checked at all."""
    if isinstance(error, ValueError):  # an embedded NUL, from an API caller
        return "invalid path"
    if error.errno == errno.ENOENT:
        return "dangling symbolic link" if os.path.islink(raw) else "no such file or directory"
    if error.errno == errno.ELOOP:
        return "symbolic link loop"
    return _reason(error)


def python_files(
    paths: Iterable[str],
    exclude: tuple[str, ...] = (),
    default_excludes: bool = True,
    respect_gitignore: bool = True,
    base: str | None = None,
) -> tuple[list[str], list[str]]:
    """(files to check, one line per path that could not be looked at), in a stable order.

    A file named explicitly is always checked; exclusions (globs relative to `base`, the
    configuration's folder, or to the walked folder) and .gitignore apply to what a walk finds.
    Nothing raises: an unreadable directory or a path that is not a regular file becomes an
    error naming it, while what a walk finds that is not a file (FIFOs, sockets, devices, broken
    or looping links) is skipped with a reason at debug level. Names in errors are `printable`;
    the returned files keep their real names, so they can be opened.
    Plain strings and os.scandir keep this cheap: on a tree of thousands of ordinary files the
    walk and the byte scan are the whole cost of a run.
    """
    paths = list(paths)
    names = DEFAULT_EXCLUDES if default_excludes else frozenset()
    patterns = tuple(exclude)
    files: list[str] = []
    errors: list[str] = []
    for raw in paths:
        try:
            mode = os.stat(raw).st_mode
        except (OSError, ValueError) as error:
            errors.append(f"{printable(raw)}: {_missing(raw, error)}")
            continue
        if stat.S_ISDIR(mode):
            walk = _Walk(base or raw, names, patterns)
            walk.run(raw, _stack_for(raw) if respect_gitignore else None)
            files.extend(sorted(walk.files))
            errors.extend(sorted(walk.errors))
        elif stat.S_ISREG(mode):
            files.append(raw)
        else:
            # Never opened: a FIFO without a writer would block the run forever.
            errors.append(f"{printable(raw)}: not a regular file ({kind_of(mode)})")
    if len(paths) <= 1:
        return files, errors
    seen: set[str] = set()
    unique = []
    for file in files:
        key = os.path.realpath(file)
        if key not in seen:
            seen.add(key)
            unique.append(file)
    return unique, errors


class _Walk:
    """One directory walk: depth first with an explicit stack, so a deep tree is no
    RecursionError. Directory symlinks are not followed, so they cannot form a loop; a bind
    mount can, and is walked once, recognised by its (device, inode)."""

    def __init__(self, root: str, names: frozenset[str], patterns: tuple[str, ...]) -> None:
        self.root = root  # what exclude globs are relative to
        self.names = names
        self.patterns = patterns
        self.files: list[str] = []
        self.errors: list[str] = []
        self.walked: set[tuple[int, int]] = set()
        self.pending: list[tuple[str, IgnoreStack | None]] = []

    def run(self, top: str, ignores: IgnoreStack | None) -> None:
        _first_visit(top, self.walked)
        self.pending.append((top, ignores))
        while self.pending:
            directory, ignores = self.pending.pop()
            try:
                with os.scandir(directory) as entries:
                    # The listing itself can fail part-way (EIO, a directory removed meanwhile).
                    for entry in entries:
                        self.visit(entry, ignores)
            except OSError as error:
                self.errors.append(
                    f"{display_path(directory)}: cannot read directory: {_reason(error)}"
                )

    def visit(self, entry: os.DirEntry[str], ignores: IgnoreStack | None) -> None:
        name = entry.name
        if name in self.names:
            return
        if self.patterns and _matches(self.root, entry.path, name, self.patterns):
            return
        try:
            is_dir = entry.is_dir(follow_symlinks=False)
            is_link = not is_dir and entry.is_symlink()
        except OSError as error:  # the type needed an lstat, and it failed
            if name.endswith(".py"):
                self.errors.append(f"{display_path(entry.path)}: cannot read: {_reason(error)}")
            else:
                log.debug("%s: skipped: %s", display_path(entry.path), _reason(error))
            return
        if ignores is not None and ignores.layers and ignores.ignored(entry.path, is_dir):
            return
        if is_dir:
            if os.path.exists(os.path.join(entry.path, "pyvenv.cfg")):
                return  # a virtual environment
            if not _first_visit(entry.path, self.walked):
                log.debug(
                    "%s: skipped: a directory already walked (a bind mount)",
                    display_path(entry.path),
                )
                return
            inner = _entering(ignores, entry.path) if ignores is not None else None
            self.pending.append((entry.path, inner))
        elif name.endswith(".py"):
            self.python_entry(entry)
        elif is_link and log.isEnabledFor(logging.DEBUG) and _is_dir(entry):
            log.debug(
                "%s: skipped: a symbolic link to a directory (not followed)",
                display_path(entry.path),
            )

    def python_entry(self, entry: os.DirEntry[str]) -> None:
        """A walked `*.py`: kept when it is (a link to) a regular file, else skipped with a
        reason, or an error when it may be a Python file that cannot be read."""
        try:
            if entry.is_file():  # from the directory listing, or one stat through a link
                self.files.append(entry.path)
                return
            mode = entry.stat().st_mode
        except OSError as error:
            if error.errno == errno.ENOENT:
                reason = "a dangling symbolic link"
            elif error.errno == errno.ELOOP:
                reason = "a symbolic link loop"
            else:  # EACCES on the way to the link's target, say
                self.errors.append(f"{display_path(entry.path)}: cannot read: {_reason(error)}")
                return
            log.debug("%s: skipped: %s", display_path(entry.path), reason)
            return
        if stat.S_ISDIR(mode):
            reason = "a symbolic link to a directory (not followed)"
        else:
            reason = f"not a regular file ({kind_of(mode)})"
        log.debug("%s: skipped: %s", display_path(entry.path), reason)


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def _entering(ignores: IgnoreStack, directory: str, spelled: str | None = None) -> IgnoreStack:
    """`ignores` plus the .gitignore of `directory`, if it has one that can be read, its patterns
    keyed by `spelled` (default: `directory`), the spelling of the paths they will be asked of."""
    path = os.path.join(directory, ".gitignore")
    try:
        data = read_regular(path)
    except OSError as error:
        if error.errno not in (errno.ENOENT, errno.ENOTDIR):
            # As git does (it warns and walks on): more files are checked, none is lost.
            log.debug("%s: not read: %s", display_path(path), _reason(error))
        return ignores
    # git reads bytes; a stray non-UTF-8 byte spoils at most the pattern it sits in.
    rules = parse(data.decode("utf-8", "replace"), display_path(path))
    return ignores.entering(spelled or directory, rules)


def _stack_for(directory: str) -> IgnoreStack:
    """The .gitignore files from the repository's top down to `directory` (none outside git)."""
    absolute = os.path.abspath(directory)
    chain = []
    current = absolute
    while True:
        chain.append(current)
        if os.path.exists(os.path.join(current, ".git")):
            break
        parent = os.path.dirname(current)
        if parent == current:
            return IgnoreStack()  # not inside a git repository
        current = parent
    stack = IgnoreStack()
    for folder in reversed(chain):
        # The walked folder's own file is keyed as the walk spells its paths (`./a/b.py` under
        # `.`), so its patterns are matched by prefix, not by relpath (two getcwd calls each);
        # it is read at its absolute path, which a link followed by `..` (`link/..`) resolves
        # otherwise than the kernel does.
        stack = _entering(stack, folder, directory if folder == absolute else None)
    return stack


def _first_visit(directory: str, walked: set[tuple[int, int]]) -> bool:
    try:
        info = os.stat(directory)  # the top may be a link to a directory; nothing below is
    except OSError:
        return True  # scandir will say what is wrong with it
    if not info.st_ino:  # a filesystem without inode numbers: no identity to compare
        return True
    key = (info.st_dev, info.st_ino)
    if key in walked:
        return False
    walked.add(key)
    return True


def _matches(root: str, path: str, name: str, patterns: tuple[str, ...]) -> bool:
    relative = os.path.relpath(path, root).replace(os.sep, "/")
    return any(
        fnmatch.fnmatch(name, p)
        or fnmatch.fnmatch(relative, p)
        or fnmatch.fnmatch(relative, p.rstrip("/") + "/*")
        for p in patterns
    )


def excluded(path: str, base: str, patterns: tuple[str, ...], names: frozenset[str]) -> bool:
    """Would a walk from `base` skip `path`: an excluded name or glob on it or a folder above it?"""
    absolute = os.path.abspath(path)
    relative = os.path.relpath(absolute, base)
    if relative.startswith(".."):
        return False
    parts = relative.split(os.sep)
    for depth in range(1, len(parts) + 1):
        name = parts[depth - 1]
        if name in names:
            return True
        if patterns and _matches(base, os.path.join(base, *parts[:depth]), name, patterns):
            return True
    return False

"""A warm re-run answered from the last identical one, before the checker is even imported.

The index (project_index.py) spares a re-run every parse, but the run still imports the command
line and the engine, lists the tree, resolves each folder's settings and hashes every candidate:
about twice the interpreter's own start. When a `check` with the same arguments, from the same
folder, with the same import path, to the same kind of terminal, finds every path its last run
read as it was (recording.py says which, and how it knows), its answer is that run's output:
printed again here, with the same exit status. A stamp that differs, a path that appeared or
went, or a stamp within a clock tick of the run (git's "racily clean" case), and the run is
made again, and remembered again.

Only the plain forms of `check` are answered: options that print, edit or watch anything else,
stdin, `--no-cache`, `--base`, `-v` and `--debug` are made as usual. The memo is marshal data
in the cache folder, like the bytecode Python keeps beside the sources; one that is damaged, or
of another shape, answers nothing.
"""

from __future__ import annotations

import marshal
import math
import os
import sys
import zlib

from replaylint.index.location import SCHEMA, project_cache
from replaylint.index.stamps import stamp_of, trusted

_FLAGS = frozenset(
    ("-q", "--quiet", "-s", "--silent", "--statistics", "--force-exclude", "-e", "--exit-zero")
)
_VALUED = frozenset(
    (
        "--output-format",
        "--format",
        "--select",
        "--extend-select",
        "--ignore",
        "--exclude",
        "--extend-exclude",
        "--config",
        "-j",
        "--jobs",
        "--cache-dir",
    )
)
# What the key holds of the environment: the cache's place and the report's colours.
_ENVIRONMENT = ("REPLAYLINT_CACHE_DIR", "FORCE_COLOR", "NO_COLOR")


def answerable(argv: list[str]) -> tuple[list[str], str | None] | None:
    """(the paths named, `--cache-dir`) of a `check` a memo may answer, else None."""
    if not argv or argv[0] != "check":
        return None
    paths: list[str] = []
    cache_dir = os.environ.get("REPLAYLINT_CACHE_DIR") or None
    tokens = iter(argv[1:])
    for token in tokens:
        if not token.startswith("-"):
            paths.append(token)
            continue
        name, equals, value = token.partition("=")
        if name in _FLAGS and not equals:
            continue
        if name in _VALUED:
            if not equals:
                following = next(tokens, None)
                if following is None:
                    return None
                value = following
            if name == "--cache-dir":
                cache_dir = value
            continue
        if token.startswith("-j") and token[2:].isdigit():
            continue
        return None  # `-`, `--fix`, `-v`, combined short flags, `--`: made as usual
    return paths, cache_dir


def memo_file(argv: list[str]) -> tuple[str, str] | None:
    """(the memo's path, its full key) for these arguments, or None when none may answer."""
    parsed = answerable(argv)
    if parsed is None:
        return None
    paths, cache_dir = parsed
    root = cache_dir or project_cache(paths[0] if paths else None)
    if root is None:
        return None
    from replaylint.version import __version__

    key = "\0".join(
        [
            f"{SCHEMA}|{__version__}|{sys.version}|{sys.executable}",
            os.path.dirname(os.path.abspath(__file__)),  # which replaylint answers
            os.getcwd(),
            os.pathsep.join(sys.path),  # where imports are found (PYTHONPATH, `follow`)
            *(os.environ.get(name, "") for name in _ENVIRONMENT),
            f"{_isatty(sys.stdout)}",
            *argv,
        ]
    )
    name = f"rerun-{zlib.crc32(key.encode('utf-8', 'surrogateescape')):08x}.marshal"
    return os.path.join(root, f"v{SCHEMA}", name), key


def answer(argv: list[str]) -> int | None:
    """Print the remembered output of this run and give its exit status; None when there is
    no memo for it, it is damaged, or anything it read has changed."""
    where = memo_file(argv)
    if where is None:
        return None
    path, key = where
    try:
        with open(path, "rb") as stream:
            memo = marshal.loads(stream.read())
        said, code, started = memo["said"], memo["code"], memo["started"]
        if memo["key"] != key or type(code) is not int or code not in (0, 1):
            return None
        if not isinstance(started, float) or not math.isfinite(started):
            return None
        if not _unchanged(memo["stamps"], started):
            return None
        streams = []
        for err, text in said:
            if type(err) is not bool or type(text) is not str:
                return None
            out = sys.stderr if err else sys.stdout
            text.encode(out.encoding or "utf-8")  # nothing is printed unless all of it can be
            streams.append((out, text))
    except (OSError, ValueError, EOFError, TypeError, KeyError, AttributeError, LookupError):
        return None
    for out, text in streams:
        out.write(text)
    return code


# What a memo keeps of a path: its stamp, None when it was missing, or PRESENT when only its
# presence was looked at (a `.git` folder above the project, whose stamp any git command moves).
Stamped = tuple[int, ...] | None
PRESENT: tuple[int, ...] = ()


def _unchanged(stamps: dict[str, Stamped], started: float) -> bool:
    for path, stored in stamps.items():
        try:
            status = os.stat(path)
        except OSError:
            if stored is not None:
                return False
            continue
        if stored == PRESENT:
            continue
        now = stamp_of(status)
        if now != stored or not trusted(now, started):
            return False  # changed, or changed within a clock tick of the run: not trusted
    return True


def _isatty(stream: object) -> bool:
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError):
        return False

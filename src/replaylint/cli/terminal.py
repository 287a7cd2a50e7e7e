"""What the terminal gets: whether the report is coloured and whether a progress bar is drawn.

Colour, in order (ruff's precedence): never into `--output-file`; on when `FORCE_COLOR` is set
to anything non-empty, even into a pipe; off when `NO_COLOR` is non-empty; otherwise on when
stdout is a terminal. The progress bar is drawn on stderr only when stderr is a terminal, the
run is not in CI (`CI` non-empty) and `-q` (or `--debug`, whose log lines share stderr) is not
given.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol


class Stream(Protocol):
    def isatty(self) -> bool: ...


def _isatty(stream: Stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # a closed or replaced stream
        return False


def color_wanted(stdout: Stream, environ: Mapping[str, str], *, to_file: bool = False) -> bool:
    if to_file:
        return False
    if environ.get("FORCE_COLOR"):
        return True
    if environ.get("NO_COLOR"):
        return False
    return _isatty(stdout)


def progress_wanted(stderr: Stream, environ: Mapping[str, str], *, quiet: bool = False) -> bool:
    return not quiet and not environ.get("CI") and _isatty(stderr)

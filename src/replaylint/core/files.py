"""Writing a file whole or not at all: a run stopped by a signal (or a full disk) half way
through a write leaves the old file, never half of the new one."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def replace_whole(path: str | os.PathLike[str], data: bytes) -> None:
    """Write `data` to a temporary file beside `path`, then rename it over `path` (the
    rename is atomic), keeping `path`'s permission bits; a link is followed, as a write would
    follow it, so the file it points to is the one replaced. Raises OSError as a write would."""
    target = Path(os.path.realpath(path))
    try:
        mode: int | None = target.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = None
    handle, temporary = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"
    )
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        if mode is not None:
            os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise

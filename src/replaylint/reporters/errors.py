"""Tool errors as the CI formats carry them: each of a report's error lines names the file it
is about first (`helpers.py: cannot check this imported module: ...`)."""

from __future__ import annotations

import hashlib
from typing import NamedTuple


class ToolError(NamedTuple):
    path: str  # the file or folder the error is about, as the report names it
    reason: str
    line: str  # the whole line, as stderr shows it

    @property
    def fingerprint(self) -> str:
        return hashlib.sha256(("error\0" + self.line).encode("utf-8", "replace")).hexdigest()


def tool_error(line: str) -> ToolError:
    path, separator, reason = line.partition(": ")
    if not separator or not path:
        return ToolError("", line, line)
    return ToolError(path, reason, line)

"""The result types of following installed packages: one call of a chain into installed code."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class InstalledStep:
    """One call on the way from an installed function down to an unsafe catalog root."""

    path: str  # absolute path of the installed .py file
    line: int  # 1-based line of the call
    call: str  # the call as written, e.g. "client.chat.completions.create" or "_post"

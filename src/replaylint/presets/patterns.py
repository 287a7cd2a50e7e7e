"""Patterns on resolved paths: a record's alternatives, matched against a whole path."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

_NEVER = re.compile(r"(?!)")


@dataclass(frozen=True)
class Patterns:
    """Alternatives matched against a whole resolved path; compiled on first use, and only for
    a path that begins as one of them must (compiling is most of what the first check of a
    process pays: a Temporal project never needs Azure's patterns compiled)."""

    sources: tuple[str, ...] = ()

    @cached_property
    def compiled(self) -> re.Pattern[str]:
        if not self.sources:
            return _NEVER
        return re.compile("|".join(f"(?:{p})" for p in self.sources))

    @cached_property
    def _starts(self) -> tuple[str, ...]:
        return tuple(literal_start(source) for source in self.sources)

    def matches(self, path: str) -> bool:
        return (
            bool(self.sources)
            and path.startswith(self._starts)
            and self.compiled.fullmatch(path) is not None
        )


_LITERAL_ESCAPES = frozenset(".()[]{}?*+|^$\\-")
_QUANTIFIERS = frozenset("?*+{")


def literal_start(source: str) -> str:
    """What every string `source` matches in full begins with: its characters up to the first
    that is not plain (a quantifier takes back the one before it); "" when a `|` outside any
    group or class makes the whole an alternation."""
    depth, in_class, escaped = 0, False, False
    for char in source:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "|" and depth == 0:
            return ""
    start: list[str] = []
    index = 0
    while index < len(source):
        char = source[index]
        if char == "\\" and index + 1 < len(source) and source[index + 1] in _LITERAL_ESCAPES:
            literal, width = source[index + 1], 2
        elif char.isalnum() or char == "_":
            literal, width = char, 1
        else:
            break
        following = source[index + width : index + width + 1]
        if following and following in _QUANTIFIERS:
            break  # `ab?`: only "a" is certain
        start.append(literal)
        index += width
    return "".join(start)

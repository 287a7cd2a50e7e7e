"""What catalog entries ask of a call's arguments, and when they make what it builds durable: an
agent or runner built with a durable integration (a keyword holding one of its classes, or
another durable object) is no model call; it is its framework's."""

from __future__ import annotations

from typing import Any

# (keyword, the classes one of whose instances it holds, the framework whose record declares
# the integration, "" for the catalog's own)
Durable = tuple[str, frozenset[str], str]
# What building a durable agent or app gives, followed by its framework's name: no client, and
# durable wherever it is handed on (`Runner(app=App(..., plugins=[RestatePlugin()]))`). Never
# a name a catalog entry has.
DURABLE = "<durable>"


def durable_when(table: dict[str, Any]) -> tuple[Durable, ...]:
    found = table.get("durable-when", [])
    items = found if isinstance(found, list) else [found]
    return tuple((item["keyword"], frozenset(item["holds"]), "") for item in items)


def built_durable(conditions: tuple[Durable, ...], args: CallArgs) -> str | None:
    """The path of what a call built with a durable integration gives (`<durable>dbos()`), or
    None: a keyword holds one of its classes, or another durable object (an app built with a
    durable plugin, handed to the runner)."""
    if not conditions:
        return None
    for keyword, classes, framework in conditions:
        if args.holds(keyword, classes):
            return f"{DURABLE}{framework}()"
    handed = args.durable_held()
    return handed + "()" if handed is not None else None


class CallArgs:
    """The facts about a call's arguments that catalog entries depend on."""

    __slots__ = ("count", "strings", "zero_first", "instances")

    def __init__(
        self,
        count: int,
        strings: dict[str, str],
        zero_first: bool = False,
        instances: dict[str, tuple[str, ...]] | None = None,
    ) -> None:
        self.count = count  # positional and keyword arguments, a literal None not counted
        self.strings = strings  # "0" for the first positional, else the keyword -> folded string
        self.zero_first = zero_first  # the first positional argument is a literal 0
        # keyword -> the classes of the instances it holds (itself, or in a list or tuple)
        self.instances = instances or {}

    def holds(self, keyword: str, classes: frozenset[str]) -> bool:
        """Does `keyword` hold an instance of a class whose name ends in one of `classes`?"""
        return any(path.rsplit(".", 1)[-1] in classes for path in self.instances.get(keyword, ()))

    def durable_held(self) -> str | None:
        """The durable object one of the arguments is or holds (`<durable>restate`), if any."""
        for held in self.instances.values():
            for path in held:
                if path.startswith(DURABLE):
                    return path
        return None

    def string_arg(self, keyword: str | None) -> str | None:
        if "0" in self.strings:
            return self.strings["0"]
        return self.strings.get(keyword) if keyword else None

"""Abstract values the evaluator gives to names and expressions: the ones that need no model of
the checked code (values that point into it live in resolve/model.py)."""

from __future__ import annotations

from typing import Any


class Value:
    __slots__ = ()


class Unknown(Value):
    """Anything the guard has no facts about: a parameter, a local object, a computed result."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN = Unknown()


class Ext(Value):
    """An object outside the checked code, named by its qualified path.

    `()` in a path marks an instance built by a call: `openai.OpenAI().chat.completions`.
    """

    __slots__ = ("path",)

    def __init__(self, path: str) -> None:
        self.path = path

    def __repr__(self) -> str:
        return f"Ext({self.path})"


class Const(Value):
    """A literal (a string most usefully, for computed access)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __repr__(self) -> str:
        return f"Const({self.value!r})"


class Seq(Value):
    """A tuple or list literal, kept element-wise so unpacking and joins can fold."""

    __slots__ = ("items",)

    def __init__(self, items: tuple[Value, ...]) -> None:
        self.items = items


class Mapping(Value):
    """A dict literal with constant keys, so `CLOCKS["wall"]()` folds to what it holds."""

    __slots__ = ("items",)

    def __init__(self, items: dict[object, Value]) -> None:
        self.items = items


class Namespace(Value):
    """A mapping of names to values reached dynamically: globals(), vars(m), m.__dict__."""

    __slots__ = ("target",)

    def __init__(self, target: Value | None) -> None:
        self.target = target  # None means the current module's globals


class ModuleTable(Value):
    """sys.modules: the table of imported modules, indexed by module name."""

    __slots__ = ()


MODULE_TABLE = ModuleTable()

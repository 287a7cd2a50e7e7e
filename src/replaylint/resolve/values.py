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


class Table(Value):
    """A dict a comprehension builds from a literal sequence (`{t.name: t for t in TOOLS}`):
    what it holds is known, under which key is not."""

    __slots__ = ("items",)

    def __init__(self, items: tuple[Value, ...]) -> None:
        self.items = items


class OneOf(Value):
    """One of several functions, which one decided only at run time: a dispatch table's entry
    picked by a key the guard cannot fold (`HANDLERS[name]`). A call of it is a call of each."""

    __slots__ = ("items",)

    def __init__(self, items: tuple[Value, ...]) -> None:
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


class Elements(Value):
    """An iterable known only by its annotation (`ids: list[int]`, `Sequence[float]`), whose
    elements hash by value: a set built from it is ordered by value."""

    __slots__ = ()


class SetOf(Value):
    """A set or frozenset, or a dict's keys view (`view`), with what is known of its elements.

    `by_value` when every element hashes by its value (ints, floats, bools, None and tuples of
    them): the iteration order is then the same in every process. Otherwise strings, bytes or
    objects may be in it, whose hashes are seeded per process or come from memory addresses.
    A keys view iterates in insertion order; set algebra on it builds a real set. `declared`
    when an annotation says so (`self.ids: set[int] = set()`): what is stored later without
    saying more (`self.ids = given or set()`) does not replace it.
    """

    __slots__ = ("by_value", "view", "declared")

    def __init__(self, by_value: bool, view: bool = False, declared: bool = False) -> None:
        self.by_value = by_value
        self.view = view
        self.declared = declared

    @property
    def hash_ordered(self) -> bool:
        """Is its iteration order decided by hashes that differ between processes?"""
        return not self.view and not self.by_value

    def __repr__(self) -> str:
        kind = "KeysView" if self.view else "SetOf"
        return f"{kind}({'by value' if self.by_value else 'by hash'})"


_BY_VALUE = (int, float, bool, type(None))  # str and bytes hash with a per-process seed


_ENTRY_WITH_DEFAULT = frozenset({"get", "setdefault", "pop"})


def entry_of_sets(method: str, args: list[Value] | tuple[Value, ...]) -> Value:
    """`deps.get(k, set())` (or `setdefault`, `pop`): an entry of a dict of sets, a set whose
    elements the guard cannot see; UNKNOWN for any other default."""
    if method in _ENTRY_WITH_DEFAULT and len(args) == 2 and isinstance(args[1], SetOf):
        return SetOf(False)
    return UNKNOWN


def hashes_by_value(value: Value) -> bool:
    """Is `hash(value)` the same in every process? True only for what the guard knows."""
    if isinstance(value, Const):
        return _python_hashes_by_value(value.value)
    if isinstance(value, Seq):
        return all(hashes_by_value(item) for item in value.items)
    return False


def _python_hashes_by_value(value: object) -> bool:
    if isinstance(value, tuple):
        return all(_python_hashes_by_value(item) for item in value)
    return isinstance(value, _BY_VALUE)


def elements_hash_by_value(iterable: Value) -> bool:
    """Do all the elements iterating `iterable` yields hash by value (`[1, 2]`, `{1: "a"}`)?
    An empty literal says nothing: what is added to it later is not known."""
    if isinstance(iterable, Seq):
        items = iterable.items
        return bool(items) and all(hashes_by_value(item) for item in items)
    if isinstance(iterable, SetOf):
        return iterable.by_value
    if isinstance(iterable, Elements):
        return True
    if isinstance(iterable, Mapping):
        keys = iterable.items
        return bool(keys) and all(_python_hashes_by_value(key) for key in keys)
    return False

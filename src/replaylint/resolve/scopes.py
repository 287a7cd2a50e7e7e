"""The namespaces of one walk: module, class, function and comprehension scopes."""

from __future__ import annotations

from replaylint.resolve.values import Value


class Scope:
    """A namespace in the walk; class scopes are skipped when functions look names up."""

    __slots__ = ("names", "parent", "is_class", "globals_", "nonlocals", "module_aliases")

    def __init__(self, parent: Scope | None, is_class: bool = False) -> None:
        self.names: dict[str, Value] = {}
        self.parent = parent
        self.is_class = is_class
        self.globals_: set[str] = set()
        self.nonlocals: set[str] = set()
        # Local names bound to module state (`log = HISTORY`): a write through them is one.
        self.module_aliases: set[str] = set()

    def enclosing_owner(self, name: str) -> Scope | None:
        """The enclosing function scope that a `nonlocal name` refers to."""
        scope = self.parent
        while scope is not None and scope.parent is not None:
            if not scope.is_class and name in scope.names:
                return scope
            scope = scope.parent
        return None

    def owner(self, name: str) -> Scope | None:
        """The scope a read of name resolves in (class scopes skipped past the first), if any."""
        scope: Scope | None = self
        first = True
        while scope is not None:
            if (first or not scope.is_class) and name in scope.names:
                return scope
            first = False
            scope = scope.parent
        return None

    def lookup(self, name: str) -> Value | None:
        scope: Scope | None = self
        first = True
        while scope is not None:
            if (first or not scope.is_class) and name in scope.names:
                return scope.names[name]
            first = False
            scope = scope.parent
        return None

    def module_scope(self) -> Scope:
        scope = self
        while scope.parent is not None:
            scope = scope.parent
        return scope

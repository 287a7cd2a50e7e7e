"""Loads rules/catalog.toml: qualified name -> category and reason, with argument-sensitive entries.

A category names what an API does (`clock`, `randomness`, `network`, `model-call`); which code a
finding gets is the business of the rule that subscribes to the category (rules/catalog_rule.py)."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from replaylint.core.docs import rules_dir
from replaylint.presets.records import Integration, presets
from replaylint.resolve.call_args import CallArgs, Durable, built_durable, durable_when

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib


@dataclass(frozen=True)
class Entry:
    """Why one qualified name is unsafe."""

    category: str
    reason: str
    unless_args: int = 0  # deterministic when called with at least this many arguments
    unless_zero: bool = False  # deterministic when its first argument is a literal 0


@dataclass(frozen=True)
class ClientGroup:
    entry: Entry
    methods: frozenset[str]
    any_method: bool
    returns: dict[str, str] = field(default_factory=dict)
    returns_self: frozenset[str] = frozenset()
    # Attributes that hold another instance of the same class: `path.parent` is a Path too.
    self_attributes: frozenset[str] = frozenset()
    # A client built with a keyword holding an instance of one of the classes (the last part of
    # their names) is recorded by its framework: `Agent(m, capabilities=[TemporalDurability()])`.
    durable: tuple[Durable, ...] = ()


@dataclass(frozen=True)
class Factory:
    argument: str | None
    kinds: dict[str, str]
    default: str
    # As for a client: what it builds with such a keyword is recorded by a durable integration
    # (`create_agent(m, middleware=[RestateMiddleware()])`).
    durable: tuple[Durable, ...] = ()


# Names under a restricted module that are exceptions or constants, not operations.
_NOT_OPERATIONS = ("Error", "Exception", "Warning")


class Catalog:
    def __init__(self, data: dict[str, Any]) -> None:
        self.calls: dict[str, Entry] = {}
        self.modules: dict[str, Entry] = {}
        # Objects whose very reading is the finding (`os.environ`, `sys.argv`); calling any of
        # their members is too (`os.environ.get`).
        self.reads: dict[str, Entry] = {}
        self.module_exceptions: set[str] = set()
        self.clients: dict[str, ClientGroup] = {}
        self.factories: dict[str, Factory] = {}
        self._short_class: dict[tuple[str, str], str] = {}
        # A class its package re-exports one level up: google.adk.Runner is the catalog's
        # google.adk.runners.Runner (`from google.adk import Runner`).
        self._reexported: dict[str, str] = {}
        self.recorders: set[str] = set()
        self.recorded_activities: set[str] = set()
        self.safe: set[str] = set()
        # Names the project declares unsafe: its own modules' too, which the walk would read.
        self.declared: frozenset[str] = frozenset()
        self.logger_prefixes = tuple(data.get("loggers", {}).get("prefixes", []))
        for table in data.get("call", []):
            entry = Entry(
                table["category"],
                table["reason"],
                int(table.get("unless-args", 0)),
                bool(table.get("unless-zero", False)),
            )
            for name in table["names"]:
                self.calls[name] = entry
        for table in data.get("module", []):
            entry = Entry(table["category"], table["reason"])
            for name in table["names"]:
                self.modules[name] = entry
            self.module_exceptions.update(table.get("except", []))
        for table in data.get("read", []):
            entry = Entry(table["category"], table["reason"])
            for name in table["names"]:
                self.reads[name] = entry
        self._load_clients(data.get("client", []))
        for table in data.get("factory", []):
            self.factories[table["name"]] = Factory(
                table.get("argument"),
                dict(table.get("kinds", {})),
                table["default"],
                durable_when(table),
            )
        self.recorders.update(data.get("recorders", {}).get("names", []))
        wrappers = data.get("wrappers", {})
        self.wrapping_decorators = frozenset(wrappers.get("decorators", []))
        self.wrapper_methods = frozenset(wrappers.get("methods", []))
        self.wrapper_constructors = frozenset(wrappers.get("constructors", []))
        self.repositories = _repositories(data)
        activities = data.get("activities", {})
        self.recorded_activities.update(activities.get("recorded", []))
        self._parents = self._all_parents()

    def _load_clients(self, tables: list[dict[str, Any]]) -> None:
        for table in tables:
            methods = frozenset(table.get("methods", []))
            group = ClientGroup(
                entry=Entry(table["category"], table["reason"]),
                methods=methods - {"*"},
                any_method="*" in methods,
                returns=dict(table.get("returns", {})),
                returns_self=frozenset(table.get("returns-self", [])),
                self_attributes=frozenset(table.get("self-attributes", [])),
                durable=durable_when(table),
            )
            for cls in table["classes"]:
                self.clients[cls] = group
                module, _, last = cls.rpartition(".")
                self._short_class.setdefault((module, last), cls)
                package = module.rpartition(".")[0]
                if package:
                    self._reexported.setdefault(f"{package}.{last}", cls)

    def add_durable(self, integration: Integration, framework: str = "") -> None:
        """Agents and runners that `integration` makes durable, built with its keyword holding
        one of its classes; a client or factory it names that the catalog lacks is refused."""
        if not integration.keyword:
            return  # a runner (`runs`): its own calls record, nothing to add to a client
        condition = (integration.keyword, frozenset(integration.holds), framework)
        for name in integration.clients:
            group = self.clients.get(name)
            if group is None:
                raise ValueError(f"integration {integration.what!r}: no client {name!r}")
            self.clients[name] = replace(group, durable=(*group.durable, condition))
        for name in integration.factories:
            factory = self.factories.get(name)
            if factory is None:
                raise ValueError(f"integration {integration.what!r}: no factory {name!r}")
            self.factories[name] = replace(factory, durable=(*factory.durable, condition))

    def logs(self, path: str) -> bool:
        """Does a call of `path` only write a log line?"""
        return path.startswith(self.logger_prefixes)

    def _all_parents(self) -> set[str]:
        parents: set[str] = set()
        for name in [*self.calls, *self.modules, *self.reads, *self.clients, *self.factories]:
            parts = name.split(".")
            for i in range(1, len(parts) + 1):
                parents.add(".".join(parts[:i]))
        return parents

    def categories(self) -> set[str]:
        """Every category an entry names (each must be claimed by exactly one rule)."""
        groups = [
            *self.calls.values(),
            *self.modules.values(),
            *self.reads.values(),
            *(g.entry for g in self.clients.values()),
        ]
        return {entry.category for entry in groups}

    # ------------------------------------------------------------------ extension (config)

    def extend(self, unsafe: Mapping[str, Iterable[str]], safe: Iterable[str]) -> Catalog:
        """A copy with a project's own unsafe names added and its declared-safe names removed.

        A declared name that looks like a class (`acme.llm.Gateway`) makes every method call on
        its instances unsafe; any other name is unsafe to call, and so is anything under it
        (`acme_http` covers `acme_http.get`).
        """
        clone = Catalog.__new__(Catalog)
        clone.__dict__.update(
            {k: (v.copy() if hasattr(v, "copy") else v) for k, v in self.__dict__.items()}
        )
        clone.declared = frozenset(name for names in unsafe.values() for name in names)
        for category, names in unsafe.items():
            entry = Entry(category, "declared unsafe in the project configuration")
            for name in names:
                if name.rsplit(".", 1)[-1][:1].isupper():
                    clone.clients[name] = ClientGroup(entry, frozenset(), any_method=True)
                    module, _, last = name.rpartition(".")
                    clone._short_class.setdefault((module, last), name)
                    clone.modules[name] = entry  # class-level calls: Gateway.complete(...)
                else:
                    clone.calls[name] = entry
                    clone.modules[name] = entry
        clone.safe = set(safe)
        for name in clone.safe:
            clone.calls.pop(name, None)
        clone._parents = clone._all_parents()
        return clone

    # ------------------------------------------------------------------ lookups

    def declared_unsafe(self, name: str) -> bool:
        """Is `name`, or a module or class it is under, declared unsafe by the project (its
        own `myapp.llm.Gateway`, judged by the declaration rather than read)?"""
        if not self.declared:
            return False
        parts = name.split(".")
        return any(".".join(parts[:end]) in self.declared for end in range(1, len(parts) + 1))

    def client_class(self, path: str) -> str | None:
        """The catalog's name for a client class, also when imported from a submodule."""
        if path in self.clients:
            return path
        if path in self._reexported:
            return self._reexported[path]
        # A class re-exported from a submodule (langchain_openai.chat_models.base.ChatOpenAI)
        # is the catalog's class when it sits under that class's own package.
        parts = path.split(".")
        for end in range(len(parts) - 2, 0, -1):
            found = self._short_class.get((".".join(parts[:end]), parts[-1]))
            if found is not None:
                return found
        return None

    def has_members(self, path: str) -> bool:
        """True when some catalog entry lies under path (so computed access on it may reach one)."""
        if path in self._parents:
            return True
        if "()" in path:
            return self.client_class(path[: path.rfind("()")]) is not None
        return False

    def _module_entry(self, path: str) -> Entry | None:
        if path in self.module_exceptions:
            return None
        last = path.rsplit(".", 1)[-1]
        if last.endswith(_NOT_OPERATIONS) or last.startswith("_"):
            return None
        dot = path.rfind(".")
        while dot > 0:
            entry = self.modules.get(path[:dot]) or self.read_entry(path[:dot])
            if entry is not None:
                return entry
            dot = path.rfind(".", 0, dot)
        return None

    def classify_call(self, path: str, args: CallArgs) -> tuple[Entry | None, str | None]:
        """(entry when the call is unsafe, the path of what the call returns when known)."""
        if path in self.safe:
            return None, None
        entry = self.calls.get(path)
        if entry is not None:
            if entry.unless_args and args.count >= entry.unless_args:
                return None, None
            if entry.unless_zero and args.zero_first:
                return None, None
            # Building a client that is itself a root (`ThreadPoolExecutor()`): what it builds
            # is still that client, for where the construction is not reported; a root that
            # is a client's method (`Path("~").expanduser()`) hands back what the method does.
            built = path + "()" if self.client_class(path) == path else self._method_gives(path)
            return entry, built
        factory = self.factories.get(path)
        if factory is not None:
            durable = built_durable(factory.durable, args)
            if durable is not None:
                return None, durable  # a durable agent: its model calls are journaled
            kind = args.string_arg(factory.argument)
            return None, factory.kinds.get(kind or "", factory.default) + "()"
        paren = path.rfind("()")
        if paren >= 0:
            cls = self.client_class(path[:paren])
            if cls is None:
                return None, path + "()"
            group = self.clients[cls]
            member = path[paren + 3 :] or "__call__"
            if group.any_method and member[member.rfind(".") + 1 :][:1].isupper():
                return None, cls + "()"  # a sub-resource (dynamodb.Table("t")): built, not fetched
            if member in group.methods or (group.any_method and member != "__call__"):
                # Unsafe, and what it hands back may be a client too (`engine.connect()`): where
                # the call itself is not reported (at import), its result is still followed.
                returned = group.returns.get(member)
                return group.entry, (returned + "()" if returned else None)
            given = _gives(group, cls, member)
            if given is not None:
                return None, given
            # Another method of a client (`inngest_client.create_function(...)`, a framework
            # object the catalog knows only for its `send`): what it gives is its own, named.
            return None, path + "()"
        cls = self.client_class(path)
        if cls is not None:
            group = self.clients[cls]
            durable = built_durable(group.durable, args)
            if durable is not None:
                return None, durable  # a durable agent: its runs are its framework's
            return None, cls + "()"
        entry = self._module_entry(path)
        if entry is not None:
            return entry, None
        return None, path + "()"

    def builds_another_hazard(self, path: str, entry: Entry) -> bool:
        """Does this unsafe call build a client whose own uses are another kind of hazard
        (`Path.cwd()`, an environment read, gives a path whose reads use the disk)?"""
        cls = self.client_class(path)
        return cls is not None and self.clients[cls].entry.category != entry.category

    def _method_gives(self, path: str) -> str | None:
        """What a client's method hands back, as the kind it builds (`pathlib.Path()`)."""
        paren = path.rfind("()")
        cls = self.client_class(path[:paren]) if paren >= 0 else None
        if cls is None:
            return None
        return _gives(self.clients[cls], cls, path[paren + 3 :])

    def read_entry(self, path: str) -> Entry | None:
        """The entry for an object whose reading is itself unsafe (`os.environ`, `sys.argv`)."""
        return None if path in self.safe else self.reads.get(path)

    def attribute_instance(self, path: str, name: str) -> str | None:
        """`pathlib.Path()` for the `parent` of a `pathlib.Path()`: an attribute that holds an
        instance of its owner's class; None for any other attribute."""
        paren = path.rfind("()")
        if paren < 0 or paren + 2 != len(path):
            return None
        cls = self.client_class(path[:paren])
        if cls is None or name not in self.clients[cls].self_attributes:
            return None
        return cls + "()"

    def reference_entry(self, path: str) -> Entry | None:
        """The entry for an unsafe callable used as a value (passed on, to be called later)."""
        if path in self.safe:
            return None
        entry = self.calls.get(path)
        if entry is not None:
            return None if entry.unless_args else entry
        paren = path.rfind("()")
        if paren >= 0:
            cls = self.client_class(path[:paren])
            member = path[paren + 3 :]
            if cls is not None and member:
                group = self.clients[cls]
                if member in group.methods or group.any_method:
                    return group.entry
            return None
        if path in self.factories or self.client_class(path) is not None:
            return None
        if path.rsplit(".", 1)[-1].isupper():
            return None  # a constant handed on (socket.AF_INET), not an operation
        return self._module_entry(path)


def _gives(group: ClientGroup, cls: str, member: str) -> str | None:
    """The client kind a safe method of `cls` hands back: another (`returns`), or the same one
    (`returns-self`, where `"*"` is every other method: a discovery client's resources)."""
    if member in group.returns:
        return group.returns[member] + "()"
    if member in group.returns_self or "*" in group.returns_self:
        return cls + "()"
    return None


def _repositories(data: dict[str, Any]) -> dict[str, frozenset[str]]:
    """A model SDK's package -> the names it is published under (its own repository's)."""
    return {package: frozenset(names) for package, names in data.get("repositories", {}).items()}


@lru_cache(maxsize=1)
def default_catalog() -> Catalog:
    """rules/catalog.toml, with each framework record's durable integrations added to the
    clients and factories they make durable."""
    with open(rules_dir() / "catalog.toml", "rb") as handle:
        catalog = Catalog(tomllib.load(handle))
    for preset in presets().values():
        for integration in preset.integrations:
            catalog.add_durable(integration, preset.name)
    return catalog

"""Reading followed modules with astroid: one tree per module, built once and kept for the run.

Trees are built with astroid's TreeRebuilder straight from `ast.parse`, not through
`AstroidBuilder`: its post-build step caches the module in astroid's process-wide manager and
runs inference that loads the modules a file imports (star imports, `x.attr = ...` targets)
from the linter's own sys.path, and builtins or whitelisted extensions by importing them.
Here nothing outside the followed files is read, and nothing is ever imported or executed.
"""

from __future__ import annotations

import io
import logging
import tokenize

from astroid import nodes
from astroid.manager import AstroidManager
from astroid.rebuilder import TreeRebuilder

from replaylint.installed.locate import Locator
from replaylint.parse import pyast

log = logging.getLogger("replaylint")


class InstalledModule:
    """One followed module as astroid reads it."""

    __slots__ = ("name", "path", "tree", "star_imports")

    def __init__(self, name: str, path: str, tree: nodes.Module) -> None:
        self.name = name
        self.path = path
        self.tree = tree
        # Absolute names of the modules star-imported at module level, in source order.
        self.star_imports = tuple(
            absolute_name(name, tree.package, node.modname, node.level)
            for node in tree.nodes_of_class(nodes.ImportFrom)
            if node.names and node.names[0][0] == "*" and node.scope() is tree
        )


def absolute_name(module: str, package: bool, modname: str | None, level: int | None) -> str:
    """The absolute module name `from <level dots><modname> import ...` refers to."""
    if not level:
        return modname or ""
    base = module if package else module.rpartition(".")[0]
    for _ in range(level - 1):
        base = base.rpartition(".")[0]
    if modname:
        return f"{base}.{modname}" if base else modname
    return base


def _manager() -> AstroidManager:
    manager = AstroidManager()
    # Name lookups that reach no binding end in astroid's builtins module, which is built by
    # introspecting the interpreter's own `builtins`; nothing of the checked code is involved.
    if "builtins" not in manager.astroid_cache:
        manager.bootstrap()
    return manager


def read_module(name: str, path: str, package: bool) -> InstalledModule | None:
    """Parse one installed file into an astroid tree; None (logged) when it cannot be read."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        source = data.decode(encoding)
        parsed = pyast.parse(source, filename=path)  # one thread at a time: see pyast.py
        tree = TreeRebuilder(_manager(), data=source).visit_module(parsed, name, path, package)
    except (OSError, SyntaxError, ValueError, LookupError, RecursionError, MemoryError) as exc:
        log.debug("installed module %s (%s) skipped: %s", name, path, exc)
        return None
    _bind_from_imports(tree)
    return InstalledModule(name, path, tree)


def _bind_from_imports(tree: nodes.Module) -> None:
    # The rebuilder leaves `from m import x` names out of the scopes' locals (astroid's builder
    # adds them after building, star imports included, by loading `m`); bind the plain names so
    # that `lookup` sees them, in source order as astroid keeps them. Star names are looked up
    # on demand, and only in followed modules (values.py).
    scopes: dict[int, nodes.LocalsDictNodeNG] = {}
    for node in tree.nodes_of_class(nodes.ImportFrom):
        for name, alias in node.names:
            if name != "*" and node.parent is not None:
                node.parent.set_local(alias or name, node)
                scope = node.scope()
                scopes[id(scope)] = scope
    for scope in scopes.values():
        for bindings in scope.locals.values():
            bindings.sort(key=lambda stmt: stmt.fromlineno or 0)


class Modules:
    """The followed modules of a run, located and read lazily, each at most once."""

    def __init__(self, locator: Locator) -> None:
        self._locator = locator
        self._read: dict[str, InstalledModule | None] = {}

    def exists(self, name: str) -> bool:
        """The module is installed (readable or not)."""
        return self._locator.find(name) is not None

    def get(self, name: str) -> InstalledModule | None:
        """The module's tree; None when it is missing, opaque (a C extension) or unparsable."""
        if name in self._read:
            return self._read[name]
        located = self._locator.find(name)
        info: InstalledModule | None = None
        if located is not None and located.origin is not None and located.source:
            info = read_module(name, located.origin, located.package)
        elif located is not None and located.origin is not None:
            log.debug("installed module %s (%s) is opaque: not Python source", name, located.origin)
        self._read[name] = info
        return info

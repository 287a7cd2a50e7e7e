"""Finding installed modules on a search path without importing them or their parents."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.machinery import PathFinder, SourceFileLoader


@dataclass(frozen=True)
class Located:
    """Where one module lives, and whether its source can be read."""

    name: str
    origin: str | None  # the .py file (or __init__.py); None for a namespace package
    source: bool  # Python source; False for C extensions, bytecode-only and zipped modules
    locations: tuple[str, ...]  # where its submodules are found; () for a plain module

    @property
    def package(self) -> bool:
        return bool(self.locations)


def default_search_path() -> list[str]:
    """The interpreter's sys.path entries that exist, without the current directory."""
    here = os.path.abspath(os.getcwd())
    found: list[str] = []
    for entry in sys.path:
        if not entry or not os.path.isdir(entry):
            continue
        full = os.path.abspath(entry)
        if full != here and full not in found:
            found.append(full)
    return found


def with_pth_directories(directories: Sequence[str]) -> list[str]:
    """The directories, each followed by the directories its `.pth` files name.

    Only path lines are honoured; `import` lines are code and are never run. This is how
    path-based editable installs (hatch, older setuptools) are found from a given search path.
    """
    found: list[str] = []
    for directory in directories:
        full = os.path.abspath(directory)
        if full in found:
            continue
        found.append(full)
        try:
            names = sorted(name for name in os.listdir(full) if name.endswith(".pth"))
        except OSError:
            continue
        for name in names:
            try:
                with open(os.path.join(full, name), encoding="utf-8") as handle:
                    lines = handle.read().splitlines()
            except (OSError, UnicodeDecodeError):
                continue
            for line in lines:
                line = line.strip()
                if not line or line.startswith(("#", "import ", "import\t")):
                    continue
                extra = os.path.abspath(os.path.join(full, line))
                if os.path.isdir(extra) and extra not in found:
                    found.append(extra)
    return found


class Locator:
    """Locates modules by name, memoized; a submodule is looked up in its parent's locations.

    Each lookup is `PathFinder.find_spec(name, directories)`, which reads directories only: a
    dotted name never goes through `importlib.util.find_spec`, which would import the parents.
    """

    def __init__(self, search_path: Sequence[str]) -> None:
        self.search_path = with_pth_directories(search_path)
        self._found: dict[str, Located | None] = {}

    def find(self, name: str) -> Located | None:
        if name in self._found:
            return self._found[name]
        parent, _, _ = name.rpartition(".")
        where: list[str] | None = self.search_path
        if parent:
            outer = self.find(parent)
            where = list(outer.locations) if outer is not None and outer.locations else None
        located = _find(name, where) if where else None
        self._found[name] = located
        return located


def _find(name: str, where: list[str]) -> Located | None:
    try:
        spec = PathFinder.find_spec(name, where)
    except KeyError:
        # A namespace package under a package: PathFinder builds its path from the parent's
        # `__path__` in sys.modules, which is exactly what is not there without importing.
        tail = name.rpartition(".")[2]
        portions = tuple(
            os.path.join(d, tail) for d in where if os.path.isdir(os.path.join(d, tail))
        )
        return Located(name, None, False, portions) if portions else None
    except (ImportError, ValueError, OSError):
        return None
    if spec is None:
        return None
    locations = tuple(spec.submodule_search_locations or ())
    origin = spec.origin
    if origin is None or origin == "namespace":
        return Located(name, None, False, locations) if locations else None
    readable = isinstance(spec.loader, SourceFileLoader) and origin.endswith(".py")
    return Located(name, os.path.abspath(origin), readable, locations)

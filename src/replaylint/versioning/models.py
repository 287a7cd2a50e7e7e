"""Each framework's versioning model in this project: the record's default, switched by what
the project's own files say (DBOS's `enable_patching`, Temporal's pinned worker versioning),
overridden by `[tool.replaylint.versioning]`."""

from __future__ import annotations

import os
import re
from pathlib import Path

from replaylint.core.paths import application_folder
from replaylint.presets.records import Versioning
from replaylint.project.config import Resolver
from replaylint.project.roots import project_root
from replaylint.versioning.side import versioning_facts

PATCHING, PINNED = "patching", "pinned"


class Models:
    def __init__(self, resolver: Resolver) -> None:
        self.resolver = resolver
        self.facts: dict[str, Versioning] = versioning_facts()
        self._switches: list[tuple[str, re.Pattern[bytes]]] = [
            (name, re.compile(pattern.encode()))
            for name, facts in self.facts.items()
            for pattern in (*facts.patching_when, *facts.pinned_when)
        ]
        # (framework, project folder) where the project's own files switch the default: one
        # application of a repository of many enables DBOS patching for itself only.
        self.switched: set[tuple[str, Path]] = set()
        self._fixing = [
            (name, [re.compile(p.encode()) for p in facts.fixed_versions])
            for name, facts in self.facts.items()
            if facts.fixed_versions
        ]
        # (framework, project folder) -> (priority, version) the project fixes, on each side.
        self.fixed: dict[tuple[str, Path], tuple[int, bytes]] = {}
        self.fixed_base: dict[tuple[str, Path], tuple[int, bytes]] = {}

    def scan(self, data: bytes, path: str, base: bool = False) -> None:
        """One file of the working tree (or of the base, with `base`, by its path in the
        working tree): does it switch a framework's model, or fix its version, in its project?"""
        if not base:
            for name, pattern in self._switches:
                if pattern.search(data):
                    self.switched.add((name, _project(path)))
        fixed = self.fixed_base if base else self.fixed
        for name, patterns in self._fixing:
            for priority, pattern in enumerate(patterns):
                found = pattern.search(data)
                if found is None:
                    continue
                key = (name, _project(path))  # looked up only for a file that says something
                if key not in fixed or priority < fixed[key][0]:
                    fixed[key] = (priority, found.group(1) if pattern.groups else found.group(0))

    def model(self, framework: str, path: str) -> str:
        """The model in force for a workflow of `framework` in the file at `path`."""
        override = self.resolver.for_path(path).versioning.get(framework)
        if override is not None:
            return override
        facts = self.facts.get(framework)
        if facts is None:
            return PATCHING
        if facts.fixed_versions:
            # Recovered only under the version it started on: the same fixed one, or none.
            key = (framework, _project(path))
            now, before = self.fixed.get(key), self.fixed_base.get(key)
            same = now is not None and before is not None and now[1] == before[1]
            return PATCHING if same else PINNED
        if (framework, _project(path)) in self.switched:
            return PATCHING if facts.model == PINNED else PINNED
        return facts.model


def _project(path: str) -> Path:
    """The application a file belongs to: its nearest project folder (one of a repository of
    several keeps its own versioning)."""
    folder = os.path.dirname(os.path.abspath(path))
    found = application_folder(folder)
    return Path(found) if found is not None else project_root(Path(folder))

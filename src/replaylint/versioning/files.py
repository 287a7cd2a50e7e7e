"""The files of the two sides: which are workflow candidates, which differ between the base and
the working tree (by git's blob ids), and the bytes an editor holds in place of a file's."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from replaylint.api import needles_for
from replaylint.api.run import python_files_under
from replaylint.core.paths import display_path
from replaylint.graph.imports import reached_modules
from replaylint.project.config import Config, Resolver
from replaylint.project.prefilter import Needles, is_candidate
from replaylint.project.roots import Roots
from replaylint.resolve.model import ModuleInfo
from replaylint.versioning.entries import HOST_FILE, folder_of
from replaylint.versioning.git import blob_id
from replaylint.versioning.model import Workflow
from replaylint.versioning.models import Models
from replaylint.versioning.reach import reached
from replaylint.versioning.side import Module


def base_modules(
    kept: dict[str, str],
    contents: dict[str, bytes],
    copy: Path,
    root: Path,
    scopes: list[str],
    resolver: Resolver,
) -> list[Module]:
    """The base's workflow candidates under `scopes`, in its copy."""
    return [
        Module(copy / path, path, _shown(root, path), contents[blob])
        for path, blob in sorted(kept.items())
        if path.endswith(".py")
        and _in_scope(path, scopes)
        and _candidate(contents[blob], resolver.for_file(str(copy / path)))
    ]


class Changes:
    """Which files differ between the base and the working tree, by git's blob ids."""

    def __init__(
        self, root: Path, tree: dict[str, str], overlay: Mapping[Path, bytes] | None = None
    ) -> None:
        self.root = root
        self.tree = tree
        self.overlay = overlay or {}
        self._changed: dict[str, bool] = {}
        self._roots: dict[int, Roots] = {}
        self._clean: set[Path] = set()  # modules whose every reached module is unchanged

    def changed(self, relative: str) -> bool:
        found = self._changed.get(relative)
        if found is None:
            data = _read(self.root / relative, self.overlay)
            blob = self.tree.get(relative)
            if data is None or blob is None:
                found = (data is None) != (blob is None)
            else:
                found = blob_id(data) != blob
            self._changed[relative] = found
        return found

    def hosted(self, workflows: list[Workflow]) -> list[Workflow]:
        """The workflows of the working tree less those whose host file (function.json) the
        base had and the working tree lost: the host runs them no more."""
        return [
            w
            for w in workflows
            if w.host_file not in self.tree or (self.root / w.host_file).is_file()
        ]

    def touch(self, module: Module, root: Path, resolver: Resolver) -> bool:
        """Does the module, or a local module it reaches, or the host file beside it, differ
        between the two sides?"""
        if self.changed(_sibling(module.relative, HOST_FILE)):
            return True
        config = resolver.for_file(str(module.path))
        roots = self._roots.get(id(config))
        if roots is None:
            sources = tuple(Path(config.base, r).resolve() for r in config.src)
            roots = self._roots[id(config)] = Roots(sources)
        seen: list[Path] = []
        for path in reached(module.path.resolve(), roots, self._clean):
            seen.append(path)
            relative = relative_to(root.resolve(), path)
            if not relative.startswith("..") and self.changed(relative):
                return True
        # Every module read here reaches only modules read here: none of them reaches a change.
        self._clean.update(seen)
        return False


def working_tree(
    paths: list[str],
    resolver: Resolver,
    root: Path,
    models: Models,
    errors: list[str],
    overlay: Mapping[Path, bytes],
) -> list[Module]:
    """The workflow candidates of the working tree under `paths`; every file read also tells
    the models whether it switches a framework's versioning (DBOS's `enable_patching`)."""
    found: list[Module] = []
    for path in paths:
        files, problems = python_files_under(path, resolver)
        errors.extend(problems)
        for file in files:
            data = overlay.get(Path(file).resolve())
            try:
                data = data if data is not None else Path(file).read_bytes()
            except OSError as error:
                errors.append(f"{display_path(file)}: cannot read: {error.strerror}")
                continue
            models.scan(data, file)
            if _candidate(data, resolver.for_file(file)):
                relative = relative_to(root, Path(file))
                found.append(Module(Path(file), relative, display_path(file), data))
    return found


def _read(path: Path, overlay: Mapping[Path, bytes]) -> bytes | None:
    """The file's bytes as the editor holds them, else as on disk; None when it is gone."""
    held = overlay.get(path.resolve()) if overlay else None
    if held is not None:
        return held
    try:
        return path.read_bytes()
    except OSError:
        return None


_NEEDLES: dict[int, tuple[Config, Needles]] = {}


def _candidate(data: bytes, config: Config) -> bool:
    """Does the prefilter of `check` read this file as a workflow candidate?"""
    cached = _NEEDLES.get(id(config))
    if cached is None or cached[0] is not config:
        cached = _NEEDLES[id(config)] = (config, needles_for(config))
    markers, imports = cached[1]
    return is_candidate(data, markers, imports)


def relative_to(root: Path, path: Path) -> str:
    relative = os.path.relpath(path.resolve(), root)
    return "" if relative == "." else relative.replace(os.sep, "/")


def _shown(root: Path, relative: str) -> str:
    """A base module as reports show it: where it is (or would be) in the working tree."""
    return display_path(str(root / relative))


def _sibling(relative: str, name: str) -> str:
    folder = folder_of(relative)
    return f"{folder}/{name}" if folder else name


def _in_scope(path: str, scopes: list[str]) -> bool:
    return any(not scope or path == scope or path.startswith(scope + "/") for scope in scopes)


def reaches_any(module: ModuleInfo | None, focus: set[str], root: Path) -> bool:
    if module is None:
        return False
    return any(relative_to(root, m.path) in focus for m in reached_modules(module))

"""The open documents as the editor holds them, saved or not: a Project that reads a local
module from its buffer when it is open, and from disk otherwise (as pyright analyses open
files)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from replaylint.engine.project import Project, project_for
from replaylint.parse.parsing import ParseFailure
from replaylint.project.config import Config
from replaylint.resolve.model import ModuleInfo


class BufferedProject(Project):
    """A run's project whose local modules come from `buffers` (real path -> the bytes the
    buffer would hold saved) where the editor has them open."""

    buffers: Mapping[Path, bytes]

    def _load_local(self, path: Path, name: str) -> ModuleInfo | None:
        key = path.resolve()
        source = self.buffers.get(key)
        if source is None or key in self.modules:
            return super()._load_local(path, name)
        try:
            if len(source) > self.max_module_size:
                raise ParseFailure(f"{len(source):,} bytes, over the max-module-size", 1)
            return self.load(path, source, name=name)
        except ParseFailure as error:  # an unsaved edit that does not parse yet
            self.helper_failed(path, name, error)
            return None

    def read_modules(self) -> frozenset[str]:
        """The real paths of every module this run read (the document's reach)."""
        return frozenset(str(key) for key in self.modules)


def buffered_project(config: Config, buffers: Mapping[Path, bytes]) -> BufferedProject:
    """The project `project_for(config)` builds, reading open buffers first. (The engine builds
    projects; this one only changes where a local module's bytes come from.)"""
    project = project_for(config)
    project.__class__ = BufferedProject
    assert isinstance(project, BufferedProject)
    project.buffers = buffers
    return project

"""`[tool.replaylint]`: found walking upward from the working directory, merged near-over-far
(stopping at `root = true`), validated against the Code enum and the presets."""

from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from replaylint.core.codes import CATALOG_CODES, Code
from replaylint.core.paths import REPOSITORY_MARKERS, printable
from replaylint.presets.shipped import preset_names
from replaylint.project.discovery import DEFAULT_EXCLUDES, excluded
from replaylint.project.settings_files import own_table, parse_toml, read_table
from replaylint.project.validate import ConfigError, Validator


@dataclass(frozen=True)
class Config:
    select: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    extend_ignore: tuple[str, ...] = ()
    exclude: tuple[str, ...] | None = None  # None: the default exclusions
    extend_exclude: tuple[str, ...] = ()
    force_exclude: bool = False  # exclusions apply to paths named on the command line too
    per_file_ignores: dict[str, tuple[str, ...]] = field(default_factory=dict)
    frameworks: tuple[str, ...] | None = None  # None: every preset
    markers: tuple[str, ...] = ()
    unsafe: dict[Code, tuple[str, ...]] = field(default_factory=dict)
    safe: tuple[str, ...] = ()
    activity_decorators: tuple[str, ...] = ()
    # decorator qualified name -> the preset whose rules apply to what it decorates
    workflow_decorators: dict[str, str] = field(default_factory=dict)
    respect_gitignore: bool = True
    # Workflow modules larger than this are reported (ADK-E001), not parsed: generated or vendored
    # code of that size is not hand-written workflow logic, and it would cost seconds and GBs.
    max_module_size: int = 1_048_576
    # `replaylint replay`: Temporal workflow classes ("pkg.module:Class", or a module for all of
    # its classes) that histories exported from Temporal are replayed against.
    replay_workflows: tuple[str, ...] = ()
    # The Python the code is for (`py311`): else each project's requires-python, else ours.
    target_version: str = ""
    # Base classes whose subclasses are workflows of a framework (a framework built on
    # another: Atlan's application SDK turns `App` subclasses into Temporal workflows).
    workflow_bases: dict[str, str] = field(default_factory=dict)
    # `check --base`: framework -> "patching" or "pinned", in place of its record's model.
    versioning: dict[str, str] = field(default_factory=dict)
    # Import roots, relative to the configuration's folder (default: that folder and its src/).
    src: tuple[str, ...] = ()
    follow: tuple[str, ...] = ()  # installed packages whose code is read and followed (astroid)
    root: bool = False
    sources: tuple[str, ...] = ()  # the files the settings came from, nearest first
    base: str = "."  # directory that per-file-ignores and exclude globs are relative to

    def excludes(self, path: str, walking: bool) -> bool:
        """Do these settings exclude `path` (globs relative to `base`)? A walk also skips the
        default folder names (.venv, build, ...); a report does not: a file named is checked."""
        names = DEFAULT_EXCLUDES if walking and self.exclude is None else frozenset()
        patterns = (self.exclude or ()) + self.extend_exclude
        return bool(patterns or names) and excluded(path, self.base, patterns, names)

    def excludes_named(self, path: str) -> bool:
        """Do these settings exclude `path` although it was named on the command line? Only
        with `force-exclude` (pre-commit names every changed file, excluded or not), and then
        as a walk would: such a file is neither checked nor reported, as in ruff."""
        return self.force_exclude and self.excludes(path, walking=True)

    def as_dict(self) -> dict[str, Any]:
        shown: dict[str, Any] = {}
        for item in fields(self):
            value = getattr(self, item.name)
            if item.name == "unsafe":
                value = {code.value: list(names) for code, names in value.items()}
            elif isinstance(value, tuple):
                value = list(value)
            elif isinstance(value, dict):
                value = {k: list(v) if isinstance(v, tuple) else v for k, v in value.items()}
            shown[item.name.replace("_", "-")] = value
        return shown

    def show(self) -> str:
        return (
            "\n".join(f"{key} = {json.dumps(value)}" for key, value in self.as_dict().items())
            + "\n"
        )


def load(path: Path) -> Config:
    """One explicit file (`--config`)."""
    table = read_table(path, require_tool_table=False)
    if table is None:
        raise ConfigError(f"{printable(str(path))}: no [tool.replaylint] table")
    values = validate(printable(str(path)), table)
    return Config(**values, sources=(str(path),), base=str(path.parent))


def discover(start: Path | None = None) -> Config:
    """The settings for a run started in `start`: nearest configuration first, farther ones
    filling in the keys it does not set, until one says `root = true` or the repository root."""
    folder = (start or Path.cwd()).resolve()
    config = Resolver().for_folder(folder)
    return config if config.sources else dataclasses.replace(config, base=str(folder))


class Resolver:
    """The settings that apply to each file, as ruff finds them: the nearest folder with a
    `replaylint.toml` or a `pyproject.toml` holding `[tool.replaylint]`, farther ones filling
    in what it leaves out, up to the repository root or `root = true`; then the command line's
    `--config KEY=VALUE` overrides. Each folder is resolved once per run.

    `explicit` (`--config FILE`, or a Config given to the API) applies to every file instead.
    """

    def __init__(
        self,
        explicit: Config | None = None,
        overrides: dict[str, Any] | None = None,
        extend_exclude: tuple[str, ...] = (),
    ):
        self._explicit = explicit
        self._overrides = overrides or {}
        self._extend_exclude = extend_exclude  # `--extend-exclude`: added to every file's
        self._layers: dict[Path, tuple[dict[str, Any], tuple[str, ...], str | None]] = {}
        self._configs: dict[Path, Config] = {}
        self._shared: dict[tuple[tuple[str, ...], str | None], Config] = {}
        self._by_folder_name: dict[str, Config] = {}

    def fresh(self) -> Resolver:
        """The same command-line settings, no folder resolved yet (`check --base`'s base copy)."""
        return Resolver(self._explicit, self._overrides)

    def for_path(self, path: str) -> Config:
        """The settings of a file, or of a folder's own files."""
        absolute = Path(os.path.abspath(path))
        return self.for_folder(absolute if absolute.is_dir() else absolute.parent)

    def for_file(self, path: str) -> Config:
        """The settings of a file known to be one (no stat: discovery has just listed it)."""
        folder = os.path.dirname(os.path.abspath(path))
        config = self._by_folder_name.get(folder)
        if config is None:  # a Path per folder, not per file: a tree has many more files
            config = self._by_folder_name[folder] = self.for_folder(Path(folder))
        return config

    def for_folder(self, folder: Path) -> Config:
        config = self._configs.get(folder)
        if config is None:
            layer: tuple[dict[str, Any], tuple[str, ...], str | None]
            if self._explicit is not None:
                layer = ({}, self._explicit.sources, self._explicit.base)
            else:
                layer = self._layer(folder)
            values, sources, base = layer
            # Folders whose settings come from the same files share one Config: the run groups
            # files by it, and a group is one engine run over the helpers they share.
            key = (sources, base)
            config = self._shared.get(key)
            if config is None:
                if self._explicit is not None:
                    config = self._explicit
                else:
                    config = Config(**values, sources=sources, base=base or ".")
                if self._overrides:
                    config = dataclasses.replace(config, **self._overrides)
                if self._extend_exclude:
                    extended = config.extend_exclude + self._extend_exclude
                    config = dataclasses.replace(config, extend_exclude=extended)
                self._shared[key] = config
            self._configs[folder] = config
        return config

    def _layer(self, folder: Path) -> tuple[dict[str, Any], tuple[str, ...], str | None]:
        """(merged settings, their files nearest first, the nearest file's folder) of a folder.

        Walked upward in a loop (a tree may be deeper than the recursion limit) until a folder
        already resolved, the repository root or `root = true`; then folded back down."""
        chain: list[tuple[Path, dict[str, Any], str | None]] = []
        current = folder
        farther: tuple[dict[str, Any], tuple[str, ...], str | None] = ({}, (), None)
        while True:
            known = self._layers.get(current)
            if known is not None:
                farther = known
                break
            own, source = _own_settings(current)
            chain.append((current, dict(own or {}), source))
            stop = bool((own or {}).get("root")) or any(
                (current / marker).exists() for marker in REPOSITORY_MARKERS
            )
            if stop or current.parent == current:
                break
            current = current.parent
        values, sources, base = farther
        for place, own_values, source in reversed(chain):
            values = {**values, **own_values}
            sources = ((source,) if source else ()) + sources
            base = str(place) if source else base
            self._layers[place] = (values, sources, base)
        return self._layers[folder]


def validate(source: str, table: dict[str, Any]) -> dict[str, Any]:
    """A table of settings as Config field values (the first problem raises ConfigError)."""
    return Validator(source, preset_names(), CATALOG_CODES).table(table)


def _own_settings(folder: Path) -> tuple[dict[str, Any] | None, str | None]:
    """The validated settings a folder's own file holds, and that file."""
    found = own_table(folder)
    if found is None:
        return None, None
    candidate, table = found
    return validate(printable(str(candidate)), table), str(candidate)


def parse_override(text: str) -> dict[str, Any]:
    """`--config "ignore = ['ADK-W003']"`: one TOML `key = value` pair, validated like a file's."""
    try:
        table = parse_toml(text, "")
    except ConfigError as error:
        reason = str(error).removeprefix(": invalid TOML: ")
        raise ConfigError(
            f"--config {text!r}: not a file, nor a TOML key = value: {reason}"
        ) from None
    return validate(f"--config {text!r}", table)

"""`[tool.replaylint]`: found walking upward from the working directory, merged near-over-far
(stopping at `root = true`), validated against the Code enum and the presets."""

from __future__ import annotations

import dataclasses
import errno
import json
import os
import sys
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from replaylint.core.codes import CATALOG_CODES, Code, is_known_selector, parse_code
from replaylint.core.paths import printable
from replaylint.presets.records import VERSIONING_MODELS, preset_names
from replaylint.project.discovery import DEFAULT_EXCLUDES, excluded
from replaylint.project.prefilter import read_regular


class ConfigError(Exception):
    """A configuration problem, already phrased as one line naming the file and the key."""


@dataclass(frozen=True)
class Config:
    select: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    extend_ignore: tuple[str, ...] = ()
    exclude: tuple[str, ...] | None = None  # None: the default exclusions
    extend_exclude: tuple[str, ...] = ()
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


# key -> (kind, field name); kinds are checked by _validate.
_KEYS: dict[str, str] = {
    "select": "codes",
    "extend-select": "codes",
    "ignore": "codes",
    "extend-ignore": "codes",
    "exclude": "strings",
    "extend-exclude": "strings",
    "per-file-ignores": "per-file",
    "frameworks": "frameworks",
    "markers": "identifiers",
    "unsafe": "unsafe",
    "safe": "strings",
    "activity-decorators": "strings",
    "workflow-decorators": "decorators",
    "versioning": "versioning",
    "respect-gitignore": "bool",
    "max-module-size": "size",
    "replay-workflows": "strings",
    "src": "strings",
    "follow": "strings",
    "root": "bool",
}


def _fail(source: str, key: str, problem: str) -> ConfigError:
    # A quoted TOML key may hold a newline; the error stays one line.
    return ConfigError(f"{source}: [tool.replaylint] {printable(key)}: {problem}")


def _strings(source: str, key: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _fail(source, key, f"expected a list of strings, got {json.dumps(value)}")
    return tuple(value)


def _codes(source: str, key: str, value: Any) -> tuple[str, ...]:
    items = _strings(source, key, value)
    for item in items:
        if not is_known_selector(item):
            raise _fail(source, key, f"unknown rule code {item!r}")
    return items


def _versioning(source: str, key: str, value: Any) -> dict[str, str]:
    """`[tool.replaylint.versioning]`: framework = "patching" or "pinned"."""
    if not isinstance(value, dict):
        raise _fail(source, key, "expected a table of framework = model")
    known = (*preset_names(), "runtime")
    for framework, model in value.items():
        if framework not in known or model not in VERSIONING_MODELS:
            expected = f"{', '.join(known)} = {' or '.join(VERSIONING_MODELS)}"
            raise _fail(source, f"{key}.{framework}", f"expected one of {expected}")
    return dict(value)


def _validate(source: str, table: dict[str, Any]) -> dict[str, Any]:
    """The table's settings as Config field values; the first problem raises ConfigError."""
    values: dict[str, Any] = {}
    for key, value in table.items():
        kind = _KEYS.get(key)
        if kind is None:
            raise _fail(source, key, "unknown key")
        name = key.replace("-", "_")
        if kind == "codes":
            values[name] = _codes(source, key, value)
        elif kind == "strings":
            values[name] = _strings(source, key, value)
        elif kind == "identifiers":
            items = _strings(source, key, value)
            for item in items:
                if not item.isidentifier():
                    raise _fail(source, key, f"{item!r} is not a Python name")
            values[name] = items
        elif kind == "bool":
            if not isinstance(value, bool):
                raise _fail(source, key, f"expected true or false, got {json.dumps(value)}")
            values[name] = value
        elif kind == "size":
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise _fail(
                    source,
                    key,
                    f"expected a size in bytes (a positive integer), got {json.dumps(value)}",
                )
            values[name] = value
        elif kind == "frameworks":
            items = _strings(source, key, value)
            for item in items:
                if item not in preset_names():
                    raise _fail(
                        source,
                        key,
                        f"unknown framework {item!r} (known: {', '.join(preset_names())})",
                    )
            values[name] = items
        elif kind == "decorators":
            if not isinstance(value, dict):
                raise _fail(source, key, "expected a table of decorator = framework")
            for decorator, preset in value.items():
                if preset not in preset_names():
                    known = f"unknown framework {preset!r} (known: {', '.join(preset_names())})"
                    raise _fail(source, f"{key}.{decorator}", known)
            values[name] = dict(value)
        elif kind == "versioning":
            values[name] = _versioning(source, key, value)
        elif kind == "per-file":
            if not isinstance(value, dict):
                raise _fail(source, key, "expected a table of glob = [codes]")
            values[name] = {
                glob: _codes(source, f"{key}.{glob}", codes) for glob, codes in value.items()
            }
        elif kind == "unsafe":
            if not isinstance(value, dict):
                raise _fail(source, key, "expected a table of code = [qualified names]")
            unsafe: dict[Code, tuple[str, ...]] = {}
            for code_text, names in value.items():
                code = parse_code(code_text)
                if code not in CATALOG_CODES:
                    raise _fail(
                        source,
                        f"{key}.{code_text}",
                        "expected one of " + ", ".join(c.value for c in CATALOG_CODES),
                    )
                unsafe[code] = _strings(source, f"{key}.{code_text}", names)
            values[name] = unsafe
    return values


def _read(path: Path, require_tool_table: bool) -> dict[str, Any] | None:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on 3.10 only
        import tomli as tomllib

    source = printable(str(path))
    try:
        raw = read_regular(str(path))  # a FIFO given to --config must not hang the run
    except OSError as error:
        reason = error.strerror or str(error)
        if error.errno == errno.ENOENT and os.path.islink(path):
            reason = "dangling symbolic link"
        raise ConfigError(f"{source}: cannot read: {reason}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        byte = raw[error.start]
        raise ConfigError(
            f"{source}: not UTF-8 (byte 0x{byte:02x} on line {line}); TOML files are UTF-8"
        ) from None
    try:
        # A byte-order mark is not TOML, but editors on Windows write one; it means nothing.
        data = tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{source}: invalid TOML: {error}") from None
    tool = data.get("tool")
    if isinstance(tool, dict) and "replaylint" in tool:
        table = tool["replaylint"]
        if not isinstance(table, dict):
            raise ConfigError(f"{source}: [tool.replaylint] must be a table")
        return table
    if require_tool_table or path.name == "pyproject.toml":
        return None
    return data  # a replaylint.toml holds the keys at its top level


def _present(candidate: Path) -> bool:
    """Whether the name exists at all. One that does is read, or is a one-line error: a
    pyproject.toml that is a FIFO or a broken link would otherwise drop settings silently."""
    try:
        os.lstat(candidate)
    except OSError as error:
        if error.errno in (errno.ENOENT, errno.ENOTDIR):
            return False
        raise ConfigError(
            f"{printable(str(candidate))}: cannot read: {error.strerror or error}"
        ) from None
    return True


def load(path: Path) -> Config:
    """One explicit file (`--config`)."""
    table = _read(path, require_tool_table=False)
    if table is None:
        raise ConfigError(f"{printable(str(path))}: no [tool.replaylint] table")
    values = _validate(printable(str(path)), table)
    return Config(**values, sources=(str(path),), base=str(path.parent))


def discover(start: Path | None = None) -> Config:
    """The settings for a run started in `start`: nearest configuration first, farther ones
    filling in the keys it does not set, until one says `root = true` or the repository root."""
    folder = (start or Path.cwd()).resolve()
    config = Resolver().for_folder(folder)
    return config if config.sources else dataclasses.replace(config, base=str(folder))


_REPOSITORY_MARKERS = (".git", ".hg")


class Resolver:
    """The settings that apply to each file, as ruff finds them: the nearest folder with a
    `replaylint.toml` or a `pyproject.toml` holding `[tool.replaylint]`, farther ones filling
    in what it leaves out, up to the repository root or `root = true`; then the command line's
    `--config KEY=VALUE` overrides. Each folder is resolved once per run.

    `explicit` (`--config FILE`, or a Config given to the API) applies to every file instead.
    """

    def __init__(self, explicit: Config | None = None, overrides: dict[str, Any] | None = None):
        self._explicit = explicit
        self._overrides = overrides or {}
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
                (current / marker).exists() for marker in _REPOSITORY_MARKERS
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


def _own_settings(folder: Path) -> tuple[dict[str, Any] | None, str | None]:
    """The validated settings a folder's own file holds (replaylint.toml before pyproject.toml)."""
    for name, required in (("replaylint.toml", False), ("pyproject.toml", True)):
        candidate = folder / name
        if not _present(candidate):
            continue
        table = _read(candidate, require_tool_table=required)
        if table is not None:
            return _validate(printable(str(candidate)), table), str(candidate)
    return None, None


def parse_override(text: str) -> dict[str, Any]:
    """`--config "ignore = ['ADK-W003']"`: one TOML `key = value` pair, validated like a file's."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on 3.10 only
        import tomli as tomllib
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(
            f"--config {text!r}: not a file, nor a TOML key = value: {error}"
        ) from None
    return _validate(f"--config {text!r}", table)

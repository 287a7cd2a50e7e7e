"""The settings files of a folder, read as TOML: `.replaylint.toml` and `replaylint.toml` (keys at
their top level) before a `pyproject.toml` with `[tool.replaylint]`, as ruff reads `.ruff.toml`,
`ruff.toml` and `pyproject.toml`."""

from __future__ import annotations

import errno
import os
import sys
from pathlib import Path
from typing import Any

from replaylint.core.paths import printable
from replaylint.project.prefilter import read_regular
from replaylint.project.validate import ConfigError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

# In the order a folder's file is chosen; the flag says whether the keys sit in [tool.replaylint].
SETTINGS_FILES: tuple[tuple[str, bool], ...] = (
    (".replaylint.toml", False),
    ("replaylint.toml", False),
    ("pyproject.toml", True),
)
SETTINGS_NAMES = frozenset(name for name, _ in SETTINGS_FILES)


def read_table(path: Path, require_tool_table: bool) -> dict[str, Any] | None:
    """The file's replaylint settings: its `[tool.replaylint]` table, or for a replaylint.toml
    without one its top level; None for a pyproject.toml without the table."""
    source = printable(str(path))
    data = parse_toml(_text(path, source), source)
    tool = data.get("tool")
    if isinstance(tool, dict) and "replaylint" in tool:
        table = tool["replaylint"]
        if not isinstance(table, dict):
            raise ConfigError(f"{source}: [tool.replaylint] must be a table")
        return table
    if require_tool_table or path.name == "pyproject.toml":
        return None
    return data  # a replaylint.toml holds the keys at its top level


def parse_toml(text: str, source: str) -> dict[str, Any]:
    try:
        # A byte-order mark is not TOML, but editors on Windows write one; it means nothing.
        return tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{source}: invalid TOML: {error}") from None


def _text(path: Path, source: str) -> str:
    try:
        raw = read_regular(str(path))  # a FIFO given to --config must not hang the run
    except OSError as error:
        reason = error.strerror or str(error)
        if error.errno == errno.ENOENT and os.path.islink(path):
            reason = "dangling symbolic link"
        raise ConfigError(f"{source}: cannot read: {reason}") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        byte = raw[error.start]
        raise ConfigError(
            f"{source}: not UTF-8 (byte 0x{byte:02x} on line {line}); TOML files are UTF-8"
        ) from None


def present(candidate: Path) -> bool:
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


def own_table(folder: Path) -> tuple[Path, dict[str, Any]] | None:
    """The settings file a folder holds itself and its table, the first of SETTINGS_FILES
    that has replaylint's settings."""
    for name, required in SETTINGS_FILES:
        candidate = folder / name
        if not present(candidate):
            continue
        table = read_table(candidate, require_tool_table=required)
        if table is not None:
            return candidate, table
    return None


_PROJECT_TABLES: dict[Path, dict[str, Any] | None] = {}


def project_table(candidate: Path) -> dict[str, Any] | None:
    """A pyproject.toml's `[project]` table, read once per run; None when there is no file or
    no table, or the file cannot be read (another tool's broken file says nothing of either)."""
    if candidate not in _PROJECT_TABLES:
        table = None
        if candidate.is_file():
            try:
                data = parse_toml(candidate.read_text(encoding="utf-8"), str(candidate))
            except (OSError, UnicodeDecodeError, ConfigError):
                data = {}
            found = data.get("project")
            table = found if isinstance(found, dict) else None
        _PROJECT_TABLES[candidate] = table
    return _PROJECT_TABLES[candidate]

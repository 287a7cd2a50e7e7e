"""Whether a framework whose engine is a setting (mcp-agent: asyncio or Temporal) replays a
module's workflows: from a keyword written in the module, else its settings file, found as
the framework finds it (the folder and each one above it, and their `.<package>/` folders)."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import libcst as cst

from replaylint.parse.children import children
from replaylint.presets.records import Preset
from replaylint.project.prefilter import read_regular
from replaylint.resolve.model import ModuleInfo


def replayed(preset: Preset, module: ModuleInfo) -> bool:
    """Does `preset` replay the workflows of `module`? Always, unless the record says its engine
    is a setting (`[replay] replayed-when`): then only when the setting names that engine.
    A settings file read is remembered on the module (its record depends on it)."""
    facts = preset.replay
    if not facts.replayed_when:
        return True
    written = _keyword_in(module.tree, facts.config_key)
    if written is not None:
        return written == facts.replayed_when
    found = _settings_file(module.path.parent, facts.config_files, preset.packages[0])
    if found is None:
        return False  # no file: the framework's default engine, which does not replay
    module.settings_files.append(found)
    return _setting(found, facts.config_key) == facts.replayed_when


def _keyword_in(tree: cst.Module, key: str) -> str | None:
    """`Settings(execution_engine="temporal")`: a string given to the key, anywhere in the module."""
    stack: list[cst.CSTNode] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Arg) and node.keyword is not None and node.keyword.value == key:
            if isinstance(node.value, cst.SimpleString):
                return (
                    node.value.evaluated_value
                    if isinstance(node.value.evaluated_value, str)
                    else None
                )
        stack.extend(children(node))
    return None


def _settings_file(folder: Path, names: tuple[str, ...], package: str) -> Path | None:
    own = f".{package.split('.')[0].replace('_', '-')}"  # mcp_agent -> .mcp-agent
    for place in [folder, *folder.parents]:
        for name in names:
            for candidate in (place / name, place / own / name):
                if candidate.is_file():
                    return candidate
    return None


@lru_cache(maxsize=64)
def _setting_in(path: str, mtime_ns: int, key: str) -> str | None:
    try:
        text = read_regular(path).decode("utf-8", "replace")
    except OSError:
        return None
    # A top-level `key: value` line of the YAML file (no indentation), quoted or not.
    match = re.search(rf"^{re.escape(key)}\s*:\s*[\"']?([\w-]+)", text, re.MULTILINE)
    return match.group(1) if match else None


def _setting(path: Path, key: str) -> str | None:
    try:
        mtime = path.stat().st_mtime_ns
    except OSError:
        return None
    return _setting_in(str(path), mtime, key)

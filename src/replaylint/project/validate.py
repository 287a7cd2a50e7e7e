"""Each `[tool.replaylint]` key checked against its kind: one validator per kind, and the first
problem a one-line ConfigError naming the file, the key and the nearest known name."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from replaylint.core.codes import Code, parse_code
from replaylint.core.paths import printable
from replaylint.project.selectors import code_names, did_you_mean, known


class ConfigError(Exception):
    """A configuration problem, already phrased as one line naming the file and the key."""


def fail(source: str, key: str, problem: str) -> ConfigError:
    # A quoted TOML key may hold a newline; the error stays one line.
    return ConfigError(f"{source}: [tool.replaylint] {printable(key)}: {problem}")


class Validator:
    """Turns one file's table into Config field values. `presets` names the frameworks a
    `frameworks` or `workflow-decorators` entry may name, `unsafe_codes` the codes that
    `[tool.replaylint.unsafe]` may extend."""

    def __init__(self, source: str, presets: tuple[str, ...], unsafe_codes: tuple[Code, ...]):
        self.source, self.presets, self.unsafe_codes = source, presets, unsafe_codes

    def table(self, table: dict[str, Any]) -> dict[str, Any]:
        """The table's settings as Config field values; the first problem raises ConfigError."""
        values: dict[str, Any] = {}
        for key, value in table.items():
            kind = KEYS.get(key)
            if kind is None:
                raise fail(self.source, key, "unknown key" + did_you_mean(key, KEYS))
            values[key.replace("-", "_")] = _KINDS[kind](self, key, value)
        return values

    # ------------------------------------------------------------------ one per kind

    def strings(self, key: str, value: Any) -> tuple[str, ...]:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise fail(self.source, key, f"expected a list of strings, got {json.dumps(value)}")
        return tuple(value)

    def codes(self, key: str, value: Any) -> tuple[str, ...]:
        items = self.strings(key, value)
        for item in items:
            if not known(item):
                hint = did_you_mean(item, code_names())
                raise fail(self.source, key, f"unknown rule code {item!r}{hint}")
        return items

    def identifiers(self, key: str, value: Any) -> tuple[str, ...]:
        items = self.strings(key, value)
        for item in items:
            if not item.isidentifier():
                raise fail(self.source, key, f"{item!r} is not a Python name")
        return items

    def boolean(self, key: str, value: Any) -> bool:
        if not isinstance(value, bool):
            raise fail(self.source, key, f"expected true or false, got {json.dumps(value)}")
        return value

    def size(self, key: str, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            problem = f"expected a size in bytes (a positive integer), got {json.dumps(value)}"
            raise fail(self.source, key, problem)
        return value

    def framework(self, key: str, name: object) -> None:
        if name not in self.presets:
            hint = did_you_mean(str(name), self.presets)
            known_names = ", ".join(self.presets)
            raise fail(self.source, key, f"unknown framework {name!r}{hint} (known: {known_names})")

    def frameworks(self, key: str, value: Any) -> tuple[str, ...]:
        items = self.strings(key, value)
        for item in items:
            self.framework(key, item)
        return items

    def decorators(self, key: str, value: Any) -> dict[str, str]:
        if not isinstance(value, dict):
            raise fail(self.source, key, "expected a table of decorator = framework")
        for decorator, preset in value.items():
            self.framework(f"{key}.{decorator}", preset)
        return dict(value)

    def version(self, key: str, value: Any) -> str:
        if not isinstance(value, str) or not re.fullmatch(r"py3\d{1,2}", value):
            raise fail(
                self.source,
                key,
                f'expected a Python version such as "py311", got {json.dumps(value)}',
            )
        return value

    def versioning(self, key: str, value: Any) -> dict[str, str]:
        """`[tool.replaylint.versioning]`: framework = "patching" or "pinned"."""
        from replaylint.presets.records import VERSIONING_MODELS

        if not isinstance(value, dict):
            raise fail(self.source, key, "expected a table of framework = model")
        known = (*self.presets, "runtime")
        for framework, model in value.items():
            if framework not in known or model not in VERSIONING_MODELS:
                expected = f"{', '.join(known)} = {' or '.join(VERSIONING_MODELS)}"
                raise fail(self.source, f"{key}.{framework}", f"expected one of {expected}")
        return dict(value)

    def per_file(self, key: str, value: Any) -> dict[str, tuple[str, ...]]:
        if not isinstance(value, dict):
            raise fail(self.source, key, "expected a table of glob = [codes]")
        return {glob: self.codes(f"{key}.{glob}", codes) for glob, codes in value.items()}

    def unsafe(self, key: str, value: Any) -> dict[Code, tuple[str, ...]]:
        if not isinstance(value, dict):
            raise fail(self.source, key, "expected a table of code = [qualified names]")
        unsafe: dict[Code, tuple[str, ...]] = {}
        for code_text, names in value.items():
            code = parse_code(code_text)
            if code not in self.unsafe_codes:
                expected = ", ".join(c.value for c in self.unsafe_codes)
                raise fail(self.source, f"{key}.{code_text}", f"expected one of {expected}")
            unsafe[code] = self.strings(f"{key}.{code_text}", names)
        return unsafe


_KINDS: dict[str, Callable[[Validator, str, Any], Any]] = {
    "codes": Validator.codes,
    "strings": Validator.strings,
    "identifiers": Validator.identifiers,
    "bool": Validator.boolean,
    "size": Validator.size,
    "frameworks": Validator.frameworks,
    "decorators": Validator.decorators,
    "per-file": Validator.per_file,
    "unsafe": Validator.unsafe,
    "version": Validator.version,
    "versioning": Validator.versioning,
}

# key -> its kind (the validator above that reads it); the field is the key in snake case.
KEYS: dict[str, str] = {
    "select": "codes",
    "extend-select": "codes",
    "ignore": "codes",
    "extend-ignore": "codes",
    "exclude": "strings",
    "extend-exclude": "strings",
    "force-exclude": "bool",
    "per-file-ignores": "per-file",
    "frameworks": "frameworks",
    "markers": "identifiers",
    "unsafe": "unsafe",
    "safe": "strings",
    "activity-decorators": "strings",
    "workflow-decorators": "decorators",
    "respect-gitignore": "bool",
    "max-module-size": "size",
    "replay-workflows": "strings",
    "src": "strings",
    "follow": "strings",
    "root": "bool",
    "target-version": "version",
    "workflow-bases": "decorators",
    "versioning": "versioning",
}

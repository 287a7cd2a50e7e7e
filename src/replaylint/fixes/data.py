"""Loads rules/fixes.toml: per framework, which replacement fixes which root call, and how safely."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import libcst as cst

from replaylint.core.codes import Code
from replaylint.core.docs import rules_dir
from replaylint.presets.records import presets

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

ANY = "any"  # the table of fixes that hold whatever the framework
ARGS = ("any", "none", "one", "tz", "utc")
POSITIONS = ("", "statement", "awaited")
FUNCTIONS = ("", "async", "sync")
ELEMENTS = ("", "orderable")
PLACEHOLDERS = ("{ctx}", "{name}", "{callee}", "{receiver}")


@dataclass(frozen=True)
class Requirement:
    """One import a template's names come from: `from temporalio import workflow` binds
    `workflow` (local) to `temporalio.workflow` (qualified)."""

    statement: str
    qualified: str
    local: str


@dataclass(frozen=True)
class Template:
    """One entry of the data: a replacement and the conditions under which it is the fix."""

    framework: str
    template: str
    wraps: bool  # `wrap`: replaces the flagged expression, not a call
    imports: tuple[Requirement, ...]
    args: str
    position: str
    function: str
    entry: bool
    safe: bool
    reason: str
    # `elements = "orderable"`: only where the wrapped elements are known to order (sorted);
    # `runtime = true`: only where replaylint.workflows is importable (the module is marked, or
    # imports replaylint already).
    elements: str = ""
    runtime: bool = False

    @property
    def awaits(self) -> bool:
        return "await " in self.template

    @property
    def uses_context(self) -> bool:
        return "{ctx}" in self.template


class FixData:
    """The fixes of each framework, by resolved call name and by finding code."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.contexts: dict[str, tuple[str, ...]] = {
            name: tuple(types) for name, types in data.get("contexts", {}).items()
        }
        self._calls: dict[tuple[str, str], list[Template]] = {}
        self._codes: dict[tuple[str, Code], list[Template]] = {}
        for framework, tables in data.items():
            if framework in ("version", "contexts"):
                continue
            for table in tables:
                template = _template(framework, table)
                for name in table.get("calls", ()):
                    self._calls.setdefault((framework, name), []).append(template)
                for code in table.get("codes", ()):
                    self._codes.setdefault((framework, Code(code)), []).append(template)

    def candidates(self, framework: str, path: str, code: Code) -> list[Template]:
        """The entries that may fix a finding of `code` on `path` in `framework`'s code, in order."""
        found: list[Template] = []
        for table in (framework, ANY):
            found += self._calls.get((table, path), []) if path else []
            found += self._codes.get((table, code), [])
        return found

    def frameworks(self) -> set[str]:
        return {framework for framework, _ in [*self._calls, *self._codes]}


def _template(framework: str, table: dict[str, Any]) -> Template:
    where = f"fixes of {framework}: {table.get('calls') or table.get('codes')}"
    if ("replace" in table) == ("wrap" in table):
        raise ValueError(f"{where}: needs exactly one of `replace` and `wrap`")
    if ("calls" in table) == ("codes" in table):
        raise ValueError(f"{where}: needs exactly one of `calls` and `codes`")
    text = str(table.get("replace", table.get("wrap", "")))
    template = Template(
        framework=framework,
        template=text,
        wraps="wrap" in table,
        imports=tuple(_requirement(s, where) for s in table.get("imports", ())),
        args=str(table.get("args", "any")),
        position=str(table.get("position", "")),
        function=str(table.get("function", "")),
        entry=bool(table.get("entry", False)),
        safe=bool(table["safe"]),
        reason=str(table["reason"]),
        elements=str(table.get("elements", "")),
        runtime=bool(table.get("runtime", False)),
    )
    if template.args not in ARGS or template.position not in POSITIONS:
        raise ValueError(f"{where}: unknown args or position")
    if template.elements not in ELEMENTS:
        raise ValueError(f"{where}: unknown elements {template.elements!r}")
    if template.function not in FUNCTIONS:
        raise ValueError(f"{where}: unknown function {template.function!r}")
    if "..." not in text and template.args == "any" and not template.wraps:
        raise ValueError(f"{where}: a template that drops the arguments must say args")
    probe = text
    for placeholder in PLACEHOLDERS:
        probe = probe.replace(placeholder, "x")
    cst.parse_expression(probe)  # a template that is not an expression fails on loading
    return template


def _requirement(statement: str, where: str) -> Requirement:
    node = cst.parse_statement(statement)
    small = node.body[0] if isinstance(node, cst.SimpleStatementLine) else None
    if isinstance(small, cst.ImportFrom) and isinstance(small.names, (list, tuple)):
        module = small.module
        if len(small.names) == 1 and small.names[0].asname is None and module is not None:
            name = small.names[0].evaluated_name
            return Requirement(statement, f"{_dotted(module)}.{name}", name)
    if isinstance(small, cst.Import) and len(small.names) == 1 and small.names[0].asname is None:
        name = small.names[0].evaluated_name
        if "." not in name:
            return Requirement(statement, name, name)
    raise ValueError(f"{where}: import {statement!r} must be `from M import N` or `import M`")


def _dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    raise ValueError(f"not a dotted name: {node!r}")


@lru_cache(maxsize=1)
def default_data() -> FixData:
    """rules/fixes.toml (the runtime's and framework-independent fixes), and each framework
    record's own `[[fixes]]`."""
    with open(rules_dir() / "fixes.toml", "rb") as handle:
        data = tomllib.load(handle)
    for name, preset in presets().items():
        if preset.fixes:
            data[name] = list(preset.fixes)
    return FixData(data)

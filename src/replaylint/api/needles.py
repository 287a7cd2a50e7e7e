"""The prefilter's byte tests for one file's settings: its markers, then per framework the
needle, the import and entry patterns and the names the ast gate looks for."""

from __future__ import annotations

import re
from dataclasses import replace

from replaylint.parse.statement_starts import SPACE
from replaylint.presets.shipped import presets
from replaylint.project.config import Config
from replaylint.project.gate import Spelling, names_pattern
from replaylint.project.prefilter import BytesTest, Needles, entry_test, import_test

MARKER_NEEDLES = (b"__adk_workflow__",)
# needle -> (packages, entry needles, presets, declared decorators) of the frameworks sharing it
_Grouped = dict[str, tuple[list[str], list[bytes], list[str], list[str]]]


def needles_for(config: Config) -> Needles:
    """(marker needles, (framework needle, import test, entry test, entry names) per
    framework): the prefilter's byte tests, in the order they are tried. A file that imports a
    framework is parsed only when it also spells one of *that* framework's entries (or aliases
    it), so a Temporal test module that mentions a `Context` is not read as a Restate handler."""
    markers = MARKER_NEEDLES + tuple(m.encode() for m in config.markers)
    # A subclass of a `workflow-bases` class need not import the framework, nor name the base
    # (`class Ingest(Stage)`, `Stage` deriving from it elsewhere): with such settings, a module
    # that defines a class is read.
    if config.workflow_bases:
        markers += (b"class ",)
    grouped = _grouped(config)
    tests = []
    for needle in sorted(grouped):
        packages, spelled, chosen, decorators = grouped[needle]
        unique = sorted(set(packages))
        imported = import_test(unique)
        if imported is not None:
            entries = entry_test(sorted(set(spelled)), unique)
            in_code = names_pattern(chosen, decorators)
            tests.append((needle.encode(), imported, entries, in_code))
    through = _through_import(sorted({name for group in grouped.values() for name in group[2]}))
    if through is not None:
        tests.append(through)
    return markers, tuple(tests)


def _through_import(chosen: list[str]) -> tuple[bytes, BytesTest, BytesTest, Spelling] | None:
    """The test of a module that declares entries on an object it imports from another module
    of the project (`@inngest_client.create_function` after `from app.client import
    inngest_client`) without importing the framework: it imports something, and a decorator
    ends with one of the chosen frameworks' entry names; the ast gate then asks that the
    decorator's first name be one an import binds."""
    forms = sorted({form for name in chosen for form in presets()[name].cheap.names})
    if not forms:
        return None
    decorator = (
        rb"@[\s(\\]*\w+(?:[\s\\]*\.[\s\\]*\w+)*?[\s\\]*\.[\s\\]*(?:"
        + b"|".join(form.encode() for form in forms)
        + rb")\b"
    )
    imports = BytesTest([rb"from" + SPACE, rb"import" + SPACE])
    spelling = replace(names_pattern(chosen), through_import=True)
    return b"@", imports, BytesTest(anywhere=[decorator]), spelling


def _grouped(config: Config) -> _Grouped:
    """One substring per package (each record's `Cheap.needle`), shared where names overlap
    ("durable" covers three), since each needle is one more pass over every byte of a tree."""
    records = presets()
    names = tuple(records) if config.frameworks is None else config.frameworks
    grouped: _Grouped = {}
    # A package some record names as another's (Dapr's vendored durabletask is durabletask)
    # is imported as that framework: its entries are the framework's.
    renamed = {old: new for record in records.values() for old, new in record.aliases}
    for name in names:
        cheap = records[name].cheap
        own = records[name].packages
        aliases = [old for old, new in renamed.items() if _within(new, own)]
        # An alias is found by the framework's own needle ("durable" in Dapr's
        # `_durabletask`), never by one of its own: each needle is a pass over every byte.
        found_by = cheap.needle(own[0]) if own else ""
        aliases = [old for old in aliases if found_by and found_by in old]
        for package in [*own, *aliases]:
            needle = cheap.needle(package) if package in own else found_by
            packages, spelled, chosen, _ = grouped.setdefault(needle, ([], [], [], []))
            packages.append(package)
            spelled.extend(cheap.needles)
            chosen.append(name)
    # A declared workflow decorator's package counts as a framework's, and its name as an entry.
    for declared in config.workflow_decorators:
        package = declared.split(".")[0]
        needle = next(
            (r.cheap.needle(package) for r in records.values() if package in r.packages),
            package.split(".")[-1],
        )
        packages, spelled, _, decorators = grouped.setdefault(needle, ([], [], [], []))
        packages.append(package)
        spelled.append(rb"\b" + re.escape(declared.rsplit(".", 1)[-1].encode()) + rb"\b")
        decorators.append(declared)
    return grouped


def _within(path: str, packages: tuple[str, ...] | list[str]) -> bool:
    return any(path == p or path.startswith(p + ".") for p in packages)

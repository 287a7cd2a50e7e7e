"""A cheap second decision for files the byte prefilter lets through because they import a
framework and spell one of its entries somewhere: is that spelling in the code, or only in a
docstring, a comment or a string? CPython's `ast` answers at about a tenth of LibCST's parse,
so a framework's own source, or a test module that quotes `@workflow.defn` in a string, is never
parsed by LibCST only to find no workflow code in it.

The test is on names: every form by which a preset recognises an entry (a decorator, a class,
a registration call, a context's type, a keyword argument) uses one of its record's names
(`[cheap] names`) as an attribute, an imported name, a keyword or a string the evaluator folds (`getattr`). A module the
ast cannot read, or one with a star import, is kept: the engine decides.
"""

from __future__ import annotations

import ast
import re
import sys
import warnings
from collections.abc import Iterable
from dataclasses import dataclass

from replaylint.parse import pyast
from replaylint.presets.shipped import presets as records


@dataclass(frozen=True)
class Spelling:
    """How one framework's entries are spelled in code: names, and keyword arguments.

    `through_import`: the entries are declared on an object another module of the project
    made (`@inngest_client.create_function`, after `from app.client import inngest_client`),
    in a module that need not import the framework itself. Only a decorator counts then, and
    only on a name an import binds: the engine reads the other module to tell what it is."""

    names: re.Pattern[str]
    keywords: re.Pattern[str]
    through_import: bool = False
    # What such a name means where an import says it is no entry (`activity.defn` after
    # `from temporalio import activity`: an activity, which runs no workflow code).
    excluded: frozenset[str] = frozenset()


def names_pattern(presets: Iterable[str], declared: Iterable[str] = ()) -> Spelling:
    """The spelling of the entries of some presets and of the configuration's declared
    workflow decorators (by their last name: `app.workflow` is spelled `@app.workflow`)."""
    chosen = [records()[name].cheap for name in presets]
    forms = sorted({form for cheap in chosen for form in cheap.names})
    forms += sorted({re.escape(d.rsplit(".", 1)[-1]) for d in declared})
    # A keyword counts only where a record declares it (`defn=defn` in Temporal's own worker is
    # no entry; `@node(rerun_on_resume=True)` is one).
    keywords = sorted({form for cheap in chosen for form in cheap.keywords})
    excluded = frozenset(path for cheap in chosen for path in cheap.not_entries)
    return Spelling(_alternatives(forms), _alternatives(keywords), excluded=excluded)


def _alternatives(forms: list[str]) -> re.Pattern[str]:
    return re.compile("|".join(forms) or r"(?!)")


def spells_an_entry(data: bytes, frameworks: Iterable[Spelling]) -> bool:
    """Does the code of this module (not its strings or comments) use the name of an entry of
    one of `frameworks` (each one's record names, from names_pattern)?"""
    patterns = [spelling for spelling in frameworks if not spelling.through_import]
    imported = [spelling for spelling in frameworks if spelling.through_import]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarnings of odd escapes are the engine's
            tree = pyast.parse(data)
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        # The engine reports a framework's module it cannot read (and one only the prefilter
        # could read, saved as UTF-16); a file that imports no framework and was let through
        # only for a decorator's shape (a template, a Python 2 script) is no workflow code.
        return bool(patterns) or not imported
    return _uses_an_entry_name(tree, patterns) or (
        bool(imported) and _decorates_an_import(tree, imported)
    )


def _uses_an_entry_name(tree: ast.Module, patterns: list[Spelling]) -> bool:
    if not patterns:
        return False
    excluded = frozenset().union(*(s.excluded for s in patterns))
    imports: tuple[dict[str, str], dict[int, str]] | None = None  # read at the first match
    for node in ast.walk(tree):
        # A bare name never needs to count: an entry spelled by one was bound by an import
        # (its alias counts) or from an attribute (which counts), so `defn = lookup(fn)` in the
        # framework's own code is no entry.
        if isinstance(node, ast.keyword):
            if node.arg and any(s.keywords.fullmatch(node.arg) for s in patterns):
                return True
            continue
        if isinstance(node, ast.Attribute):
            found = node.attr
        elif isinstance(node, ast.alias):
            if node.name == "*":
                return True  # names it cannot see
            found = node.name.rsplit(".", 1)[-1]
        elif isinstance(node, (ast.Call, ast.Subscript)):
            # getattr(workflow, "defn"), vars(workflow)["defn"]: names the evaluator folds (a
            # string elsewhere, such as in `__all__`, names nothing that runs).
            texts = node.args if isinstance(node, ast.Call) else [node.slice]
            if any(
                isinstance(text, ast.Constant)
                and isinstance(text.value, str)
                and any(s.names.fullmatch(text.value) for s in patterns)
                for text in texts
            ):
                return True
            continue
        else:
            continue
        if not any(s.names.fullmatch(found) for s in patterns):
            continue
        if excluded:
            imports = imports or _imported(tree)
            bound, imported = imports
            named = _qualified(node, bound) if isinstance(node, ast.Attribute) else None
            if (named or imported.get(id(node))) in excluded:
                continue  # `activity.defn`: the name, but no entry
        return True
    return False


def _imported(tree: ast.Module) -> tuple[dict[str, str], dict[int, str]]:
    """What each name an absolute import binds is (`activity`: `temporalio.activity`), and
    the path each `from` import's name is read from, by its alias node."""
    bound: dict[str, str] = {}
    imported: dict[int, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    bound[alias.asname] = alias.name
                else:
                    top = alias.name.split(".")[0]
                    bound[top] = top
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            for alias in node.names:
                path = f"{node.module}.{alias.name}"
                bound[alias.asname or alias.name] = path
                imported[id(alias)] = path
    return bound, imported


def _qualified(node: ast.expr, bound: dict[str, str]) -> str | None:
    """`activity.defn` as the path an import makes of it: `temporalio.activity.defn`."""
    if not isinstance(node, ast.Attribute):
        return None
    parts = [node.attr]
    current: ast.expr = node.value
    while isinstance(current, ast.Attribute):
        parts.append(current.attr)
        current = current.value
    if not isinstance(current, ast.Name) or current.id not in bound:
        return None
    return ".".join([bound[current.id], *reversed(parts)])


def _decorates_an_import(tree: ast.Module, spellings: list[Spelling]) -> bool:
    """Is a function or class decorated by an entry name of some framework on an object an
    import binds (`@client.create_function(...)`, `@app.hatchet.durable_task()`)? The standard
    library makes no framework's objects, so its modules' names do not count."""
    bound: set[str] = set()
    heads: list[str] = []  # the first names of the decorators that end with an entry's name
    excluded = frozenset().union(*(s.excluded for s in spellings))
    paths: dict[str, str] | None = None  # read at the first decorator that would count
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            bound.update(
                alias.asname or alias.name.split(".")[0]
                for alias in node.names
                if alias.name.split(".")[0] not in sys.stdlib_module_names
            )
        elif isinstance(node, ast.ImportFrom):
            if node.level or (node.module or "").split(".")[0] not in sys.stdlib_module_names:
                bound.update(alias.asname or alias.name for alias in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for decorator, head in _entry_heads(node.decorator_list, spellings):
                if excluded:
                    paths = paths if paths is not None else _imported(tree)[0]
                    if _qualified(_called(decorator), paths) in excluded:
                        continue  # `@activity.defn`: no entry
                heads.append(head)
    # `from app.client import *` may bind any of them: the engine reads what it binds.
    return any(head in bound or "*" in bound for head in heads)


def _called(decorator: ast.expr) -> ast.expr:
    return decorator.func if isinstance(decorator, ast.Call) else decorator


def _entry_heads(
    decorators: list[ast.expr], spellings: list[Spelling]
) -> list[tuple[ast.expr, str]]:
    """The decorators that end with an entry's name, each with its first name."""
    heads = []
    for decorator in decorators:
        called = _called(decorator)
        if isinstance(called, ast.Attribute) and any(
            s.names.fullmatch(called.attr) for s in spellings
        ):
            head = called.value
            while isinstance(head, ast.Attribute):
                head = head.value
            if isinstance(head, ast.Name):
                heads.append((decorator, head.id))
    return heads

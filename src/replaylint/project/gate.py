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
import warnings
from collections.abc import Iterable
from dataclasses import dataclass

from replaylint.parse import pyast
from replaylint.presets.shipped import presets as records


@dataclass(frozen=True)
class Spelling:
    """How one framework's entries are spelled in code: names, and keyword arguments."""

    names: re.Pattern[str]
    keywords: re.Pattern[str]


def names_pattern(presets: Iterable[str], declared: Iterable[str] = ()) -> Spelling:
    """The spelling of the entries of some presets and of the configuration's declared
    workflow decorators (by their last name: `app.workflow` is spelled `@app.workflow`)."""
    chosen = [records()[name].cheap for name in presets]
    forms = sorted({form for cheap in chosen for form in cheap.names})
    forms += sorted({re.escape(d.rsplit(".", 1)[-1]) for d in declared})
    # A keyword counts only where a record declares it (`defn=defn` in Temporal's own worker is
    # no entry; `@node(rerun_on_resume=True)` is one).
    keywords = sorted({form for cheap in chosen for form in cheap.keywords})
    return Spelling(_alternatives(forms), _alternatives(keywords))


def _alternatives(forms: list[str]) -> re.Pattern[str]:
    return re.compile("|".join(forms) or r"(?!)")


def spells_an_entry(data: bytes, frameworks: Iterable[Spelling]) -> bool:
    """Does the code of this module (not its strings or comments) use the name of an entry of
    one of `frameworks` (each one's record names, from names_pattern)?"""
    patterns = list(frameworks)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarnings of odd escapes are the engine's
            tree = pyast.parse(data)
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        return True
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
        if any(s.names.fullmatch(found) for s in patterns):
            return True
    return False

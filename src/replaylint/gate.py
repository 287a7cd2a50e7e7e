"""A cheap second decision for files the byte prefilter lets through because they import a
framework and spell one of its entries somewhere: is that spelling in the code, or only in a
docstring, a comment or a string? CPython's `ast` answers at about a tenth of LibCST's parse,
so a framework's own source, or a test module that quotes `@workflow.defn` in a string, is never
parsed by LibCST only to find no workflow code in it.

The test is on names: every form by which a preset recognises an entry (a decorator, a class,
a registration call, a context's type, a keyword argument) uses one of its ENTRY_NAMES as a
name, an attribute, an imported name or a keyword in the code. A module the ast cannot read is
kept: the engine reports it.
"""

from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Iterable

from replaylint import pyast

# Per preset: the identifiers its entries are spelled with (whole names, as regular expressions),
# the code-level counterpart of prefilter.PRESET_ENTRY_NEEDLES.
ENTRY_NAMES: dict[str, tuple[str, ...]] = {
    "temporal": ("defn",),
    "dbos": ("workflow",),
    "restate": ("Service", "VirtualObject", "Workflow", r"\w*Context"),
    "azure": (
        "orchestration_trigger",
        "durable_openai_agent_orchestrator",
        "Orchestrator",
        "DurableOrchestrationContext",
    ),
    "durabletask": (r"add_(?:named_)?(?:orchestrator|activity)", "OrchestrationContext"),
    "aws": (
        "durable_execution",
        "durable_with_child_context",
        "durable_parallel_branch",
        "DurableContext",
    ),
    "mcp_agent": ("workflow",),
    "google_adk": ("rerun_on_resume", "require_confirmation", "auth_config"),
}


def names_pattern(presets: Iterable[str], declared: Iterable[str] = ()) -> re.Pattern[str]:
    """One pattern for the presets in force and the configuration's declared workflow
    decorators (by their last name: `app.workflow` is spelled `@app.workflow`)."""
    forms = sorted({form for name in presets for form in ENTRY_NAMES[name]})
    forms += sorted({re.escape(d.rsplit(".", 1)[-1]) for d in declared})
    return re.compile("|".join(forms) or r"(?!)")


def spells_an_entry(data: bytes, frameworks: Iterable[re.Pattern[str]]) -> bool:
    """Does the code of this module (not its strings or comments) use the name of an entry of
    one of `frameworks` (each one's ENTRY_NAMES, from names_pattern)?"""
    patterns = list(frameworks)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarnings of odd escapes are the engine's
            tree = pyast.parse(data)
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        return True
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            found = node.id
        elif isinstance(node, ast.Attribute):
            found = node.attr
        elif isinstance(node, ast.keyword):
            found = node.arg or ""
        elif isinstance(node, ast.alias):
            found = node.name.rsplit(".", 1)[-1]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            found = node.value  # getattr(workflow, "defn"): a name the evaluator folds
        else:
            continue
        if any(names.fullmatch(found) for names in patterns):
            return True
    return False

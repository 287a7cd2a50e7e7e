"""The hook through which a rule's own fix becomes a code action: asked of `replaylint.fixes`
when that module exists; without it (or without a fix for the finding) nothing is offered."""

from __future__ import annotations

import importlib
import importlib.util
import logging
from dataclasses import dataclass
from typing import Any

from replaylint.core.findings import Finding

log = logging.getLogger("replaylint.server")

FIXES_MODULE = "replaylint.fixes"


@dataclass(frozen=True)
class RuleFix:
    """A rule's fix for one finding: its title, the whole module text once it is applied, and
    whether `check --fix` would apply it (an unsafe one only with `--unsafe-fixes`)."""

    title: str
    fixed: str
    safe: bool


@dataclass(frozen=True)
class FixOffer:
    """A fix that applies to a finding, before its edit is worked out: how the action is titled
    and whether `check --fix` would apply it."""

    title: str
    safe: bool


def _fixes_module() -> Any | None:
    try:
        if importlib.util.find_spec(FIXES_MODULE) is None:
            return None
    except (ImportError, ValueError):
        return None
    return importlib.import_module(FIXES_MODULE)


def rule_fix(finding: Finding, source: str) -> RuleFix | None:
    """The rule's fix for `finding` in the module text `source`, as `replaylint.fixes` has it:
    `fix_for(finding, source)` describes it (title, safe) and `fix_source(source, [finding],
    unsafe=True)` applies exactly it, whatever its safety, since a person picks it here. Fixes
    are the catalog's to define, never this adapter's: no answer, no action."""
    module = _fixes_module()
    describe = getattr(module, "fix_for", None)
    fix_source = getattr(module, "fix_source", None)
    if describe is None or fix_source is None:
        return None
    try:
        info = describe(finding, source)
        if info is None:
            return None
        fixed, done = fix_source(source, [finding], unsafe=True)
    except Exception:  # a fix that fails must not take the editor's other actions with it
        log.exception("%s: the fix for %s failed", finding.path, finding.code.value)
        return None
    title = getattr(info, "title", None)
    if not isinstance(title, str) or not isinstance(fixed, str) or fixed == source or not done:
        return None
    return RuleFix(title, fixed, bool(getattr(info, "safe", False)))


def fix_offer(finding: Finding, source: str) -> FixOffer | None:
    """Whether the catalog's fix applies to `finding` in `source`, and its title, without
    working out the edit: `fix_for(finding, source)`. Findings the catalog has no fix for
    (`finding.fix` is None) cost nothing."""
    if getattr(finding, "fix", None) is None:
        return None
    module = _fixes_module()
    describe = getattr(module, "fix_for", None)
    if describe is None or getattr(module, "fix_source", None) is None:
        return None
    try:
        info = describe(finding, source)
    except Exception:  # a fix that fails must not take the editor's other actions with it
        log.exception("%s: the fix for %s failed", finding.path, finding.code.value)
        return None
    title = getattr(info, "title", None)
    if not isinstance(title, str):
        return None
    return FixOffer(title, bool(getattr(info, "safe", False)))

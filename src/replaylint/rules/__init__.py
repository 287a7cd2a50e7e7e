"""The built-in rules, registered explicitly and ordered by code."""

from __future__ import annotations

from replaylint.core.codes import Code
from replaylint.rules.base import Rule
from replaylint.rules.catalog_rule import CatalogRule
from replaylint.rules.dispatch import Dispatch
from replaylint.rules.environment import ProcessEnvironmentInWorkflow
from replaylint.rules.filesystem import FilesystemInWorkflow
from replaylint.rules.model_call import ModelCallInWorkflow
from replaylint.rules.module_state import ModuleStateInWorkflow
from replaylint.rules.network_io import NetworkCallInWorkflow
from replaylint.rules.random_id import RandomIdInWorkflow
from replaylint.rules.suppression import InvalidSuppression, UnusedSuppression
from replaylint.rules.threads import ThreadOrProcessInWorkflow
from replaylint.rules.unfoldable import UnfoldableAccess
from replaylint.rules.unordered_iteration import UnorderedIterationInWorkflow
from replaylint.rules.unreadable import UnreadableWorkflowModule
from replaylint.rules.unsafe_helper import UnsafeHelperCall
from replaylint.rules.wall_clock import WallClockInWorkflow

UNSAFE_HELPER = UnsafeHelperCall()

ALL_RULES: tuple[Rule, ...] = (
    ModelCallInWorkflow(),
    RandomIdInWorkflow(),
    WallClockInWorkflow(),
    NetworkCallInWorkflow(),
    UNSAFE_HELPER,
    UnfoldableAccess(),
    ProcessEnvironmentInWorkflow(),
    FilesystemInWorkflow(),
    ThreadOrProcessInWorkflow(),
    UnorderedIterationInWorkflow(),
    ModuleStateInWorkflow(),
    UnreadableWorkflowModule(),
    UnusedSuppression(),
    InvalidSuppression(),
)

_BY_CODE: dict[Code, Rule] = {rule.code: rule for rule in ALL_RULES}

# The catalog says what an API does; these rules say which code that is.
CATEGORY_OF: dict[Code, str] = {
    rule.code: rule.category for rule in ALL_RULES if isinstance(rule, CatalogRule)
}


def rule_for(code: Code) -> Rule:
    return _BY_CODE[code]


def dispatch() -> Dispatch:
    """The fact dispatch of every built-in rule (selection is applied to the findings after)."""
    return Dispatch(ALL_RULES)


__all__ = ["ALL_RULES", "CATEGORY_OF", "UNSAFE_HELPER", "Dispatch", "Rule", "dispatch", "rule_for"]

"""The built-in rules, registered explicitly and ordered by code."""

from __future__ import annotations

from replaylint.core.codes import Code
from replaylint.rules.base import Rule
from replaylint.rules.dispatch import Dispatch
from replaylint.rules.filesystem_in_workflow import FilesystemInWorkflow
from replaylint.rules.invalid_suppression import InvalidSuppression
from replaylint.rules.model_call_in_workflow import ModelCallInWorkflow
from replaylint.rules.module_state_in_workflow import ModuleStateInWorkflow
from replaylint.rules.network_call_in_workflow import NetworkCallInWorkflow
from replaylint.rules.process_environment_in_workflow import ProcessEnvironmentInWorkflow
from replaylint.rules.random_id_in_workflow import RandomIdInWorkflow
from replaylint.rules.thread_or_process_in_workflow import ThreadOrProcessInWorkflow
from replaylint.rules.unfoldable_access import UnfoldableAccess
from replaylint.rules.unordered_iteration_in_workflow import UnorderedIterationInWorkflow
from replaylint.rules.unreadable_workflow_module import UnreadableWorkflowModule
from replaylint.rules.unsafe_helper_call import UnsafeHelperCall
from replaylint.rules.unused_suppression import UnusedSuppression
from replaylint.rules.wall_clock_in_workflow import WallClockInWorkflow

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


def rule_for(code: Code) -> Rule:
    return _BY_CODE[code]


def dispatch() -> Dispatch:
    """The fact dispatch of every built-in rule (selection is applied to the findings after)."""
    return Dispatch(ALL_RULES)


__all__ = ["ALL_RULES", "UNSAFE_HELPER", "Dispatch", "Rule", "dispatch", "rule_for"]

"""The built-in rules, registered explicitly and ordered by code."""

from __future__ import annotations

from replaylint.codes import Code
from replaylint.rules.base import Rule
from replaylint.rules.model_call import ModelCallInWorkflow
from replaylint.rules.network_io import NetworkCallInWorkflow
from replaylint.rules.random_id import RandomIdInWorkflow
from replaylint.rules.suppression import InvalidSuppression, UnusedSuppression
from replaylint.rules.unfoldable import UnfoldableAccess
from replaylint.rules.unreadable import UnreadableWorkflowModule
from replaylint.rules.unsafe_helper import UnsafeHelperCall
from replaylint.rules.wall_clock import WallClockInWorkflow

ALL_RULES: tuple[Rule, ...] = (
    ModelCallInWorkflow(),
    RandomIdInWorkflow(),
    WallClockInWorkflow(),
    NetworkCallInWorkflow(),
    UnsafeHelperCall(),
    UnfoldableAccess(),
    UnreadableWorkflowModule(),
    UnusedSuppression(),
    InvalidSuppression(),
)

_BY_CODE: dict[Code, Rule] = {rule.code: rule for rule in ALL_RULES}


def rule_for(code: Code) -> Rule:
    return _BY_CODE[code]

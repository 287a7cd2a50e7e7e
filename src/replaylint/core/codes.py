"""The rule codes and their metadata; the only place a code is spelled."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Code(str, enum.Enum):
    W001 = "ADK-W001"
    W002 = "ADK-W002"
    W003 = "ADK-W003"
    W004 = "ADK-W004"
    W005 = "ADK-W005"
    W006 = "ADK-W006"
    W007 = "ADK-W007"
    W008 = "ADK-W008"
    W009 = "ADK-W009"
    W010 = "ADK-W010"
    W011 = "ADK-W011"
    E001 = "ADK-E001"
    S001 = "ADK-S001"
    S002 = "ADK-S002"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class RuleMeta:
    code: Code
    slug: str
    finding: str  # the message template; "{call}" is the call as written
    remedy: str


RULES: dict[Code, RuleMeta] = {
    meta.code: meta
    for meta in (
        RuleMeta(
            Code.W001,
            "model-call-in-workflow",
            "a model provider is called on the workflow path ({call})",
            "call it through model_call_activity, which records its result in history",
        ),
        RuleMeta(
            Code.W002,
            "random-id-in-workflow",
            "a random value or id is drawn on the workflow path ({call})",
            "use DeterministicIds, or take the id from an activity result",
        ),
        RuleMeta(
            Code.W003,
            "wall-clock-in-workflow",
            "the wall clock is used on the workflow path ({call})",
            "use WorkflowClock, whose instants come from the run's own state",
        ),
        RuleMeta(
            Code.W004,
            "network-call-in-workflow",
            "network I/O is done on the workflow path ({call})",
            "move it into an activity, where its result is recorded once",
        ),
        RuleMeta(
            Code.W005,
            "unsafe-helper-call",
            "a helper that is itself unsafe is called on the workflow path ({call})",
            "move the helper behind an activity",
        ),
        RuleMeta(
            Code.W006,
            "unfoldable-access",
            "an access the guard cannot fold is on the workflow path ({call})",
            "spell the access out statically, or move it behind an activity",
        ),
        RuleMeta(
            Code.W007,
            "process-environment-in-workflow",
            "the process or host environment is read on the workflow path ({call})",
            "pass it in as workflow input, or read it in an activity",
        ),
        RuleMeta(
            Code.W008,
            "filesystem-in-workflow",
            "the filesystem is used on the workflow path ({call})",
            "move the file access into an activity",
        ),
        RuleMeta(
            Code.W009,
            "thread-or-process-in-workflow",
            "a thread, process or executor is started on the workflow path ({call})",
            "use the framework's own concurrency, or move the work into an activity",
        ),
        RuleMeta(
            Code.W010,
            "unordered-iteration-in-workflow",
            "an order that depends on hashing or memory decides the workflow ({call})",
            "iterate in a defined order: stable(...) or sorted(...)",
        ),
        RuleMeta(
            Code.W011,
            "module-state-in-workflow",
            "module state is written from the workflow path ({call})",
            "keep run state in the workflow's inputs or its own instance",
        ),
        RuleMeta(
            Code.E001,
            "unreadable-workflow-module",
            "the workflow module cannot be read or parsed ({call})",
            "fix the syntax or encoding; the module was not checked",
        ),
        RuleMeta(
            Code.S001,
            "unused-suppression",
            "a suppression comment matches no finding ({call})",
            "remove the comment, or the codes in it that no longer apply",
        ),
        RuleMeta(
            Code.S002,
            "invalid-suppression",
            "a suppression comment names an unknown code or none ({call})",
            "name the codes it silences: # replaylint: ignore[ADK-W003] -- reason",
        ),
    )
}


def parse_code(text: str) -> Code | None:
    """A code from its spelling (`ADK-W003`) or its slug (`wall-clock-in-workflow`)."""
    text = text.strip()
    for code, meta in RULES.items():
        if text.upper() == code.value or text.lower() == meta.slug:
            return code
    return None


def matches_prefix(code: Code, selector: str) -> bool:
    """True when a `--select`/`--ignore` entry (a code, a prefix such as `ADK-W`, or a slug) names code."""
    selector = selector.strip()
    if selector.lower() == RULES[code].slug:
        return True
    return code.value.startswith(selector.upper())


def is_known_selector(selector: str) -> bool:
    return any(matches_prefix(code, selector) for code in Code)

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
    V001 = "ADK-V001"
    V002 = "ADK-V002"
    V003 = "ADK-V003"
    V004 = "ADK-V004"

    def __str__(self) -> str:
        return self.value


# What decides a rule's findings: a category of rules/catalog.toml (the APIs are data), facts
# the evaluator hands it (a pattern), the call graph (helpers), a module that cannot be read,
# a suppression comment itself, or two versions of the code compared (`check --base`).
CATALOG, PATTERN, GRAPH, MODULE, COMMENT = "catalog", "pattern", "graph", "module", "comment"
VERSIONING = "versioning"


@dataclass(frozen=True)
class RuleMeta:
    """Everything known of a rule that is not how it decides: the one place it is spelled."""

    code: Code
    slug: str  # kebab-case; the rule's module is rules/<slug with underscores>.py
    finding: str  # the message template; "{call}" is the call as written
    remedy: str  # ours; a framework record's remedy for the code replaces it in its code
    kind: str  # CATALOG, PATTERN, GRAPH, MODULE, COMMENT or VERSIONING
    category: str = ""  # a catalog rule's category in rules/catalog.toml
    severity: str = "error"  # "warning": about the comments, not about replay
    suppressible: bool = True  # a `# replaylint: ignore[...]` comment may silence it
    fixable: bool = False  # some entry of the fix data fixes some of its findings
    framework_remedies: bool = True  # every framework record names its own remedy for it

    @property
    def module(self) -> str:
        return self.slug.replace("-", "_")


def _meta(code: Code, slug: str, finding: str, remedy: str, kind: str, **more: object) -> RuleMeta:
    return RuleMeta(code, slug, finding, remedy, kind, **more)  # type: ignore[arg-type]


RULES: dict[Code, RuleMeta] = {
    meta.code: meta
    for meta in (
        _meta(
            Code.W001,
            "model-call-in-workflow",
            "a model provider is called on the workflow path ({call})",
            "call it through model_call_activity, which records its result in history",
            CATALOG,
            category="model-call",
        ),
        _meta(
            Code.W002,
            "random-id-in-workflow",
            "a random value or id is drawn on the workflow path ({call})",
            "use DeterministicIds, or take the id from an activity result",
            CATALOG,
            category="randomness",
            fixable=True,
        ),
        _meta(
            Code.W003,
            "wall-clock-in-workflow",
            "the wall clock is used on the workflow path ({call})",
            "use WorkflowClock, whose instants come from the run's own state",
            CATALOG,
            category="clock",
            fixable=True,
        ),
        _meta(
            Code.W004,
            "network-call-in-workflow",
            "network I/O is done on the workflow path ({call})",
            "move it into an activity, where its result is recorded once",
            CATALOG,
            category="network",
        ),
        _meta(
            Code.W005,
            "unsafe-helper-call",
            "a helper that is itself unsafe is called on the workflow path ({call})",
            "move the helper behind an activity",
            GRAPH,
        ),
        _meta(
            Code.W006,
            "unfoldable-access",
            "an access the guard cannot fold is on the workflow path ({call})",
            "spell the access out statically, or move it behind an activity",
            PATTERN,
            framework_remedies=False,
        ),
        _meta(
            Code.W007,
            "process-environment-in-workflow",
            "the process or host environment is read on the workflow path ({call})",
            "pass it in as workflow input, or read it in an activity",
            CATALOG,
            category="environment",
        ),
        _meta(
            Code.W008,
            "filesystem-in-workflow",
            "the filesystem is used on the workflow path ({call})",
            "move the file access into an activity",
            CATALOG,
            category="filesystem",
        ),
        _meta(
            Code.W009,
            "thread-or-process-in-workflow",
            "a thread, process or executor is started on the workflow path ({call})",
            "use the framework's own concurrency, or move the work into an activity",
            CATALOG,
            category="threads",
        ),
        _meta(
            Code.W010,
            "unordered-iteration-in-workflow",
            "an order that depends on hashing or memory decides the workflow ({call})",
            "iterate in a defined order: stable(...) or sorted(...)",
            PATTERN,
            fixable=True,
        ),
        _meta(
            Code.W011,
            "module-state-in-workflow",
            "module state is written from the workflow path ({call})",
            "keep run state in the workflow's inputs or its own instance",
            PATTERN,
        ),
        _meta(
            Code.E001,
            "unreadable-workflow-module",
            "the workflow module cannot be read or parsed ({call})",
            "fix the syntax or encoding; the module was not checked",
            MODULE,
            suppressible=False,
            framework_remedies=False,
        ),
        _meta(
            Code.S001,
            "unused-suppression",
            "a suppression comment matches no finding ({call})",
            "remove the comment, or the codes in it that no longer apply",
            COMMENT,
            severity="warning",
            suppressible=False,
            framework_remedies=False,
        ),
        _meta(
            Code.S002,
            "invalid-suppression",
            "a suppression comment names an unknown code or none ({call})",
            "name the codes it silences: # replaylint: ignore[ADK-W003] -- reason",
            COMMENT,
            severity="warning",
            suppressible=False,
            framework_remedies=False,
        ),
        # Versioning: a comparison of two versions, never one module's walk; a comment cannot
        # silence them, since it would outlive the change it excuses and hide the next one
        # on its line (`--ignore ADK-V001` skips them for one run).
        # Their remedies here are the runtime's (replaylint.workflows): each framework record
        # names its own gate and name APIs.
        _meta(
            Code.V001,
            "unversioned-command-change",
            "a durable command changed where runs in flight replay ({call})",
            'gate the change: if ctx.patched("id"): <new commands> else: <the old ones>; '
            'ctx.patches.deprecated("id") once the old runs have closed',
            VERSIONING,
            suppressible=False,
        ),
        _meta(
            Code.V002,
            "workflow-name-change",
            "a workflow was renamed or removed while runs in flight replay under its old name "
            "({call})",
            'keep the registered name with @workflow(name="...") until no run of it is left',
            VERSIONING,
            suppressible=False,
        ),
        _meta(
            Code.V003,
            "patch-removed-early",
            "a version gate was removed or renamed while runs may still depend on it ({call})",
            'ship ctx.patches.deprecated("id") with only the new branch first, and delete the '
            "call in a later release, once no run that took the old branch is open",
            VERSIONING,
            suppressible=False,
        ),
        _meta(
            Code.V004,
            "handler-removed",
            "a signal, update or query handler was removed or renamed while runs in flight, "
            "or their clients, may still send it ({call})",
            "keep the handler under its old name until no run or client still sends it",
            VERSIONING,
            suppressible=False,
        ),
    )
}

# Derived once from RULES: nothing else restates which codes are which.
CATALOG_CODES = tuple(code for code, meta in RULES.items() if meta.kind == CATALOG)
COMMENT_CODES = frozenset(code for code, meta in RULES.items() if meta.kind == COMMENT)
WARNING_CODES = frozenset(code for code, meta in RULES.items() if meta.severity == "warning")
UNSUPPRESSIBLE_CODES = frozenset(code for code, meta in RULES.items() if not meta.suppressible)
CATEGORY_OF = {code: meta.category for code, meta in RULES.items() if meta.kind == CATALOG}
# Decided by comparing two versions of the code (`check --base`), not by a rule of the walk.
VERSIONING_CODES = tuple(code for code, meta in RULES.items() if meta.kind == VERSIONING)
WALK_CODES = tuple(code for code in RULES if code not in VERSIONING_CODES)


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

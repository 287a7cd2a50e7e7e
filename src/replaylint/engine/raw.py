"""Raw findings: what the rules reported on a workflow module's path, before positions."""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from replaylint.core.codes import Code
from replaylint.core.findings import ChainLink, FixRef
from replaylint.engine.confirm import KEEP, Verdicts
from replaylint.engine.project import Project
from replaylint.graph.callgraph import Hop, UnsafeHelpers
from replaylint.graph.flow import Decision
from replaylint.resolve.model import ModuleInfo
from replaylint.rules import UNSAFE_HELPER, rule_for


@dataclass(eq=False)
class Raw:
    """A finding before positions: `where` holds `node` in its innermost `statement`;
    `context` is the workflow module it was found for (its frameworks pick the remedy)."""

    code: Code
    where: ModuleInfo
    node: cst.CSTNode
    statement: cst.CSTNode | None
    call: str
    context: ModuleInfo
    chain: list[Hop] = field(default_factory=list)
    tail: tuple[ChainLink, ...] = ()  # hops inside followed installed code
    remedy: str = ""  # the rule's remedy for this case, decided where the finding is made
    fix: FixRef | None = None  # a direct finding in workflow code: what a fix needs
    says: str = ""  # a decision-aware finding: what its message adds ("it reaches") ...
    decision: Decision | None = None  # ... and what its value reaches


def findings_for(
    project: Project,
    module: ModuleInfo,
    helpers: UnsafeHelpers,
    verdicts: Verdicts | None = None,
) -> list[Raw]:
    """The raw findings of one workflow module.

    What the rules reported on each function of its workflow path, less what is exempt or safe in
    its frameworks, then the calls of helpers that reach a root (read from the call graph).
    """
    raw: list[Raw] = []
    safe = project.safe_paths(module)
    frameworks = project.frameworks
    for function in module.workflow_path():
        if function.is_exempt() or project.declared_safe(function):
            continue
        where = function.module  # a reached helper's own line is reported in its own file
        for hit in function.hits:
            if hit.governed and hit.path not in safe and function.replays(hit.statement):
                rule = rule_for(hit.code)
                reason = verdicts.reason(hit, module) if verdicts is not None else KEEP
                if reason is None:
                    continue  # the value decides nothing a replay depends on
                raw.append(
                    Raw(
                        code=hit.code,
                        where=where,
                        node=hit.node,
                        statement=hit.statement,
                        call=hit.call,
                        context=module,
                        tail=hit.tail,
                        remedy=rule.remedy(module, frameworks, function.entry),
                        fix=rule.fix_ref(hit, function, frameworks),
                        says=reason.says,
                        decision=reason.decision,
                    )
                )
        for call, chain in UNSAFE_HELPER.findings(function, helpers):
            raw.append(
                Raw(
                    code=UNSAFE_HELPER.code,
                    where=where,
                    node=call.node,
                    statement=call.statement,
                    call=call.call,
                    context=module,
                    chain=chain,
                    tail=chain[-1].tail if chain else (),
                    remedy=UNSAFE_HELPER.remedy_at(call.target, module, frameworks, function.entry),
                )
            )
    return raw

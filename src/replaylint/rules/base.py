"""The Rule bases: a rule has a code; a fact rule subscribes to evaluator facts and reports on them.

Rules never walk, parse, read comments or print: the evaluator hands them facts (resolve/facts.py),
`report` records what they decide on the function the fact is in, and the engine keeps what lies
on the workflow path.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

import libcst as cst

from replaylint.core.codes import RULES, Code, RuleMeta
from replaylint.core.findings import ChainLink, FixRef
from replaylint.graph.flow import Decision, Flow
from replaylint.resolve.facts import Fact
from replaylint.resolve.model import Hit

if TYPE_CHECKING:
    from replaylint.presets.frameworks import Frameworks
    from replaylint.resolve.model import FunctionInfo, ModuleInfo


class Rule:
    code: ClassVar[Code]

    @property
    def meta(self) -> RuleMeta:
        return RULES[self.code]

    def remedy(
        self,
        module: ModuleInfo | None = None,
        frameworks: Frameworks | None = None,
        entry: str | None = None,
    ) -> str:
        """What to do instead: the framework's own replacement in its workflow code, else ours.
        `entry`: the framework of the entry the finding is in, first (a module may hold a DBOS
        workflow beside a Temporal one)."""
        if module is not None and frameworks is not None and not module.marked:
            for name in _first(entry, module.frameworks):
                preset = frameworks.get(name)
                remedy = preset.remedy(self.code.value) if preset is not None else None
                if remedy is not None:
                    return remedy
        return self.meta.remedy

    def fix_ref(self, hit: Hit, function: FunctionInfo, frameworks: Frameworks) -> FixRef | None:
        """What a fix of a direct finding needs, when the module holding it is workflow code
        itself (a plain helper module that a workflow reaches is not: a framework's API may
        fail there). The same hit gets the same answer whichever workflow module reached it."""
        home = function.module
        if hit.tail or not home.is_workflow:
            return None
        if home.marked:
            return FixRef(hit.path, "runtime")
        framework = function.entry or next(iter(home.frameworks), "")
        if not framework:
            return None
        context = _context_name(function, frameworks)
        return FixRef(hit.path, framework, function.entry is not None, context)


def _first(entry: str | None, names: Iterable[str]) -> list[str]:
    return [entry, *(n for n in names if n != entry)] if entry else list(names)


def _context_name(function: FunctionInfo, frameworks: Frameworks) -> str:
    """The run-context parameter of a framework entry, as written (as resolve binds it)."""
    preset = frameworks.get(function.entry or "")
    node = function.node
    if preset is None or preset.context_param is None or not isinstance(node, cst.FunctionDef):
        return ""
    positional = [*node.params.posonly_params, *node.params.params]
    if function.cls is not None:
        positional = positional[1:]
    if len(positional) <= preset.context_param:
        return ""
    return positional[preset.context_param].name.value


@dataclass(frozen=True)
class Reason:
    """Why a decision-aware finding is kept: what the message adds (`says`, e.g. "it reaches"),
    and the decision its value reaches, whose place ends the sentence."""

    says: str
    decision: Decision | None = None


@dataclass(frozen=True)
class Replay:
    """What confirming a finding may ask: how values flow on the workflow path of `module`
    (the workflow module the finding is reported for), and the frameworks' replay facts."""

    module: ModuleInfo
    flow: Flow
    frameworks: Frameworks
    unsandboxed: frozenset[str] = frozenset()  # workflow classes a worker runs unsandboxed
    # ids of the path's functions run at most once per process: a cached function without
    # parameters (`@lru_cache def get_settings()`) and what only it reaches.
    once: frozenset[int] = frozenset()


class FactRule(Rule, ABC):
    """A rule that decides on facts: `facts` names the types it is handed, `on_fact` decides."""

    facts: ClassVar[tuple[type[Fact], ...]]

    def confirm(self, hit: Hit, function: FunctionInfo, replay: Replay) -> Reason | None:
        """For a hit reported `pending`: keep it (and say why) or drop it, once the workflow
        path is known. A hit reported without `pending` never comes here."""
        return Reason("")

    @abstractmethod
    def on_fact(self, fact: Fact) -> None:
        """Decide on one fact of a subscribed type; call `report` for a finding."""

    def report(
        self,
        fact: Fact,
        call: str,
        reason: str,
        path: str = "",
        propagates: bool = True,
        tail: tuple[ChainLink, ...] = (),
        pending: str = "",
    ) -> None:
        """Record a finding at the fact's node; the engine reports it when the function it is in
        turns out to be on a workflow path (and propagates it to callers as ADK-W005)."""
        site = fact.site
        site.function.hits.append(
            Hit(
                code=self.code,
                node=fact.node,
                call=call,
                reason=reason,
                governed=site.governed,
                path=path,
                dead=site.dead,
                propagates=propagates,
                statement=site.statement,
                tail=tail,
                pending=pending,
            )
        )

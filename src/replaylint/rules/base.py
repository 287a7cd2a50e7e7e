"""The Rule bases: a rule has a code; a fact rule subscribes to evaluator facts and reports on them.

Rules never walk, parse, read comments or print: the evaluator hands them facts (resolve/facts.py),
`report` records what they decide on the function the fact is in, and the engine keeps what lies
on the workflow path.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, ClassVar

from replaylint.core.codes import RULES, Code, RuleMeta
from replaylint.resolve.facts import Fact
from replaylint.resolve.model import Hit

if TYPE_CHECKING:
    from replaylint.presets.frameworks import Frameworks
    from replaylint.resolve.model import ModuleInfo


class Rule:
    code: ClassVar[Code]

    @property
    def meta(self) -> RuleMeta:
        return RULES[self.code]

    def remedy(self, module: ModuleInfo | None = None, frameworks: Frameworks | None = None) -> str:
        """What to do instead: the framework's own replacement in its workflow code, else ours."""
        if module is not None and frameworks is not None and not module.marked:
            for name in module.frameworks:
                preset = frameworks.get(name)
                if preset is not None and self.code in preset.remedies:
                    return preset.remedies[self.code]
        return self.meta.remedy


class FactRule(Rule, ABC):
    """A rule that decides on facts: `facts` names the types it is handed, `on_fact` decides."""

    facts: ClassVar[tuple[type[Fact], ...]]

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
        tail: tuple[tuple[str, int, str], ...] = (),
    ) -> None:
        """Record a finding at the fact's node; the engine reports it when the function it is in
        turns out to be on a workflow path (and propagates it to callers as ADK-W005)."""
        site = fact.site
        site.function.hits.append(
            Hit(
                self.code,
                fact.node,
                call,
                reason,
                site.governed,
                path,
                site.dead,
                propagates,
                site.statement,
                tail,
            )
        )

"""ADK-W005 unsafe-helper-call: a call to a helper of the checked code that reaches an unsafe root. Docs and examples: rules/ADK-W005.md."""

from __future__ import annotations

import logging
from collections.abc import Iterator

from replaylint.core.codes import Code
from replaylint.core.findings import FixRef
from replaylint.graph.callgraph import Hop, UnsafeHelpers
from replaylint.presets.frameworks import Frameworks
from replaylint.resolve.facts import Call, Fact
from replaylint.resolve.model import FunctionInfo, HelperCall, Hit, ModuleInfo
from replaylint.rules.base import FactRule

log = logging.getLogger("replaylint")


class UnsafeHelperCall(FactRule):
    """Reads the call graph: a governed call whose target reaches a root, with the chain to it;
    and a call into a followed installed package whose function reaches one (`follow`)."""

    code = Code.W005
    facts = (Call,)

    def on_fact(self, fact: Fact) -> None:
        assert isinstance(fact, Call)
        if fact.installed:
            reason = f"reaches {fact.installed[-1].call} in installed code"
            self.report(fact, fact.call, reason, fact.path, tail=fact.installed)

    def fix_ref(self, hit: Hit, function: FunctionInfo, frameworks: Frameworks) -> FixRef | None:
        return None  # a helper is moved, not replaced: no fix

    def remedy_at(
        self,
        target: FunctionInfo,
        module: ModuleInfo,
        frameworks: Frameworks,
        entry: str | None = None,
    ) -> str:
        """An activity called directly runs inline: it is already an activity, so the remedy
        is to run it as one (its framework's way), not to move it into one."""
        if target.activity == "inline":
            for name in module.frameworks:
                preset = frameworks.get(name)
                remedy = preset.remedy("inline-activity") if preset is not None else None
                if remedy:
                    return remedy
        return self.remedy(module, frameworks, entry)

    def findings(
        self, function: FunctionInfo, helpers: UnsafeHelpers
    ) -> Iterator[tuple[HelperCall, list[Hop]]]:
        for call in function.calls:
            # A function calling itself adds no path to a root: its own are reported in it.
            if call.target is function:
                continue
            if call.governed and call.reported and function.replays(call.statement):
                chain = helpers.chain(call.target)
                if chain is not None:
                    if log.isEnabledFor(logging.DEBUG):  # the whole chain, however long
                        log.debug(
                            "%s: %s unsafe: %s",
                            function.module.display,
                            call.call,
                            " -> ".join(s.call for s in chain),
                        )
                    yield call, chain

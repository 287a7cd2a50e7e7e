"""The rules' side of the walk: each fact type goes to the rules that subscribe to it."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from replaylint.resolve.facts import Fact
from replaylint.rules.base import FactRule, Rule


class Dispatch:
    """A FactSink for the evaluator: `subscribed` tells it which facts are worth building."""

    def __init__(self, rules: Iterable[Rule]) -> None:
        handlers: dict[type[Fact], list[Callable[[Fact], None]]] = {}
        for rule in rules:
            if isinstance(rule, FactRule):
                for kind in rule.facts:
                    handlers.setdefault(kind, []).append(rule.on_fact)
        self._handlers = {kind: tuple(found) for kind, found in handlers.items()}
        self.subscribed = frozenset(self._handlers)

    def emit(self, fact: Fact) -> None:
        for handle in self._handlers[type(fact)]:
            handle(fact)

"""CatalogRule: a rule whose unsafe APIs are one category of rules/catalog.toml (W001-W004)."""

from __future__ import annotations

from typing import ClassVar

from replaylint.resolve.facts import Call, Fact, Reference
from replaylint.rules.base import FactRule


class CatalogRule(FactRule):
    """Reports every call of (and every hand-off of) an API the catalog puts in `category`.

    The evaluator has already resolved the callee through imports, aliases, computed access and
    rebinding, and looked it up in the catalog with the call's arguments: the rule only decides
    that this category is its own.
    """

    category: ClassVar[str]
    facts = (Call, Reference)

    def on_fact(self, fact: Fact) -> None:
        assert isinstance(fact, (Call, Reference))
        entry = fact.entry
        if entry is not None and entry.category == self.category:
            self.report(fact, fact.call, entry.reason, fact.path)

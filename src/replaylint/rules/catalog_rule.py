"""CatalogRule: a rule whose unsafe APIs are one category of rules/catalog.toml."""

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

    facts = (Call, Reference)
    pending: ClassVar[str] = ""  # "flow": kept only where the value decides (see confirm)

    @property
    def category(self) -> str:
        return self.meta.category  # core/codes.py names each catalog rule's category

    def on_fact(self, fact: Fact) -> None:
        assert isinstance(fact, (Call, Reference))
        entry = fact.entry
        if entry is not None and entry.category == self.category:
            self.report(fact, fact.call, entry.reason, fact.path, pending=self.pending)

"""The Rule base: a code, its message and its remedy; rules never walk, parse or print."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from replaylint.codes import RULES, Code, RuleMeta

if TYPE_CHECKING:
    from replaylint.resolve.scopes import ModuleInfo


class Rule:
    code: ClassVar[Code]

    @property
    def meta(self) -> RuleMeta:
        return RULES[self.code]

    def message(self, call: str) -> str:
        return self.meta.finding.format(call=call)

    def remedy(self, module: "ModuleInfo | None" = None) -> str:
        """What to do instead; framework presets may give a more precise answer."""
        return self.meta.remedy

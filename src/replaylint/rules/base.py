"""The Rule base: a code, its message and its remedy; rules never walk, parse or print."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from replaylint.codes import RULES, Code, RuleMeta

if TYPE_CHECKING:
    from replaylint.resolve.frameworks import Frameworks
    from replaylint.resolve.scopes import ModuleInfo


class Rule:
    code: ClassVar[Code]

    @property
    def meta(self) -> RuleMeta:
        return RULES[self.code]

    def remedy(self, module: "ModuleInfo | None" = None, frameworks: "Frameworks | None" = None) -> str:
        """What to do instead: the framework's own replacement in its workflow code, else ours."""
        if module is not None and frameworks is not None and not module.marked:
            for name in module.frameworks:
                preset = frameworks.get(name)
                if preset is not None and self.code in preset.remedies:
                    return preset.remedies[self.code]
        return self.meta.remedy

"""replaylint.fixes: rewrites calls that break replay into their framework's deterministic
equivalents, as rules/fixes.toml lists them, for `check --fix` and the editor's code actions."""

from replaylint.fixes.api import FileFix, FixInfo, apply, fix_for, fix_source, fixable, plan

__all__ = ["FileFix", "FixInfo", "apply", "fix_for", "fix_source", "fixable", "plan"]

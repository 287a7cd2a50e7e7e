"""The editor's settings for the server, read alike from `initializationOptions` and from the
workspace configuration's `replaylint` section: what each one means, never what it does."""

from __future__ import annotations

from typing import Any, NamedTuple

SECTION = "replaylint"  # the workspace configuration section the server asks for


class BaseSetting(NamedTuple):
    """The `base` setting: the git ref `check --base` takes, or None for no comparison."""

    given: bool  # do these options mention it at all (else what was set stays)
    ref: str | None = None


def base_setting(options: Any) -> BaseSetting:
    """The `base` setting of these options, flat (`{"base": "origin/main"}`) or under the
    section (`{"replaylint": {"base": ...}}`); null or "" turns the comparison off."""
    if isinstance(options, dict) and isinstance(options.get(SECTION), dict):
        options = options[SECTION]
    if not isinstance(options, dict) or "base" not in options:
        return BaseSetting(False)
    base = options["base"]
    return BaseSetting(True, (base.strip() or None) if isinstance(base, str) else None)

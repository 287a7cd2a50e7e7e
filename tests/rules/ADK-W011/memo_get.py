"""A memo filled when its entry, read with .get into a local, is missing: what it keeps is a
function of the key, the same on a hit as on a miss."""
import re

from dbos import DBOS

_PATTERNS: dict[str, re.Pattern[str]] = {}
_LAST: dict[str, str] = {}


def wildcard(value: str, pattern: str) -> bool:
    compiled = _PATTERNS.get(pattern)
    if compiled is None:
        compiled = re.compile(re.escape(pattern).replace(r"\*", ".*"))
        _PATTERNS[pattern] = compiled
    return compiled.match(value) is not None


def remember(user: str, value: str) -> str:
    seen = _LAST.get(user)
    _LAST[user] = value  # expect: ADK-W011
    return seen or value


@DBOS.workflow()
def allowed(tool: str, user: str) -> bool:
    last = remember(user, tool)  # expect: ADK-W005
    return wildcard(tool, "rm*") and last != tool

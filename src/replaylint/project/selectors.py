"""Rule selectors as ruff reads them (a code, a prefix, a slug, or `ALL`) and the "did you mean"
hint for a name that is none of them."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from replaylint.core.codes import RULES, Code, is_known_selector, matches_prefix

ALL = "ALL"  # every rule, as `--select ALL` means in ruff


def known(selector: str) -> bool:
    return selector.strip().upper() == ALL or is_known_selector(selector)


def matches(code: Code, selector: str) -> bool:
    return selector.strip().upper() == ALL or matches_prefix(code, selector)


def nearest(name: str, known_names: Iterable[str]) -> str | None:
    """The known name closest to a misspelt one, when one is close enough to be meant."""
    names = list(known_names)
    found = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    if not found:  # a case slip ("adk-w03") still deserves a hint
        upper = {n.upper(): n for n in names}
        found = [upper[m] for m in difflib.get_close_matches(name.upper(), upper, 1, 0.6)]
    return found[0] if found else None


def did_you_mean(name: str, known_names: Iterable[str]) -> str:
    """ " (did you mean 'x'?)" when a known name is close, "" otherwise."""
    found = nearest(name, known_names)
    return f" (did you mean {found!r}?)" if found is not None else ""


def code_names() -> list[str]:
    """What a selector can spell: every code, every slug, and ALL."""
    return [*(code.value for code in RULES), *(meta.slug for meta in RULES.values()), ALL]


def unknown_selector(selector: str) -> str:
    """The one-line complaint about a selector that names no rule."""
    return f"unknown rule code or prefix {selector!r}{did_you_mean(selector, code_names())}"

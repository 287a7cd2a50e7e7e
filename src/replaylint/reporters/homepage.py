"""Where replaylint's documentation lives on the web, as the project declares it: the
`[project.urls]` of pyproject.toml, which the installed distribution's metadata carries as
`Project-URL` lines. Reports read elsewhere (SARIF's `informationUri`) link there, never to a
path of the machine that made them."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from importlib import metadata

DISTRIBUTION = "replaylint"
# Labels in order of preference, normalised as PEP 753 does (lower case, no punctuation).
_PREFERRED = ("documentation", "docs", "homepage")


def _normalised(label: str) -> str:
    return re.sub(r"[^a-z0-9]", "", label.lower())


def documentation_url(project_urls: Iterable[str]) -> str | None:
    """The first http(s) URL labelled as documentation, else as the home page, of `Project-URL`
    values (`"Label, URL"`); None when none is."""
    urls: dict[str, str] = {}
    for entry in project_urls:
        label, _, url = entry.partition(",")
        url = url.strip()
        if url.startswith(("https://", "http://")):
            urls.setdefault(_normalised(label), url)
    return next((urls[label] for label in _PREFERRED if label in urls), None)


@lru_cache(maxsize=1)
def declared_documentation_url() -> str | None:
    """documentation_url of the installed replaylint's metadata; None when it declares none
    (or replaylint runs from a tree that was never installed)."""
    try:
        found = metadata.metadata(DISTRIBUTION).get_all("Project-URL") or []
    except metadata.PackageNotFoundError:
        return None
    return documentation_url(found)

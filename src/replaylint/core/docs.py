"""Rule pages (rules/ADK-*.md): found in the wheel or the repository, read for `replaylint rule`."""

from __future__ import annotations

from pathlib import Path

from replaylint.core.codes import RULES, Code


def rules_dir() -> Path:
    package = Path(__file__).resolve().parents[1]  # replaylint/, from replaylint/core/docs.py
    packaged = package / "_rules"
    if packaged.is_dir():
        return packaged
    return package.parents[1] / "rules"  # a checkout: src/replaylint -> the repository root


def records_dir() -> Path:
    """The framework records (rules/frameworks/<name>.toml)."""
    return rules_dir() / "frameworks"


def page_path(code: Code) -> Path:
    return rules_dir() / f"{code.value}.md"


def page(code: Code) -> str:
    return page_path(code).read_text(encoding="utf-8")


def listing() -> str:
    width = max(len(meta.slug) for meta in RULES.values())
    return (
        "\n".join(
            f"{code.value}  {meta.slug.ljust(width)}  {meta.finding.replace(' ({call})', '')}"
            for code, meta in RULES.items()
        )
        + "\n"
    )

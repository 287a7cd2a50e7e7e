"""The Code enum, the rule pages and ALL_RULES match one to one."""

from __future__ import annotations

import re

from replaylint.codes import RULES, Code, parse_code
from replaylint.docs import page, rules_dir
from replaylint.rules import ALL_RULES

REQUIRED = ["What it does", "Why it breaks replay", "Example", "Use instead", "Known limits"]
OPTIONAL = {"In framework code", "Options", "References"}


def test_all_rules_cover_every_code_in_order() -> None:
    assert [rule.code for rule in ALL_RULES] == list(Code)


def test_every_code_has_a_page_and_every_page_a_code() -> None:
    pages = {p.stem for p in rules_dir().glob("ADK-*.md")}
    assert pages == {code.value for code in Code}


def test_pages_have_the_required_headings_in_order() -> None:
    for code in Code:
        text = page(code)
        assert text.startswith(f"# {RULES[code].slug} ({code.value})\n")
        headings = re.findall(r"^## (.+)$", text, flags=re.M)
        assert [h for h in headings if h not in OPTIONAL] == REQUIRED, (code, headings)


def test_codes_parse_from_code_or_slug() -> None:
    assert parse_code("ADK-W003") is Code.W003
    assert parse_code("adk-w003") is Code.W003
    assert parse_code("wall-clock-in-workflow") is Code.W003
    assert parse_code("ADK-W999") is None


def test_class_names_are_the_pascal_case_slugs() -> None:
    for rule in ALL_RULES:
        pascal = "".join(part.capitalize() for part in RULES[rule.code].slug.split("-"))
        assert type(rule).__name__ == pascal


def test_prefilter_import_names_match_the_presets() -> None:
    from replaylint.config import PRESET_PACKAGES
    from replaylint.resolve.frameworks import PRESETS

    assert {name: preset.packages for name, preset in PRESETS.items()} == PRESET_PACKAGES

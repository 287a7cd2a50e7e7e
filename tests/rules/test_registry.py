"""The Code enum, the rule pages and ALL_RULES match one to one."""

from __future__ import annotations

import re
from pathlib import Path

from replaylint.core.codes import RULES, WALK_CODES, Code, parse_code
from replaylint.core.docs import page, rules_dir
from replaylint.rules import ALL_RULES

REQUIRED = ["What it does", "Why it breaks replay", "Example", "Use instead", "Known limits"]
OPTIONAL = {"In framework code", "Fix safety", "Options", "References"}


def test_all_rules_cover_every_code_of_the_walk_in_order() -> None:
    # The versioning codes are decided by comparing two versions (replaylint.versioning).
    assert [rule.code for rule in ALL_RULES] == list(WALK_CODES)


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


def test_every_catalog_category_belongs_to_exactly_one_rule() -> None:
    from replaylint.resolve.catalog import default_catalog
    from replaylint.rules.catalog_rule import CatalogRule

    owners: dict[str, list[Code]] = {}
    for rule in ALL_RULES:
        if isinstance(rule, CatalogRule):
            owners.setdefault(rule.category, []).append(rule.code)
    assert all(len(codes) == 1 for codes in owners.values()), owners
    assert default_catalog().categories() == set(owners)


def test_the_evaluator_never_picks_a_code() -> None:
    # Rules decide codes; the walk (resolve/) only resolves and emits facts. The presets'
    # remedies are keyed by code, which is data about a framework, not a decision.
    from pathlib import Path

    import replaylint.resolve

    folder = Path(replaylint.resolve.__file__).parent
    deciding = [
        path.name
        for path in folder.glob("*.py")
        if re.search(r"\bCode\.", path.read_text())
    ]
    assert deciding == []


def test_source_modules_stay_small_and_say_what_they_own() -> None:
    from pathlib import Path

    import replaylint

    for path in Path(replaylint.__file__).parent.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert len(text.splitlines()) <= 400, f"{path.name} has grown past 400 lines"
        assert text.lstrip().startswith('"""'), f"{path.name} does not open with its docstring"


def test_the_readme_rules_table_is_the_registry() -> None:
    """One row per code, in the registry's order, with the registry's remedy word for word."""
    text = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    table = text[text.index("| code | finding | remedy |") :].split("\n\n", 1)[0]
    rows = [[c.strip() for c in row.strip("|").split("|")] for row in table.splitlines()[2:]]
    assert [row[0] for row in rows] == [code.value for code in RULES]
    assert [row[2] for row in rows] == [meta.remedy for meta in RULES.values()]


def test_each_rule_lives_in_the_module_named_after_its_slug() -> None:
    # code -> slug -> file: ADK-W007 is process-environment-in-workflow, in
    # rules/process_environment_in_workflow.py, as ruff names a rule's file after the rule.
    for rule in ALL_RULES:
        assert type(rule).__module__ == f"replaylint.rules.{RULES[rule.code].module}"


def test_catalog_rules_are_the_codes_whose_kind_says_so() -> None:
    from replaylint.core.codes import CATALOG, CATALOG_CODES
    from replaylint.rules.catalog_rule import CatalogRule

    catalog_rules = [rule.code for rule in ALL_RULES if isinstance(rule, CatalogRule)]
    assert catalog_rules == list(CATALOG_CODES)
    assert all(RULES[code].kind == CATALOG and RULES[code].category for code in CATALOG_CODES)
    assert all(meta.category == "" for meta in RULES.values() if meta.kind != CATALOG)


def test_a_code_is_fixable_exactly_when_the_fix_data_fixes_it() -> None:
    from replaylint.core.codes import CATEGORY_OF
    from replaylint.fixes.data import default_data
    from replaylint.resolve.catalog import default_catalog

    catalog = default_catalog()
    data = default_data()
    code_of = {category: code for code, category in CATEGORY_OF.items()}
    fixed = set()
    for (_, target), _templates in [*data._calls.items(), *data._codes.items()]:
        if isinstance(target, Code):
            fixed.add(target)
        else:
            entry = catalog.calls.get(target)
            assert entry is not None, target
            fixed.add(code_of[entry.category])
    assert fixed == {code for code, meta in RULES.items() if meta.fixable}


FIXTURES = Path(__file__).parent


def test_every_code_has_a_fixture_folder_with_a_finding_and_a_clean_case() -> None:
    from replaylint.api.testing import expectations

    # The versioning codes' fixtures are repositories of two commits (tests/versioning/).
    for code in WALK_CODES:
        folder = FIXTURES / code.value
        assert folder.is_dir(), f"tests/rules/{code.value}/ is missing"
        expected, clean = False, False
        for case in sorted(folder.iterdir()):
            files = sorted(case.rglob("*.py")) if case.is_dir() else [case]
            markers = {
                e.code for f in files for e in expectations(f.read_text(encoding="utf-8"), f.name)
            }
            expected = expected or code.value in markers
            clean = clean or (case.suffix == ".py" and not markers)
        assert expected, f"no case in tests/rules/{code.value}/ expects {code.value}"
        assert clean, f"no clean case in tests/rules/{code.value}/"


def test_each_class_name_is_defined_once_in_the_package() -> None:
    import ast

    import replaylint

    where: dict[str, list[str]] = {}
    for path in Path(replaylint.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                where.setdefault(node.name, []).append(path.name)
    assert {name: files for name, files in where.items() if len(files) > 1} == {}


def test_no_function_runs_past_sixty_lines() -> None:
    import ast

    import replaylint

    long = []
    for path in Path(replaylint.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > 60:
                    long.append(f"{path.name}:{node.name} ({lines} lines)")
    assert long == []
